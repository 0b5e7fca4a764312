"""A compact, lazily rebuilt form of a type graph for the disk cache: data only, JSON line by line.

``encode`` flattens a (possibly cyclic) graph into a table of plain rows; ``to_payload`` writes it as a header
line (the row count and each row's kind) and one JSON line per row; ``from_payload`` returns the root at once
and reads (``json.loads``) and checks each row only when something reads a member of its node. A definition
touches a few dozen of a large CRD's thousands of nodes, so a warm load costs a split of the lines, not a
parse of the table. The nodes are ``SchemaType`` instances (a subclass that fills its fields on first
access), shared as in the original graph, with ``ANY`` kept as the singleton. A row that is not a row of
this form (only a hand-made record could hold one: the cache checks each record's digest) leaves its node
without members, never an exception in the analysis that reads it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from wmaplint.schema.types import (
    ANY,
    ANY_KIND,
    ARRAY,
    OBJECT,
    SCALAR_KINDS,
    UNION,
    LazyType,
    Property,
    SchemaType,
)

_ANY_INDEX = -1
# SchemaType fields in table order after ``kind``; properties, items, additional and variants hold indices
_FIELDS = (
    "properties", "required", "additional", "preserve_unknown", "embedded_resource", "items", "list_type",
    "list_map_keys", "format", "enum", "pattern", "nullable", "default", "has_default", "variants", "line",
    "column", "ref",
)
Row = tuple[Any, ...]


def encode(root: SchemaType) -> list[Row]:
    """The table of ``root``'s graph; row 0 is the root. Iterative: deep or cyclic graphs are fine."""
    index: dict[int, int] = {}
    order: list[SchemaType] = []

    def ref(t: SchemaType | None) -> int | None:
        if t is None:
            return None
        if t is ANY:
            return _ANY_INDEX
        i = index.get(id(t))
        if i is None:
            i = index[id(t)] = len(order)
            order.append(t)
        return i

    ref(root)
    rows: list[Row] = []
    n = 0
    while n < len(order):  # order grows while rows are made: a breadth-first walk without recursion
        t = order[n]
        n += 1
        props = tuple((p.name, ref(p.type), p.line, p.column, p.description) for p in t.properties.values())
        rows.append((
            t.kind, props, tuple(sorted(t.required)), ref(t.additional), t.preserve_unknown,
            t.embedded_resource, ref(t.items), t.list_type, t.list_map_keys, t.format, t.enum, t.pattern,
            t.nullable, t.default, t.has_default, tuple(ref(v) for v in t.variants), t.line, t.column, t.ref,
        ))
    return rows


KINDS = frozenset({OBJECT, ARRAY, UNION, ANY_KIND, *SCALAR_KINDS})
_WIDTH = 1 + len(_FIELDS)


def _json_value(value: object) -> bool:
    """Whether a default or enum value reads back from JSON as itself (YAML gives dicts and lists, no tuples;
    a mapping with keys that are not strings does not)."""
    if isinstance(value, (dict, list)):
        try:
            return bool(json.loads(json.dumps(value)) == value)
        except (TypeError, ValueError, RecursionError):
            return False
    return value is None or isinstance(value, (str, int, float, bool))


def to_payload(rows: list[Row]) -> bytes:
    """The table as a header line and one JSON line a row; ValueError for values JSON does not keep."""
    lines = [json.dumps({"rows": len(rows), "kinds": [r[0] for r in rows]}, separators=(",", ":"))]
    for r in rows:
        enum, default = r[10], r[13]
        if (enum is not None and not all(_json_value(e) for e in enum)) or not _json_value(default):
            raise ValueError("a default or enum value that JSON does not keep")
        lines.append(json.dumps(r, separators=(",", ":")))
    return "\n".join(lines).encode("utf-8", "surrogatepass")


def from_payload(payload: bytes, damaged: Callable[[], None] | None = None) -> SchemaType:
    """The root of a table written by ``to_payload``; ValueError when its header or line count is wrong.
    ``damaged`` is called (once) when a row read later is not a row of the table."""
    lines = payload.split(b"\n")
    try:
        header = json.loads(lines[0])
    except (ValueError, RecursionError):
        raise ValueError("not an encoded type table") from None
    if not isinstance(header, dict):
        raise ValueError("not an encoded type table")
    count, kinds = header.get("rows"), header.get("kinds")
    if (not isinstance(count, int) or count < 1 or len(lines) != count + 1 or not isinstance(kinds, list)
            or len(kinds) != count or not all(isinstance(k, str) for k in kinds) or not set(kinds) <= KINDS):
        raise ValueError("not an encoded type table")
    root = _Graph(kinds, lines, damaged).get(0)
    assert root is not None
    return root


