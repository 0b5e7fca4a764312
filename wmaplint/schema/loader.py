"""Parse one schema source file (CRD YAML or Kubernetes OpenAPI v3 JSON) into GVK -> type.

A file yields a ``ParsedFile``: the type of every served GVK, the raw ``openAPIV3Schema`` dicts (``$ref`` left
alone) and the problems found. Nothing here raises for bad content; problems become ``SchemaError`` entries.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from wmaplint.dataclass import dataclass, field
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.raw import ref_name
from wmaplint.schema.types import (
    ANY,
    ANY_KIND,
    ARRAY,
    OBJECT,
    SCALAR_KINDS,
    LazyType,
    Property,
    SchemaType,
    int_or_string,
    union,
)
from wmaplint.schema.yamldata import Positions, load_documents
from wmaplint.source.reading import InputError, read_bytes

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

GVK = tuple[str, str, str]

# Deeper than any real schema (Kubernetes types nest ~25 levels); keeps building and pickling bounded.
MAX_DEPTH = 80

_PARTS = ("items", "additionalProperties", "allOf", "oneOf", "anyOf")

# Where a schema and its members are declared, shaped like the schema itself rather than keyed by object
# identity, so one (deduplicated) schema dict can be declared at several places:
# ``(line, column, members, parts)``; ``line`` counts from the line the caller starts from (absolute at
# the root), ``members`` has one ``(key line, key column, tree)`` per ``properties`` entry in order (the
# key's line from the schema's, the tree's from the key's), ``parts`` maps ``items``,
# ``additionalProperties`` (a tree) and ``allOf``/``oneOf``/``anyOf`` (a tuple of trees) to where they
# are, from the schema's line. Relative lines are small and repetitive: a bundle's trees compress to little.
Where = tuple[int, int, "tuple[Any, ...] | None", "dict[str, Any] | None"]


def opened(where: Where | None) -> Where | None:
    """A position tree whose members and parts may be folded: the bundle keeps those of its large subtrees
    as their marshalled bytes, ``(line, column, bytes)`` (``bundle_build.folded``), and a run decodes only
    those of the types whose members it builds."""
    if where is not None and len(where) == 3:
        members, parts = marshal.loads(where[2])
        return (where[0], where[1], members, parts)
    return where


@dataclass(slots=True)
class ParsedFile:
    path: str
    format: str  # "crd" or "openapi"
    # None only in cached meta entries, whose types are loaded one GVK at a time
    types: dict[GVK, SchemaType | None] = field(default_factory=dict)
    raws: dict[GVK, dict[str, Json]] = field(default_factory=dict)
    # the named definitions of an OpenAPI document, for resolve_ref
    components: dict[str, Json] = field(default_factory=dict)
    errors: list[SchemaError] = field(default_factory=list)
    # every GVK the file declares, served or not: lets a missing version be told apart from a missing kind
    declared_versions: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    # where each served GVK's schema is declared (CRD YAML only), for the pre-parsed bundle
    positions: dict[GVK, Where | None] = field(default_factory=dict)


def position_tree(schema: Json, positions: Positions, base: int = 0, depth: int = 0) -> Where | None:
    """The position tree of ``schema`` from the loader's identity-keyed positions (see ``Where``)."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH + 1:
        return None
    here = positions.get(id(schema), {})
    at = here.get(None)
    if at is None:
        return None
    line, column = at
    members: tuple[Any, ...] | None = None
    props = schema.get("properties")
    if isinstance(props, dict) and props:
        keys = positions.get(id(props), {})
        out: list[tuple[int, int, Where | None] | None] = []
        for name, sub in props.items():
            key = keys.get(name)
            if key is None:
                out.append(None)
            else:
                out.append((key[0] - line, key[1], position_tree(sub, positions, key[0], depth + 1)))
        members = tuple(out)
    parts: dict[str, Any] = {}
    for keyword in _PARTS:
        value = schema.get(keyword)
        if isinstance(value, dict):
            tree = position_tree(value, positions, line, depth + 1)
            if tree is not None:
                parts[keyword] = tree
        elif isinstance(value, list) and keyword != "items":
            trees = tuple(position_tree(v, positions, line, depth + 1) for v in value)
            if any(t is not None for t in trees):
                parts[keyword] = trees
    return (line - base, column, members, parts or None)


