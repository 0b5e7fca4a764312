"""JSONPath over the definition format: what a query can select, and the schema of each node it selects.

Checking a query against ``DEFINITION_SCHEMA`` before any definition is seen is what turns a misspelled field
in ``given`` into a load error, and gives ``self`` its CEL type.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wmaplint.cel import types as t
from wmaplint.dataclass import dataclass
from wmaplint.definition.format import DEFINITION_SCHEMA, FORMAT_REFS
from wmaplint.packs import jsonpath as jp

Schema = Mapping[str, Any]
MAX_CANDIDATES = 256  # wildcards over wide objects: past this, the type is simply dyn


TYPES = t.SchemaTypes(FORMAT_REFS)  # one converter, so a schema node always maps to the same CEL type


def _resolve(schema: object) -> Schema | None:
    return TYPES.resolve(schema)


def _is_object(node: Schema) -> bool:
    return node.get("type") == "object" or "properties" in node


def _closed(node: Schema) -> bool:
    """An object whose fields are all known (only then is an unknown name an error)."""
    return isinstance(node.get("properties"), Mapping) and node.get("additionalProperties") is False


@dataclass(frozen=True)
class StaticPath:
    """The result of walking a query over the format: the schemas it can reach (None = unknown) or a
    problem."""

    schemas: tuple[Schema, ...] | None
    problem: str | None = None

    def self_type(self) -> t.CelType:
        if not self.schemas:
            return t.DYN
        first = self.schemas[0]
        if any(s is not first for s in self.schemas[1:]):
            return t.DYN  # different places: only what they share is knowable, so let anything through
        converted = TYPES.type_of(first, "self")
        return converted if converted is not None else t.DYN


def _children(node: Schema) -> list[Schema] | None:
    """Schemas of every child (wildcard / filter); None when unknown."""
    if node.get("type") == "array":
        items = _resolve(node.get("items"))
        return [items] if items is not None else None
    extra = node.get("additionalProperties")
    if isinstance(extra, Mapping):
        found = _resolve(extra)
        return [found] if found is not None else None
    props = node.get("properties")
    if isinstance(props, Mapping) and _closed(node):
        return [s for s in (_resolve(p) for p in props.values()) if s is not None]
    return None


def _name(node: Schema, name: str, where: str) -> tuple[list[Schema] | None, str | None]:
    if node.get("type") == "array":
        return [], f"{where} is a list, so the name {name!r} selects nothing there (use [*])"
    props = node.get("properties")
    if isinstance(props, Mapping) and name in props:
        found = _resolve(props[name])
        return ([found] if found is not None else None), None
    extra = node.get("additionalProperties")
    if isinstance(extra, Mapping):
        found = _resolve(extra)
        return ([found] if found is not None else None), None
    if _closed(node):
        known = ", ".join(sorted(props)) if isinstance(props, Mapping) else ""
        return [], f"the definition format has no field {name!r} at {where} (known: {known})"
    if node.get("type") not in (None, "object"):
        return [], f"{where} is a {node.get('type')}, so the name {name!r} selects nothing"
    return None, None


def _items(node: Schema, where: str, what: str) -> tuple[list[Schema] | None, str | None]:
    if node.get("type") == "array":
        items = _resolve(node.get("items"))
        return ([items] if items is not None else None), None
    if _is_object(node) or node.get("type") is not None:
        return [], f"{where} is not a list, so {what} selects nothing there"
    return None, None


def walk(query: jp.Query) -> StaticPath:
    """Walk a compiled query's segments over the definition schema."""
    current: list[Schema] = [DEFINITION_SCHEMA]
    where = "$"
    for segment in query.segments:
        if segment.descendant:
            return StaticPath(None)  # any depth: no single place, so no static type
        following: list[Schema] = []
        for node in current:
            for selector in segment.selectors:
                found: list[Schema] | None
                problem: str | None = None
                if isinstance(selector, jp.Name):
                    found, problem = _name(node, selector.name, where)
                elif isinstance(selector, (jp.Index, jp.Slice)):
                    found, problem = _items(node, where, "an index")
                elif isinstance(selector, (jp.Wildcard, jp.Filter)):
                    found = _children(node)
                else:
                    found = None
                if problem is not None:
                    return StaticPath((), problem)
                if found is None:
                    return StaticPath(None)
                following.extend(found)
        current = following[:MAX_CANDIDATES]
        if len(following) > MAX_CANDIDATES:
            return StaticPath(None)
        where += _segment_text(segment)
    return StaticPath(tuple(current))


def _segment_text(segment: jp.Segment) -> str:
    parts = []
    for selector in segment.selectors:
        if isinstance(selector, jp.Name):
            parts.append(f".{selector.name}" if len(segment.selectors) == 1 else repr(selector.name))
        elif isinstance(selector, jp.Index):
            parts.append(f"[{selector.index}]")
        else:
            parts.append("[*]")
    return "".join(parts)


def schema_at(location: tuple[str | int, ...]) -> Schema | None:
    """The schema of the node at a concrete location in a definition; None when the format does not say."""
    node: Schema | None = DEFINITION_SCHEMA
    for part in location:
        if node is None:
            return None
        if isinstance(part, int):
            node = _resolve(node.get("items")) if node.get("type") == "array" else None
            continue
        props = node.get("properties")
        extra = node.get("additionalProperties")
        if isinstance(props, Mapping) and part in props:
            node = _resolve(props[part])
        elif isinstance(extra, Mapping):
            node = _resolve(extra)
        else:
            return None
    return node
