"""Positioned YAML nodes: every key and value knows where it stands in its file."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from wmaplint import memo
from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import Span
from wmaplint.source.lines import LineIndex

PLAIN, SINGLE, DOUBLE, LITERAL, FOLDED = "plain", "single", "double", "literal", "folded"
STYLE_NAMES = {None: PLAIN, "": PLAIN, "'": SINGLE, '"': DOUBLE, "|": LITERAL, ">": FOLDED}


@dataclass(eq=False, slots=True)
class Node:
    """Nodes are made by the thousand: each class writes out its ``__init__`` (wmaplint.dataclass)."""

    span: Span
    start: int  # character offsets into the file text (end exclusive)
    end: int


@dataclass(eq=False, slots=True)
class ScalarNode(Node):
    value: Any  # str, int, float, bool or None, resolved like Kubernetes' YAML decoder
    text: str  # the decoded string form, before type resolution
    style: str  # plain, single, double, literal or folded
    tag: str = ""
    source: SourceText | None = field(default=None, repr=False)

    def __init__(self, span: Span, start: int, end: int, value: Any, text: str, style: str, tag: str = "",
                 source: SourceText | None = None) -> None:
        self.span = span
        self.start = start
        self.end = end
        self.value = value
        self.text = text
        self.style = style
        self.tag = tag
        self.source = source

    def span_of(self, start: int, end: int) -> Span:
        """The file span of characters ``start:end`` of the decoded value (clamped to the value)."""
        if self.source is None:
            return self.span
        return self.source.scalar_span(self, start, end)


@dataclass(eq=False, slots=True)
class MappingNode(Node):
    pairs: list[tuple[ScalarNode, Node]]

    def __init__(self, span: Span, start: int, end: int, pairs: list[tuple[ScalarNode, Node]]) -> None:
        self.span = span
        self.start = start
        self.end = end
        self.pairs = pairs

    def get(self, key: str) -> Node | None:
        for k, v in self.pairs:
            if k.value == key:
                return v
        return None

    def key_node(self, key: str) -> ScalarNode | None:
        for k, _ in self.pairs:
            if k.value == key:
                return k
        return None

    def keys(self) -> list[str]:
        return [str(k.value) for k, _ in self.pairs]


@dataclass(eq=False, slots=True)
class SequenceNode(Node):
    items: list[Node]

    def __init__(self, span: Span, start: int, end: int, items: list[Node]) -> None:
        self.span = span
        self.start = start
        self.end = end
        self.items = items


@contextmanager
def no_cyclic_gc() -> Iterator[None]:
    """Pause the cyclic collector while building node trees or plain data from them.

    Reading a file allocates millions of acyclic objects; each full collection rescans all of them, so a
    200,000-item array took 30 s instead of 4 s. Reference counting still frees garbage meanwhile.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def to_python(node: Node | None) -> Any:
    """Plain data for a node tree (iterative: safe for deep trees)."""
    if node is None:
        return None
    if isinstance(node, ScalarNode):
        return node.value
    root: Any = {} if isinstance(node, MappingNode) else []
    stack: list[tuple[Node, Any]] = [(node, root)]
    with no_cyclic_gc():
        _fill(stack)
    return root


def _fill(stack: list[tuple[Node, Any]]) -> None:
    # every node of every manifest passes here: a mapping and a sequence each have their loop, and nodes are
    # told by their exact type (no class derives from them)
    while stack:
        current, out = stack.pop()
        if type(current) is MappingNode:
            for key_node, child in current.pairs:
                key = key_node.value
                if type(key) is not str:
                    key = str(key)
                if type(child) is ScalarNode:
                    out[key] = child.value
                else:
                    value: Any = {} if type(child) is MappingNode else []
                    stack.append((child, value))
                    out[key] = value
        else:
            assert isinstance(current, SequenceNode)
            for child in current.items:
                if type(child) is ScalarNode:
                    out.append(child.value)
                else:
                    value = {} if type(child) is MappingNode else []
                    stack.append((child, value))
                    out.append(value)


def content_span(node: Node) -> Span:
    """The span of a node's own text: a block mapping or sequence ends where the next token starts (the start
    of a later line, or the next key), so it is cut back to the end of its last item. A finding on a matcher
    written on one line then marks that line only; a flow collection keeps its closing bracket."""
    chain = [node]
    while True:  # iterative: safe for deep trees
        last = chain[-1]
        if isinstance(last, MappingNode) and last.pairs:
            chain.append(last.pairs[-1][1])
        elif isinstance(last, SequenceNode) and last.items:
            chain.append(last.items[-1])
        else:
            break
    end = chain[-1].span
    for outer in reversed(chain[:-1]):
        if end.end_line >= outer.span.end_line:
            end = outer.span  # closes on its last item's line: its own end (a bracket) is part of its text
    return Span(node.span.start_line, node.span.start_col, end.end_line, end.end_col)