def _part(where: Where | None, keyword: str, index: int | None = None) -> Where | None:
    parts = where[3] if where is not None else None
    found = parts.get(keyword) if parts else None
    if index is None or found is None:
        return found
    return found[index] if index < len(found) else None


class _Pending(LazyType):
    """An object or array type whose members are built from its schema dict when first read."""

    __slots__ = ("_builder", "_schema", "_where", "_depth")
    _builder: TypeBuilder
    _schema: dict[str, Json]
    _where: Where | None
    _depth: int

    def _fill(self) -> None:
        self._set_defaults(keep=("line", "column", "ref"))
        self._builder.fill(self, self._schema, self._where, self._depth)


class TypeBuilder:
    """openAPI schema dicts -> SchemaType, with cyclic ``$ref`` support and a depth limit.

    Objects and arrays are built lazily: their members when first read (``force`` builds a whole graph, and
    with it every problem in ``errors``). Positions come from position trees (``Where``)."""

    def __init__(self, file: str, components: dict[str, Json] | None = None) -> None:
        self.file = file
        self.components = components or {}
        self.refs: dict[str, SchemaType] = {}
        self._building: dict[str, bool] = {}  # refs being built -> whether their placeholder was handed out
        self.errors: list[SchemaError] = []
        self._too_deep_reported = False

    def build(self, schema: Json, where: Where | None = None, base: int = 0, depth: int = 0) -> SchemaType:
        """The type of ``schema``; ``where`` is its position tree, whose line counts from ``base``."""
        if depth > MAX_DEPTH:
            if not self._too_deep_reported:
                self._too_deep_reported = True
                self.errors.append(
                    SchemaError(f"schema nested deeper than {MAX_DEPTH} levels; deeper parts are not checked",
                                self.file, base + where[0] if where is not None else None)
                )
            return ANY
        if not isinstance(schema, dict):
            return ANY
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._from_ref(ref, depth)
        line = base + where[0] if where is not None else None
        all_of = schema.get("allOf")
        if isinstance(all_of, list) and all_of and "type" not in schema and "properties" not in schema:
            return self._from_all_of(schema, all_of, where, line, depth)
        return self._from_plain(schema, where, line, depth)

    # -- pieces -----------------------------------------------------------------------------

    def _from_ref(self, ref: str, depth: int) -> SchemaType:
        known = self.refs.get(ref)
        if known is not None:
            if ref in self._building:
                self._building[ref] = True  # a cycle took the placeholder: it must be filled
            return known
        name = ref_name(ref)
        target = self.components.get(name) if name is not None else None
        if not isinstance(target, dict):
            self.errors.append(SchemaError(f"unresolvable $ref {ref!r}", self.file))
            self.refs[ref] = ANY
            return ANY
        placeholder = SchemaType(ANY_KIND)
        self.refs[ref] = placeholder  # a cycle back to this ref sees the placeholder, filled below
        self._building[ref] = False
        built = self.build(target, None, 0, depth + 1)
        if type(built) is _Pending and built._schema is target and not self._building.pop(ref):
            built.ref = name  # made for this target and nobody holds the placeholder: stays lazy
            self.refs[ref] = built
            return built
        self._building.pop(ref, None)
        for slot in SchemaType.__slots__:
            setattr(placeholder, slot, getattr(built, slot))
        placeholder.ref = name
        return placeholder

    def _from_all_of(self, schema: dict[str, Json], parts: list[Json], where: Where | None, line: int | None,
                     depth: int) -> SchemaType:
        where = opened(where)
        built = [self.build(p, _part(where, "allOf", i), line or 0, depth + 1) for i, p in enumerate(parts)]
        if len(built) == 1:
            base = built[0]
        else:
            objects = [b for b in built if b.kind == OBJECT]
            if len(objects) != len(built):
                base = built[0]
            else:
                base = SchemaType(OBJECT)
                for b in objects:
                    base.properties.update(b.properties)
                    base.required |= b.required
                    base.additional = base.additional or b.additional
                    base.preserve_unknown |= b.preserve_unknown
        nullable = bool(schema.get("nullable"))
        if nullable or "default" in schema:
            copy = SchemaType(base.kind)
            for slot in SchemaType.__slots__:
                setattr(copy, slot, getattr(base, slot))
            copy.nullable = copy.nullable or nullable
            if "default" in schema:
                copy.default, copy.has_default = schema["default"], True
            return copy
        return base

    def _from_plain(self, schema: dict[str, Json], where: Where | None, line: int | None,
                    depth: int) -> SchemaType:
        column = where[1] if where is not None else None
        if schema.get("x-kubernetes-int-or-string") is True:
            t = int_or_string()
            t.line, t.column = line, column
            self._common(t, schema)
            return t
        kind = schema.get("type")
        if isinstance(kind, list):  # OpenAPI 3.1 style; not structural but seen in the wild
            kinds = [k for k in kind if isinstance(k, str)]
            kind = next((k for k in kinds if k != "null"), None)
        if kind is None:
            for keyword in ("oneOf", "anyOf"):
                variants = schema.get(keyword)
                if not variants:
                    continue
                if isinstance(variants, list):
                    where = opened(where)
                    built = [self.build(v, _part(where, keyword, i), line or 0, depth + 1)
                             for i, v in enumerate(variants)]
                    if all(b.kind != ANY_KIND for b in built):
                        if schema.get("format") == "int-or-string":
                            return int_or_string()
                        return union(*built)
                break
            if "properties" in schema or "additionalProperties" in schema:
                kind = OBJECT
            elif "items" in schema:
                kind = ARRAY
            else:
                return ANY  # empty or preserve-unknown-only schema: any value
        if kind in (OBJECT, ARRAY):
            pending = object.__new__(_Pending)
            pending.kind = kind
            pending.line, pending.column, pending.ref = line, column, None
            pending._builder, pending._schema, pending._where, pending._depth = self, schema, where, depth
            return pending
        if kind in SCALAR_KINDS:
            t = SchemaType(kind, line=line, column=column)
            fmt = schema.get("format")
            t.format = fmt if isinstance(fmt, str) else None
            pattern = schema.get("pattern")
            t.pattern = pattern if isinstance(pattern, str) else None
            enum = schema.get("enum")
            if isinstance(enum, list):
                t.enum = tuple(e for e in enum if not isinstance(e, (dict, list)))
            self._common(t, schema)
            return t
        self.errors.append(SchemaError(f"unknown schema type {kind!r}", self.file, line, column))
        return ANY

    def fill(self, t: SchemaType, schema: dict[str, Json], where: Where | None, depth: int) -> None:
        """Build the members of an object or array type made by ``_from_plain``."""
        where = opened(where)
        line = t.line or 0
        if t.kind == OBJECT:
            self._object(t, schema, where, line, depth)
        else:
            t.items = self.build(schema["items"], _part(where, "items"), line, depth + 1) \
                if "items" in schema else ANY
            lt = schema.get("x-kubernetes-list-type")
            t.list_type = lt if isinstance(lt, str) else None
            keys = schema.get("x-kubernetes-list-map-keys")
            if isinstance(keys, list):
                t.list_map_keys = tuple(k for k in keys if isinstance(k, str))
        self._common(t, schema)

    def _object(self, t: SchemaType, schema: dict[str, Json], where: Where | None, line: int,
                depth: int) -> None:
        props = schema.get("properties")
        if isinstance(props, dict):
            members = where[2] if where is not None else None
            for i, (name, sub) in enumerate(props.items()):
                if not isinstance(name, str):
                    continue
                at = members[i] if members is not None and i < len(members) else None
                text = sub.get("description") if isinstance(sub, dict) else None
                key_line = line + at[0] if at is not None else 0
                t.properties[name] = Property(
                    name, self.build(sub, at[2] if at is not None else None, key_line, depth + 1),
                    key_line if at is not None else None, at[1] if at is not None else None,
                    text if isinstance(text, str) and text else None,
                )
        required = schema.get("required")
        if isinstance(required, list):
            t.required = frozenset(r for r in required if isinstance(r, str))
        extra = schema.get("additionalProperties")
        if extra is True:
            t.additional = ANY
        elif isinstance(extra, dict):
            t.additional = self.build(extra, _part(where, "additionalProperties"), line, depth + 1)
        t.preserve_unknown = schema.get("x-kubernetes-preserve-unknown-fields") is True
        t.embedded_resource = schema.get("x-kubernetes-embedded-resource") is True

    def _common(self, t: SchemaType, schema: dict[str, Json]) -> None:
        if schema.get("nullable") is True:
            t.nullable = True
        if "default" in schema:
            t.default, t.has_default = schema["default"], True


