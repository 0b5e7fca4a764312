"""Fast YAML to plain data, remembering where mapping keys are declared.

libyaml (``CSafeLoader``) composes the node graph in C; converting nodes ourselves (iteratively, so deep
documents cannot exhaust the stack) is faster than PyYAML's constructor and lets us keep key positions,
which the type model uses for "declared here" locations.
"""

from __future__ import annotations

import math
from typing import Any

import yaml

from wmaplint.source.loader import MAX_ALIAS_EXPANSION, screen

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
    """All documents of a YAML stream as plain data; raises ``yaml.YAMLError`` on broken input, ValueError on
    input past the limits of a file (``source.loader.screen``)."""
    past = screen(data)  # before anything is composed: the nodes and documents of a file, as any is read
    if past is not None:
        raise ValueError(past)
    docs: list[Any] = []
    for root in yaml.compose_all(data, Loader=_Loader):
        if root is not None:
            docs.append(_convert(root, positions))
    return docs


def _aliased_nodes(root: yaml.Node) -> int:
    """How many nodes the document's aliases add once expanded (each shared node counted at each of its
    places, less once), iteratively; stops counting far past the alias limit."""
    sizes: dict[int, int] = {}
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if id(node) in sizes:
            continue
        if isinstance(node, yaml.ScalarNode):
            sizes[id(node)] = 1
            continue
        children = [c for pair in node.value for c in pair] if isinstance(node, yaml.MappingNode) \
            else list(node.value)
        if children_done:
            sizes[id(node)] = min(1 + sum(sizes[id(c)] for c in children), MAX_ALIAS_EXPANSION * 10)
            continue
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)] - len(sizes)


def _convert(root: yaml.Node, positions: Positions | None) -> Any:
    memo: dict[int, Any] = {}  # aliases share nodes: convert each once
    shared = False

    def make(node: yaml.Node) -> tuple[Any, bool]:
        """Return (value, needs_fill)."""
        nonlocal shared
        known = memo.get(id(node))
        if known is not None:
            shared = True
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
    # Shared values stay shared here, but whatever walks or writes the data (the cache's JSON, a schema
    # build) meets them at every place: a "billion laughs" document is refused as definitions refuse it.
    if shared and _aliased_nodes(root) > MAX_ALIAS_EXPANSION:
        raise ValueError(f"aliases expand the document past {MAX_ALIAS_EXPANSION} more nodes; it is not read")
    return top
