"""Validate workload manifests against their schemas, as the API server would on create.

Two kinds of findings, both findings positioned in the manifest file and worded by their rules:
- structural (``SchemaViolation``): a field the schema does not declare (where unknown fields are not
  preserved), a value of the wrong type, a missing required field, a value outside an enum; the API server
  with strict field validation (kubectl's default) rejects the object;
- CEL (``wmaplint.cel.issues``): the CRD's x-kubernetes-validations rules, evaluated with wmaplint.cel.

A kind no schema source serves is a note, never an error: without the CRD there is nothing to check against.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import Diagnostic, Span
from wmaplint.findings import DataFinding, FileFinding, diagnostics_of
from wmaplint.schema.raw import RawSchema, RefResolver, follow
from wmaplint.source import Document, Node, anchor_node

if TYPE_CHECKING:
    from wmaplint.resolve.loading import LoadedDocument
    from wmaplint.schema.store import ResolvedSchema, Schemas
    from wmaplint.source.plain import Json

MAX_NODES = 200_000
MAX_DEPTH = 100

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class SchemaViolation(FileFinding):
    """A manifest does not fit its kind's structural schema; ``message`` is the API server's field error."""

    message: str


@dataclass(frozen=True)
class ManifestProblem(DataFinding):
    """One finding about a manifest: ``kind`` is the finding it becomes (``kind(path, span, message)``),
    ``path`` the data path; ``at_key`` places it on the key itself."""

    kind: Callable[[str, Span, str], FileFinding]
    message: str
    path: Path
    at_key: bool = True

    def at(self, path: str, span: Span, **more: Any) -> FileFinding:
        """The finding, placed at ``span`` of file ``path``."""
        return self.kind(path, span, self.message, **more)

    def span_in(self, root: Node | None) -> Span:
        """Where the problem stands in the manifest ``root``: its key (``at_key``) or its value, else the
        whole file."""
        node = anchor_node(root, self.path, self.at_key)
        return node.span if node is not None else Span.whole_file()


@dataclass
class ManifestValidation:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    checked: int = 0


def render_path(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + part
    return out or "<root>"


def _type_name(value: object) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return "null"


def _fits(kind: str, value: object) -> bool:
    actual = _type_name(value)
    if kind == "number":
        return actual in ("integer", "number")
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        return True  # JSON numbers like 2.0 decode as integers on the server
    return actual == kind


class _NodeFacts:
    """What the structural walk reads of one schema node (one whose ``follow`` is itself), read once a node:
    a tree run walks a thousand manifests through the same few hundred nodes."""

    __slots__ = ("node", "kind", "int_or_string", "enum", "props", "children", "extra", "preserve",
                 "embedded", "required", "closed", "free")

    def __init__(self, node: RawSchema) -> None:
        self.node = node
        kind = node.get("type")
        self.kind = kind if isinstance(kind, str) and kind else None
        self.int_or_string = (node.get("x-kubernetes-int-or-string") is True
                              or node.get("format") == "int-or-string")
        enum = node.get("enum")
        self.enum = enum if isinstance(enum, list) and enum else None
        props = node.get("properties")
        self.props: Mapping[str, Json] = props if isinstance(props, Mapping) else {}
        # each declared property's schema and whether it embeds a resource
        self.children = {
            key: (sub, isinstance(sub, Mapping) and sub.get("x-kubernetes-embedded-resource") is True)
            for key, sub in self.props.items()
        }
        extra = node.get("additionalProperties")
        self.extra = extra if isinstance(extra, Mapping) else None
        self.preserve = node.get("x-kubernetes-preserve-unknown-fields") is True or extra is True
        self.embedded = node.get("x-kubernetes-embedded-resource") is True
        required = node.get("required")
        self.required = required if isinstance(required, list) else None
        # free-form: no properties and no schema of further keys, in an OpenAPI document (``closed``), and
        # also elsewhere when untyped (``free``); an untyped schema accepts anything
        self.closed = not self.props and self.extra is None
        self.free = self.closed and (extra is True or "type" not in node)


# schema node -> its facts
_FACTS: memo.ByIdentity[_NodeFacts] = memo.ByIdentity(__name__, "_FACTS")
# the name of a plain value's type, by its exact type (a subclass is named by ``_type_name``)
_TYPE_NAMES: dict[type, str] = {bool: "boolean", int: "integer", float: "number", str: "string",
                                list: "array", dict: "object"}


def _facts(raw: object, resolve_ref: RefResolver | None) -> _NodeFacts | None:
    """The facts of the schema ``raw`` stands for (``follow``); None when it stands for none."""
    found = _FACTS.get(raw)
    if found is not None:
        return found  # a node without references: itself whatever the resolver
    node = follow(raw, resolve_ref)
    if node is None:
        return None
    return _FACTS.get(node) or _FACTS.put(node, _NodeFacts(node))


def structural_problems(
    schema: RawSchema, obj: Json, resolve_ref: RefResolver | None = None
) -> list[ManifestProblem]:
    """Unknown fields, wrong types, missing required fields and enum violations of ``obj`` (iterative walk).

    CRD schemas prune undeclared fields (unless x-kubernetes-preserve-unknown-fields); in Kubernetes OpenAPI
    documents an object without properties is free-form. Root metadata without declared properties is the
    API server's own ObjectMeta and is not checked here.
    """
    openapi = "x-kubernetes-group-version-kind" in schema
    out: list[ManifestProblem] = []
    stack: list[tuple[object, Json, Path, bool]] = [(schema, obj, (), False)]
    visited = 0
    while stack and visited < MAX_NODES:
        raw, value, path, embedded = stack.pop()
        visited += 1
        if value is None:
            continue
        facts = _facts(raw, resolve_ref)
        if facts is None or len(path) > MAX_DEPTH:
            continue
        kind = facts.kind
        if kind is None or _TYPE_NAMES.get(type(value)) != kind or facts.int_or_string:
            if not _type_ok(facts.node, value, resolve_ref):
                where = render_path(path)  # rendered only for a finding: most nodes have none
                expected = _expected_type(facts.node)
                out.append(
                    ManifestProblem(
                        SchemaViolation,
                        f'{where}: Invalid value: "{_type_name(value)}": {where} in body must be of type '
                        f"{expected}: {_show(value)}",
                        path,
                    )
                )
                continue
        enum = facts.enum
        if enum is not None and not isinstance(value, (Mapping, list)) and value not in enum:
            supported = ", ".join(_show(e) for e in enum)
            where = render_path(path)
            out.append(
                ManifestProblem(
                    SchemaViolation,
                    f"{where}: Unsupported value: {_show(value)}: supported values: {supported}",
                    path,
                )
            )
        children: list[tuple[object, Json, Path, bool]] = []
        # plain types first: isinstance with the ABC Mapping costs 8 times as much
        if type(value) is dict or (type(value) is not list and isinstance(value, Mapping)):
            declared = facts.children
            extra = facts.extra
            is_embedded = embedded or facts.embedded
            required = facts.required
            if required is not None:
                for name in required:
                    if (
                        isinstance(name, str)
                        and value.get(name) is None
                        and not _has_default(facts.props.get(name), resolve_ref)
                    ):
                        out.append(
                            ManifestProblem(
                                SchemaViolation,
                                f"{render_path((*path, name))}: Required value",
                                path,
                            )
                        )
            free = facts.preserve or facts.free or (openapi and facts.closed)
            for key, item in value.items():
                key = str(key)
                child = declared.get(key)
                if child is not None:
                    sub, embeds = child
                    if not path and key == "metadata" and not _declares_properties(sub, resolve_ref):
                        continue
                    children.append((sub, item, (*path, key), embeds))
                elif extra is not None:
                    children.append((extra, item, (*path, key), False))
                elif free:
                    continue
                elif (not path or is_embedded) and key in ("apiVersion", "kind", "metadata"):
                    continue
                else:
                    out.append(
                        ManifestProblem(
                            SchemaViolation, f'unknown field "{render_path((*path, key))}"', (*path, key)
                        )
                    )
        elif isinstance(value, list):
            items = facts.node.get("items")
            if isinstance(items, Mapping):
                children.extend((items, item, (*path, i), False) for i, item in enumerate(value))
        stack.extend(reversed(children))
    return out


def _has_default(schema: object, resolve_ref: RefResolver | None) -> bool:
    """The API server fills a missing (or null) field from its schema default before validating."""
    node = follow(schema, resolve_ref)
    return isinstance(node, Mapping) and "default" in node


def _declares_properties(schema: object, resolve_ref: RefResolver | None) -> bool:
    node = follow(schema, resolve_ref)
    return (
        isinstance(node, Mapping) and isinstance(node.get("properties"), Mapping) and bool(node["properties"])
    )


def _branches(node: RawSchema, resolve_ref: RefResolver | None) -> list[RawSchema]:
    out: list[RawSchema] = []
    for key in ("oneOf", "anyOf"):
        options = node.get(key)
        if isinstance(options, list):
            out.extend(b for b in (follow(o, resolve_ref) for o in options) if b is not None)
    return out


def _type_ok(node: RawSchema, value: object, resolve_ref: RefResolver | None) -> bool:
    if node.get("x-kubernetes-int-or-string") is True or node.get("format") == "int-or-string":
        return isinstance(value, (int, str)) and not isinstance(value, bool)
    kind = node.get("type")
    if isinstance(kind, str) and kind:
        return _fits(kind, value)
    branches = _branches(node, resolve_ref)
    typed = [str(b["type"]) for b in branches if isinstance(b.get("type"), str)]
    return not typed or any(_fits(k, value) for k in typed)


def _expected_type(node: RawSchema) -> str:
    kind = node.get("type")
    return kind if isinstance(kind, str) else "the declared type"


def _show(value: Json) -> str:
    if isinstance(value, (Mapping, list)):
        return _type_name(value)
    return json.dumps(value)


def cel_problems(
    schema: RawSchema, obj: Json, resolve_ref: RefResolver | None = None, source: str | None = None
) -> list[ManifestProblem]:
    """The CRD's validation rules on ``obj``, with the API server's messages; ``source`` as
    ``validate_object`` takes it."""
    from wmaplint.cel import validate_object

    return [
        ManifestProblem(v.kind, v.message, v.key_path)
        for v in validate_object(schema, obj, resolve_ref, source=source)
    ]


def source_of(schema: ResolvedSchema) -> str | None:
    """What a served schema is within its source, for ``validate_object``: the source's digest and the GVK,
    None when the store knows no digest."""
    return "\0".join((schema.sha256, *schema.gvk)) if schema.sha256 else None


def validate_manifest(value: Json, store: Schemas | None) -> tuple[list[ManifestProblem], str | None]:
    """Problems of one manifest and, when no schema source serves its kind, a note saying so."""
    if not isinstance(value, Mapping):
        return [], None
    api_version, kind = value.get("apiVersion"), value.get("kind")
    if not isinstance(api_version, str) or not isinstance(kind, str) or not kind:
        return [], None
    group, _, version = api_version.rpartition("/")
    schemas = store.lookup(group, version, kind) if store is not None else []
    if not schemas:
        return (
            [],
            f"no schema source serves {api_version} {kind}: the manifest is not validated (pass --crds)",
        )
    schema = schemas[0]
    raw = schema.raw
    if not raw:
        return [], None
    return structural_problems(raw, value, schema.resolve_ref) + cel_problems(
        raw, value, schema.resolve_ref, source_of(schema)
    ), None


def problem_diagnostics(problems: list[ManifestProblem], root: Node | None, path: str) -> list[Diagnostic]:
    """The diagnostics of a manifest's problems, placed in file ``path`` whose manifest is ``root``."""
    return list(diagnostics_of(problem.at(path, problem.span_in(root)) for problem in problems))