def force(types: Iterable[SchemaType | None]) -> None:
    """Build every lazily built member of the graphs of ``types`` (iteratively; cycles are fine)."""
    seen: set[int] = set()
    stack = [t for t in types if t is not None]
    while stack:
        t = stack.pop()
        if id(t) in seen or t is ANY:
            continue
        seen.add(id(t))
        stack.extend(p.type for p in t.properties.values())
        stack.extend(x for x in (t.items, t.additional) if x is not None)
        stack.extend(t.variants)


# -- files ------------------------------------------------------------------------------------


def parse_bytes(data: bytes, path: str) -> ParsedFile:
    """Parse a CRD YAML stream or an OpenAPI JSON document; never raises for bad content."""
    if path.endswith(".json") or data.lstrip()[:1] == b"{":
        try:
            doc = json.loads(data)
        except (ValueError, RecursionError):
            doc = None
        # a CRD (or a List of them) written as JSON is still a CRD: detected by content, not syntax
        if _is_crd_document(doc) or (doc is None and not path.endswith(".json")):
            return _parse_crd_stream(data, path)
        return _parse_openapi(data, path)
    return _parse_crd_stream(data, path)


def _is_crd_document(doc: object) -> bool:
    if not isinstance(doc, dict):
        return False
    if doc.get("kind") == "CustomResourceDefinition":
        return True
    items = doc.get("items")
    return (
        doc.get("kind") == "List"
        and isinstance(items, list)
        and any(isinstance(i, dict) and i.get("kind") == "CustomResourceDefinition" for i in items)
    )


