"""Fast YAML to plain data, remembering where mapping keys are declared.

libyaml (``CSafeLoader``) composes the node graph in C; converting nodes ourselves (iteratively, so deep
documents cannot exhaust the stack) is faster than PyYAML's constructor and lets us keep key positions,
which the type model uses for "declared here" locations.
"""

from __future__ import annotations

import math
from typing import Any

import yaml

try:
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - PyYAML built without libyaml
    _Loader = yaml.SafeLoader

# id(dict) -> {key: (line, column)} and {None: (line, column)} for the mapping itself; 1-based
Positions = dict[int, dict[Any, tuple[int, int]]]

_BOOL_TRUE = {"true", "yes", "on"}
_NULLS = {"", "~", "null"}


def _scalar(node: yaml.ScalarNode) -> Any:
    tag, value = node.tag, node.value
    if tag == "tag:yaml.org,2002:str":
        return value
    try:
        if tag == "tag:yaml.org,2002:int":
            text = value.replace("_", "").lower()
            sign = -1 if text.startswith("-") else 1
            text = text.lstrip("+-")
            if text.startswith("0x"):
                return sign * int(text[2:], 16)
            if text.startswith("0o"):
                return sign * int(text[2:], 8)
            if text.startswith("0b"):
                return sign * int(text[2:], 2)
            if len(text) > 1 and text.startswith("0"):
                return sign * int(text, 8)
            return sign * int(text)
        if tag == "tag:yaml.org,2002:float":
            text = value.replace("_", "").lower()
            if text in (".inf", "+.inf"):
                return math.inf
            if text == "-.inf":
                return -math.inf
            if text == ".nan":
                return math.nan
            return float(text)
    except ValueError:
        return value
    if tag == "tag:yaml.org,2002:bool":
        return value.lower() in _BOOL_TRUE
    if tag == "tag:yaml.org,2002:null":
        return None if value.lower() in _NULLS else value
    return value


def load_documents(data: bytes | str, positions: Positions | None = None) -> list[Any]:
    """All documents of a YAML stream as plain data; raises ``yaml.YAMLError`` on broken input."""
    docs: list[Any] = []
    for root in yaml.compose_all(data, Loader=_Loader):
        if root is not None:
            docs.append(_convert(root, positions))
    return docs


def _convert(root: yaml.Node, positions: Positions | None) -> Any:
    memo: dict[int, Any] = {}  # aliases share nodes: convert each once (alias bombs stay linear)

    def make(node: yaml.Node) -> tuple[Any, bool]:
        """Return (value, needs_fill)."""
        known = memo.get(id(node))
        if known is not None:
            return known, False
        if isinstance(node, yaml.ScalarNode):
            return _scalar(node), False
        value: Any = {} if isinstance(node, yaml.MappingNode) else []
        memo[id(node)] = value
        return value, True

    top, fill = make(root)
    stack: list[tuple[yaml.Node, Any]] = [(root, top)] if fill else []
    while stack:
        node, target = stack.pop()
        if isinstance(node, yaml.SequenceNode):
            for child in node.value:
                value, fill = make(child)
                target.append(value)
                if fill:
                    stack.append((child, value))
            continue
        where: dict[Any, tuple[int, int]] | None = None
        if positions is not None:
            where = positions.setdefault(id(target), {})
            where[None] = (node.start_mark.line + 1, node.start_mark.column + 1)
        for key_node, value_node in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key: Any = _scalar(key_node)
            else:  # complex keys never occur in schemas; keep something hashable
                key = repr(key_node.value)[:80]
            if key == "<<" and key_node.tag == "tag:yaml.org,2002:merge":
                continue  # merge keys are not used by CRDs; ignore rather than guess
            value, fill = make(value_node)
            try:
                target[key] = value
            except TypeError:
                continue
            if where is not None:
                where[key] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            if fill:
                stack.append((value_node, value))
    return top