def find_node(node: Node | None, pointer: tuple[str | int, ...]) -> Node | None:
    """The node at a key path (strings index mappings, integers index sequences)."""
    for part in pointer:
        if isinstance(node, MappingNode) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, SequenceNode) and isinstance(part, int) and 0 <= part < len(node.items):
            node = node.items[part]
        else:
            return None
    return node


def anchor_node(root: Node | None, path: tuple[str | int, ...], at_key: bool = True) -> Node | None:
    """The node of a data path: a mapping entry's key (or value); else the nearest existing ancestor."""
    parts = list(path)
    while parts:
        parent = find_node(root, tuple(parts[:-1]))
        last = parts[-1]
        if isinstance(parent, MappingNode) and isinstance(last, str):
            value = parent.get(last)
            key = parent.key_node(last)
            if key is not None:
                return key if at_key or value is None else value
        if isinstance(parent, SequenceNode) and isinstance(last, int) and 0 <= last < len(parent.items):
            return parent.items[last]
        parts.pop()
    return root


def iter_nodes(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, MappingNode):
            for k, v in reversed(current.pairs):
                stack.append(v)
                stack.append(k)
        elif isinstance(current, SequenceNode):
            stack.extend(reversed(current.items))


class SourceText:
    """The text of one file; maps offsets (also inside scalars) to positions in the line model of `lines`."""

    __slots__ = ("path", "text", "roots", "composed", "_index")

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.roots: list[tuple[int, int]] = []  # where each document's root node starts and ends
        self.composed = False  # the whole text was composed without a YAML error (set by its reader)
        self._index: LineIndex | None = None  # built on first use: most files never need it

    def document_around(self, offset: int) -> tuple[int, int]:
        """The text of the document holding ``offset``: from the start of its root node's line to the end of
        its root node (the whole text when no document holds it)."""
        for start, end in self.roots:
            if start <= offset < end or start == offset:
                line_start = max(self.text.rfind("\n", 0, start), self.text.rfind("\r", 0, start)) + 1
                return line_start, end
        return 0, len(self.text)

    @property
    def lines(self) -> LineIndex:
        if self._index is None:
            self._index = LineIndex(self.text)
        return self._index

    def position(self, index: int) -> tuple[int, int]:
        """1-based (line, column) of a character offset, clamped to the text."""
        return self.lines.position(max(0, min(index, len(self.text))))

    def span(self, start: int, end: int) -> Span:
        sl, sc = self.position(start)
        el, ec = self.position(max(start, end))
        return Span(sl, sc, el, ec)

    def line_text(self, line: int) -> str:
        return self.lines.line_text(line)

    def scalar_span(self, node: ScalarNode, start: int, end: int) -> Span:
        offsets = self._offsets(node)
        if offsets is None:
            return node.span
        last = len(offsets) - 1
        start = max(0, min(start, last))
        end = max(start, min(end, last))
        src_start = offsets[start]
        if end > start:
            # end at the source char after the last value char's own source char
            src_end = offsets[end - 1] + 1 if end < last else offsets[last]
            src_end = max(src_end, src_start + 1)
        else:
            src_end = src_start
        return self.span(src_start, src_end)

    def _offsets(self, node: ScalarNode) -> list[int] | None:
        cache = _OFFSETS.get(id(node))
        if cache is not None and cache[0] is node:
            return cache[1]
        try:
            from wmaplint.source.scalars import decode_with_offsets

            style = {PLAIN: None, SINGLE: "'", DOUBLE: '"', LITERAL: "|", FOLDED: ">"}[node.style]
            value, offsets = decode_with_offsets(self.text, node.start, node.end, style)
        except Exception:  # a mapping we cannot make points at the whole scalar instead
            return None
        if value != node.text:
            return None
        if len(_OFFSETS) > 4096:
            _OFFSETS.clear()
        _OFFSETS[id(node)] = (node, offsets)
        return offsets


_OFFSETS: dict[int, tuple[ScalarNode, list[int]]] = memo.kept(__name__, "_OFFSETS", {}, pure=True)