def parse_file(path: str | Path) -> ParsedFile:
    p = str(path)
    try:
        data = read_bytes(p)
    except InputError as exc:
        out = ParsedFile(p, "crd")
        out.errors.append(SchemaError(f"cannot read schema source: {exc.reason}", p))
        return out
    return parse_bytes(data, p)


def _parse_crd_stream(data: bytes, path: str) -> ParsedFile:
    out = ParsedFile(path, "crd")
    positions: Positions = {}
    try:
        docs = load_documents(data, positions)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        out.errors.append(
            SchemaError(f"broken YAML: {exc.problem or exc}", path,
                        mark.line + 1 if mark else None, mark.column + 1 if mark else None)
        )
        return out
    except (yaml.YAMLError, ValueError, RecursionError) as exc:
        out.errors.append(SchemaError(f"broken YAML: {exc}", path))
        return out
    crds: list[dict[str, Json]] = []
    for doc in docs:
        if not isinstance(doc, dict):
            continue
        if doc.get("kind") == "List" and isinstance(doc.get("items"), list):
            crds.extend(d for d in doc["items"] if isinstance(d, dict))
        else:
            crds.append(doc)
    builder = TypeBuilder(path)
    for crd in crds:
        if crd.get("kind") != "CustomResourceDefinition":
            continue
        _add_crd(out, crd, builder, positions)
    if not out.types and not out.errors:
        out.errors.append(SchemaError("no CustomResourceDefinition found", path))
    force(out.types.values())
    out.errors.extend(builder.errors)
    return out


