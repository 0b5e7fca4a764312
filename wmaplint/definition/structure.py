"""The structure of a definition against the format's schema: types, required, unknown and repeated fields,
sizes, and a status block the file should not carry.

The walk goes over positioned nodes, driven by the format's JSON Schema (``wmaplint.definition.format``,
written from the table of fields); each finding is a finding, which the format rules word.
"""

from __future__ import annotations

from typing import Any

from wmaplint.dataclass import dataclass
from wmaplint.definition.format import DEFINITION_SCHEMA, FORMAT_REFS
from wmaplint.diagnostics import Span
from wmaplint.findings import FileFinding
from wmaplint.schema.raw import RawSchema, follow
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode
from wmaplint.spelling import suggestions

Pointer = tuple[str | int, ...]

def place(pointer: Pointer) -> str:
    """A key path as people read it: ``spec.structureDefinition.childComponents[0]``."""
    out = ""
    for part in pointer:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "document"


@dataclass(frozen=True, slots=True, eq=False)
class StructureFinding(FileFinding):
    """What the walk found at ``pointer``, the key path of the value (or mapping, or list) concerned."""

    pointer: Pointer

    @property
    def where(self) -> str:
        return place(self.pointer)


@dataclass(frozen=True, slots=True, eq=False)
class InvalidType(StructureFinding):
    """``node`` is not the ``expected`` JSON type (``object``, ``array`` or ``string``)."""

    node: Node
    expected: str


@dataclass(frozen=True, slots=True, eq=False)
class MissingField(StructureFinding):
    """The mapping at ``pointer`` lacks the required ``field`` (or has it null)."""

    field: str


@dataclass(frozen=True, slots=True, eq=False)
class UnknownKey(StructureFinding):
    """The mapping at ``pointer`` has a key, ``name``, that its object does not: ``valid`` are the keys it
    has, ``suggestions`` the closest of them, best first."""

    key: ScalarNode
    name: str
    valid: tuple[str, ...]
    suggestions: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class DuplicateEntry(StructureFinding):
    """The list at ``pointer`` repeats an entry that must be unique: a set repeats the value ``texts[0]``, a
    list map the values ``texts`` of its keys ``keys``. ``first``: where the entry stands the first time."""

    keys: tuple[str, ...]
    texts: tuple[str, ...]
    first: Span


@dataclass(frozen=True, slots=True, eq=False)
class EmptyValue(StructureFinding):
    """A value smaller than the format allows: a ``string`` shorter, a ``map`` or a ``list`` with fewer
    entries than ``least``."""

    kind: str
    least: int


@dataclass(frozen=True, slots=True, eq=False)
class StatusBlock(FileFinding):
    """The document carries a status block (not empty or null)."""


def _head(node: Node) -> Node:
    """A mapping's first line rather than its whole block, so underlines stay readable."""
    if isinstance(node, MappingNode) and node.pairs:
        return node.pairs[0][0]
    return node


class _Walk:
    def __init__(self, path: str) -> None:
        self.path = path
        self.findings: list[FileFinding] = []
        self.stack: list[tuple[Node, object, Pointer, Node]] = []

    def run(self, root: MappingNode) -> list[FileFinding]:
        self.stack.append((root, DEFINITION_SCHEMA, (), root))
        while self.stack:
            node, raw, pointer, anchor = self.stack.pop()
            schema = follow(raw, FORMAT_REFS)
            if schema is None:
                continue
            expected = schema.get("type")
            if isinstance(node, ScalarNode) and node.value is None and pointer:
                continue  # null is "absent" to the API server; required-ness is checked by the parent
            if expected == "object":
                if not isinstance(node, MappingNode):
                    self.findings.append(InvalidType(self.path, node.span, pointer, node, "object"))
                    continue
                self._object(node, schema, pointer, anchor)
            elif expected == "array":
                if not isinstance(node, SequenceNode):
                    self.findings.append(InvalidType(self.path, node.span, pointer, node, "array"))
                    continue
                self._array(node, schema, pointer, anchor)
            elif expected == "string":
                if not (isinstance(node, ScalarNode) and isinstance(node.value, str)):
                    self.findings.append(InvalidType(self.path, node.span, pointer, node, "string"))
                    continue
                least = schema.get("minLength")
                if isinstance(least, int) and len(node.value) < least:
                    self.findings.append(EmptyValue(self.path, node.span, pointer, "string", least))
        return self.findings

    def _object(self, node: MappingNode, schema: RawSchema, pointer: Pointer, anchor: Node) -> None:
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        extra = schema.get("additionalProperties", True)
        present = set()
        for key, value in node.pairs:
            name = key.value if isinstance(key.value, str) else key.text
            present.add(name)
            if name in props:
                self.stack.append((value, props[name], (*pointer, name), key))
            elif isinstance(extra, dict):
                self.stack.append((value, extra, (*pointer, name), key))
            elif extra is False:
                valid = sorted(props)
                self.findings.append(UnknownKey(self.path, key.span, pointer, key, name, tuple(valid),
                                               tuple(suggestions(name, valid))))
        required = schema.get("required")
        for needed in required if isinstance(required, list) else ():
            if not isinstance(needed, str):
                continue
            given = node.get(needed)
            if needed not in present or (isinstance(given, ScalarNode) and given.value is None):
                target = anchor if anchor is not node else node
                self.findings.append(MissingField(self.path, _head(target).span, pointer, needed))
        least = schema.get("minProperties")
        if isinstance(least, int) and len(node.pairs) < least:
            self.findings.append(EmptyValue(self.path, _head(anchor).span, pointer, "map", least))

    def _array(self, node: SequenceNode, schema: RawSchema, pointer: Pointer, anchor: Node) -> None:
        items = schema.get("items", {})
        least = schema.get("minItems")
        if isinstance(least, int) and len(node.items) < least:
            self.findings.append(EmptyValue(self.path, anchor.span, pointer, "list", least))
        for i, item in enumerate(node.items):
            self.stack.append((item, items, (*pointer, i), item))
        list_type = schema.get("x-kubernetes-list-type")
        listed = schema.get("x-kubernetes-list-map-keys")
        keys = [k for k in listed if isinstance(k, str)] if isinstance(listed, list) else []
        seen: dict[Any, Node] = {}
        for item in node.items:
            if list_type == "set" and isinstance(item, ScalarNode):
                marker: Any = item.value
                key_names: tuple[str, ...] = ()
                texts: tuple[str, ...] = (item.text,)
            elif list_type == "map" and keys and isinstance(item, MappingNode):
                parts = [item.get(k) for k in keys]
                scalars = [p for p in parts if isinstance(p, ScalarNode)]
                if len(scalars) != len(parts):
                    continue
                marker = tuple(p.value for p in scalars)
                key_names, texts = tuple(keys), tuple(p.text for p in scalars)
            else:
                continue
            first = seen.get(marker)
            if first is None:
                seen[marker] = item
                continue
            self.findings.append(DuplicateEntry(self.path, _head(item).span, pointer, key_names, texts,
                                             _head(first).span))


def _status_block(path: str, root: MappingNode) -> StatusBlock | None:
    key = root.key_node("status")
    if key is None:
        return None
    value = root.get("status")
    if (isinstance(value, MappingNode) and not value.pairs) or (isinstance(value, ScalarNode)
                                                                and value.value is None):
        return None
    return StatusBlock(path, key.span)


def structure_findings(path: str, root: MappingNode) -> list[FileFinding]:
    """What is wrong with the structure of the definition document ``root`` of the file ``path``."""
    findings = _Walk(path).run(root)
    status = _status_block(path, root)
    if status is not None:
        findings.append(status)
    return findings
