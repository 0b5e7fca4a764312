"""Definitions written in the proposed CEL format, which no released runtime reads.

Upstream proposed (dsx-ai-factory/workload-map pull request #352, "adopt CEL as the expression language for
karta definitions", closed without merging) to keep apiVersion run.ai/v1alpha1 but replace the jq path
fields by value accessors, ``{expression, patch, replace}`` objects (a CEL read, a merge patch or an RFC 6902
write), with named expressions in ``spec.variables`` and ``references`` to other objects. The released
format (the Karta CRD of schemas/lock.yaml) has none of these: its ``*Path`` fields are strings of jq. Such a
document is recognised here, so that it gets one finding instead of one per unknown field and jq parse.
"""

from __future__ import annotations

from wmaplint.dataclass import dataclass
from wmaplint.findings import FileFinding
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode

# Keys of an accessor that the released format never uses; `expression` alone is a released key too.
WRITE_KEYS = frozenset({"patch", "replace"})
SPEC_KEYS = {"variables": "named CEL expressions", "references": "references to other objects"}


@dataclass(frozen=True, slots=True, eq=False)
class CelFormatDefinition(FileFinding):
    """The document is in the proposed CEL format; ``field`` (at ``span``) is its first field of that
    format and ``shape`` says what makes it one."""

    field: str
    shape: str


def _is_path_key(key: str) -> bool:
    return key == "path" or key.endswith("Path") or key.endswith("Paths")


def _markers(node: Node, trail: str, found: list[tuple[int, ScalarNode, str, str]]) -> None:
    """(offset, key node, dotted field, shape) of every field of the proposed format below ``node``."""
    if isinstance(node, MappingNode):
        for key, value in node.pairs:
            name = str(key.value)
            here = f"{trail}.{name}" if trail else name
            if isinstance(value, MappingNode) and _is_path_key(name) and (
                    "expression" in value.keys() or WRITE_KEYS & set(value.keys())):
                found.append((key.start, key, here, "a value accessor: {expression, patch, replace}"))
            elif name in WRITE_KEYS:
                found.append((key.start, key, here, f"a {name} write"))
            _markers(value, here, found)
    elif isinstance(node, SequenceNode):
        for index, item in enumerate(node.items):
            _markers(item, f"{trail}[{index}]", found)


def recognise(root: Node | None, path: str) -> CelFormatDefinition | None:
    """The proposed format's first field in a definition document, or None for a released-format one.

    One accessor or write suffices; ``spec.variables`` and ``spec.references`` count once one is there
    (alone they are only unknown fields)."""
    spec = root.get("spec") if isinstance(root, MappingNode) else None
    if not isinstance(spec, MappingNode):
        return None
    found: list[tuple[int, ScalarNode, str, str]] = []
    _markers(spec, "spec", found)
    if not found:
        return None
    for key, _ in spec.pairs:
        if key.value in SPEC_KEYS:
            found.append((key.start, key, f"spec.{key.value}", SPEC_KEYS[key.value]))
    _, key, field, shape = min(found, key=lambda marker: marker[0])
    return CelFormatDefinition(path, key.span, field, shape)