def _add_crd(out: ParsedFile, crd: dict[str, Json], builder: TypeBuilder, positions: Positions) -> None:
    spec = crd.get("spec")
    line = positions.get(id(crd), {}).get(None, (None,))[0]
    if not isinstance(spec, dict):
        out.errors.append(SchemaError("CustomResourceDefinition without spec", out.path, line))
        return
    group = spec.get("group")
    names = spec.get("names")
    kind = names.get("kind") if isinstance(names, dict) else None
    if not isinstance(group, str) or not isinstance(kind, str):
        out.errors.append(SchemaError("CustomResourceDefinition without spec.group or spec.names.kind",
                                      out.path, line))
        return
    versions = spec.get("versions")
    if not isinstance(versions, list):  # apiextensions v1beta1: one version, shared validation
        single = spec.get("version")
        versions = [{"name": single, "served": True}] if isinstance(single, str) else []
    validation = spec.get("validation")
    shared_schema = validation.get("openAPIV3Schema") if isinstance(validation, dict) else None
    declared = out.declared_versions.setdefault((group, kind), [])
    for version in versions:
        name = version.get("name") if isinstance(version, dict) else None
        if not isinstance(version, dict) or not isinstance(name, str):
            continue
        declared.append(name)
        if version.get("served", True) is False:
            continue
        schema_holder = version.get("schema")
        raw = schema_holder.get("openAPIV3Schema") if isinstance(schema_holder, dict) else shared_schema
        gvk = (group, name, kind)
        if not isinstance(raw, dict):
            vline = positions.get(id(version), {}).get(None, (None,))[0]
            out.errors.append(SchemaError(f"{_fmt(gvk)} has no openAPIV3Schema; its paths are not checked",
                                          out.path, vline))
            out.types[gvk] = ANY
            out.raws[gvk] = {}
            continue
        where = position_tree(raw, positions)
        out.types[gvk] = builder.build(raw, where)
        out.raws[gvk] = raw
        out.positions[gvk] = where


def _parse_openapi(data: bytes, path: str) -> ParsedFile:
    out = ParsedFile(path, "openapi")
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as exc:
        line = getattr(exc, "lineno", None)
        out.errors.append(SchemaError(f"broken JSON: {exc}", path, line))
        return out
    comps: Any = None
    if isinstance(doc, dict):
        comps = doc.get("components", {}).get("schemas") if isinstance(doc.get("components"), dict) else None
        if comps is None:
            comps = doc.get("definitions")
    if not isinstance(comps, dict):
        out.errors.append(SchemaError("not an OpenAPI document (no components.schemas)", path))
        return out
    out.components = comps
    builder = TypeBuilder(path, comps)
    for name, schema in comps.items():
        if not isinstance(schema, dict):
            continue
        gvks = schema.get("x-kubernetes-group-version-kind")
        # DeleteOptions, WatchEvent... list every group: they are not the schema of any one kind
        if not isinstance(gvks, list) or len(gvks) != 1 or not isinstance(gvks[0], dict):
            continue
        g = gvks[0]
        gvk = (str(g.get("group", "")), str(g.get("version", "")), str(g.get("kind", "")))
        out.declared_versions.setdefault((gvk[0], gvk[2]), []).append(gvk[1])
        try:
            out.types[gvk] = builder.build({"$ref": "#/components/schemas/" + name})
        except RecursionError:
            out.errors.append(SchemaError(f"schema of {name} is too deep to analyse", path))
            out.types[gvk] = ANY
        out.raws[gvk] = schema
    try:
        force(out.types.values())
    except RecursionError:
        out.errors.append(SchemaError("schema too deep to analyse", path))
    out.errors.extend(builder.errors)
    return out


def _fmt(gvk: GVK) -> str:
    group, version, kind = gvk
    return f"{group + '/' if group else ''}{version} {kind}"


def format_gvk(gvk: GVK) -> str:
    """``jobset.x-k8s.io/v1alpha2 JobSet``; the core group prints as ``v1 Pod``."""
    return _fmt(gvk)