class _Graph:
    __slots__ = ("kinds", "lines", "nodes", "on_damage")

    def __init__(self, kinds: list[str], lines: list[Any],
                 on_damage: Callable[[], None] | None = None) -> None:
        self.kinds = kinds
        self.lines = lines  # lines[i + 1]: row i, as JSON bytes (or a row itself)
        self.nodes: list[SchemaType | None] = [None] * len(kinds)
        self.on_damage = on_damage

    def damaged(self) -> None:
        if self.on_damage is not None:
            self.on_damage()
            self.on_damage = None

    def get(self, i: int | None) -> SchemaType | None:
        if i is None:
            return None
        if i == _ANY_INDEX:
            return ANY
        node = self.nodes[i]
        if node is None:
            node = object.__new__(_LazyType)
            node.kind = self.kinds[i]
            node._graph = self
            node._index = i
            self.nodes[i] = node
        return node

    def row(self, i: int) -> Row | None:
        """Row i, read and checked; None for one that is not a row of this table."""
        line = self.lines[i + 1]
        try:
            row = json.loads(line) if isinstance(line, (bytes, str)) else line
        except (ValueError, RecursionError):
            return None
        return row if _valid(row, len(self.kinds)) and row[0] == self.kinds[i] else None


def _index(value: object, count: int, optional: bool = True) -> bool:
    if value is None:
        return optional
    return type(value) is int and (value == _ANY_INDEX or 0 <= value < count)


def _text(value: object) -> bool:
    return value is None or type(value) is str


def _position(value: object) -> bool:
    return value is None or type(value) is int


def _valid(row: object, count: int) -> bool:
    """Whether ``row`` has the shape ``encode`` gives (a list when read from JSON, a tuple when fresh)."""
    if not isinstance(row, (list, tuple)) or len(row) != _WIDTH:
        return False
    (_, props, required, additional, preserve, embedded, items, list_type, keys, fmt, enum, pattern,
     nullable, _default, has_default, variants, line, column, ref) = row
    return (
        isinstance(props, (list, tuple))
        and all(isinstance(p, (list, tuple)) and len(p) == 5 and type(p[0]) is str
                and _index(p[1], count, optional=False) and _position(p[2]) and _position(p[3])
                and _text(p[4])
                for p in props)
        and isinstance(required, (list, tuple)) and all(type(r) is str for r in required)
        and _index(additional, count) and _index(items, count)
        and all(type(flag) is bool for flag in (preserve, embedded, nullable, has_default))
        and all(_text(v) for v in (list_type, fmt, pattern, ref))
        and isinstance(keys, (list, tuple)) and all(type(k) is str for k in keys)
        and (enum is None or isinstance(enum, (list, tuple)))
        and isinstance(variants, (list, tuple)) and all(_index(v, count, optional=False) for v in variants)
        and _position(line) and _position(column)
    )


class _LazyType(LazyType):
    """A SchemaType whose fields (all but ``kind``) are filled from the table the first time one is read."""

    __slots__ = ("_graph", "_index")
    _graph: _Graph
    _index: int

    def _fill(self) -> None:
        graph: _Graph = object.__getattribute__(self, "_graph")
        row = graph.row(object.__getattribute__(self, "_index"))
        if row is None:
            graph.damaged()
            self._set_defaults()  # no members: what reads it sees a type it knows nothing of
            return
        get = graph.get
        (_, props, required, additional, preserve, embedded, items, list_type, keys, fmt, enum, pattern,
         nullable, default, has_default, variants, line, column, ref) = row
        self.properties = {  # every index was checked against the table when it was read (_index)
            name: Property(name, get(i), pl, pc, text)  # type: ignore[arg-type]  # so get() finds it
            for name, i, pl, pc, text in props
        }
        self.required = frozenset(required)
        self.additional = get(additional)
        self.preserve_unknown = preserve
        self.embedded_resource = embedded
        self.items = get(items)
        self.list_type = list_type
        self.list_map_keys = tuple(keys)
        self.format = fmt
        self.enum = tuple(enum) if enum is not None else None
        self.pattern = pattern
        self.nullable = nullable
        self.default = default
        self.has_default = has_default
        self.variants = tuple(get(v) for v in variants)  # type: ignore[misc]  # indices checked by _index
        self.line = line
        self.column = column
        self.ref = ref


def decode(rows: list[Row]) -> SchemaType:
    """The root of an encoded graph (rows as ``encode`` gives them); raises ValueError for a table that is
    not one."""
    if not isinstance(rows, list) or not rows or not all(isinstance(r, (tuple, list)) and len(r) == _WIDTH
                                                         and r[0] in KINDS for r in rows):
        raise ValueError("not an encoded type table")
    root = _Graph([r[0] for r in rows], [None, *rows]).get(0)
    assert root is not None
    return root