def validate_node(
    value: Any, root: Node | None, path: str, store: Schemas | None
) -> tuple[list[Diagnostic], str | None]:
    """Diagnostics of one manifest whose source is ``root`` in file ``path`` (a whole document or a node
    inside one, e.g. a manifest written inline in a test suite); the note when no schema serves its kind."""
    problems, note = validate_manifest(value, store)
    return problem_diagnostics(problems, root, path), note


def skipped_sources(store: Schemas) -> list[Diagnostic]:
    """The diagnostics of every schema source the store could not use."""
    return [_source_diagnostic(error) for error in store.errors]


def validate_documents(documents: list[tuple[str, Document, Any]], store: Schemas) -> ManifestValidation:
    """Validate (file path, positioned document, plain value) triples; notes name kinds without a schema."""
    result = ManifestValidation()
    noted: set[str] = set()
    for path, document, value in documents:
        problems, note = validate_manifest(value, store)
        if note is not None:
            if note not in noted:
                noted.add(note)
                result.notes.append(f"{path}: {note}")
            continue
        result.checked += 1
        result.diagnostics.extend(problem_diagnostics(problems, document.root, path))
    return result


def validate_loaded(manifests: list[LoadedDocument], store: Schemas) -> ManifestValidation:
    """Validate loaded manifest documents against the schemas of ``store``; the sources it could not use are
    reported when a kind was looked up."""
    result = validate_documents([(m.path, m.document, m.value) for m in manifests], store)
    if result.checked or result.notes:  # errors surface when a kind was looked up
        result.diagnostics.extend(_source_diagnostic(error) for error in store.errors)
    return result


def _source_diagnostic(error: Any) -> Diagnostic:
    """The diagnostic of a schema source the store skipped (a --crds typo, a broken file)."""
    from wmaplint.schema.errors import SkippedSource

    line = getattr(error, "line", None) or 1
    column = getattr(error, "column", None) or 1
    span = Span(line, column, line, column + 1) if getattr(error, "line", None) else Span.whole_file()
    path = getattr(error, "file", None) or "<schema sources>"
    (diagnostic,) = diagnostics_of([SkippedSource(path, span, str(error))])
    return diagnostic
