"""A compact, lazily rebuilt form of a type graph for the disk cache.

``encode`` flattens a (possibly cyclic) graph into a table of plain tuples that ``marshal`` reads in a
few milliseconds; ``decode`` returns the root at once and builds each node's members only when something
reads them. A definition touches a few dozen of a large CRD's thousands of nodes, so a warm load stays
cheap. The nodes are ``SchemaType`` instances (a subclass that fills its fields on first access), shared
as in the original graph, with ``ANY`` kept as the singleton.
"""

from __future__ import annotations

from typing import Any

from wmaplint.schema.types import ANY, LazyType, Property, SchemaType

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


class _Graph:
    __slots__ = ("rows", "nodes")

    def __init__(self, rows: list[Row]) -> None:
        self.rows = rows
        self.nodes: list[SchemaType | None] = [None] * len(rows)

    def get(self, i: int | None) -> SchemaType | None:
        if i is None:
            return None
        if i == _ANY_INDEX:
            return ANY
        node = self.nodes[i]
        if node is None:
            node = object.__new__(_LazyType)
            node.kind = self.rows[i][0]
            node._graph = self
            node._index = i
            self.nodes[i] = node
        return node


class _LazyType(LazyType):
    """A SchemaType whose fields (all but ``kind``) are filled from the table the first time one is read."""

    __slots__ = ("_graph", "_index")
    _graph: _Graph
    _index: int

    def _fill(self) -> None:
        graph: _Graph = object.__getattribute__(self, "_graph")
        row = graph.rows[object.__getattribute__(self, "_index")]
        get = graph.get
        (_, props, required, additional, preserve, embedded, items, list_type, keys, fmt, enum, pattern,
         nullable, default, has_default, variants, line, column, ref) = row
        self.properties = {  # type: ignore[misc]
            name: Property(name, get(i), pl, pc, text) for name, i, pl, pc, text in props  # type: ignore
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
        self.variants = tuple(get(v) for v in variants)  # type: ignore[misc]
        self.line = line
        self.column = column
        self.ref = ref


def decode(rows: list[Row]) -> SchemaType:
    """The root of an encoded graph; raises ValueError for a table that is not one."""
    width = 1 + len(_FIELDS)
    if not isinstance(rows, list) or not rows or not all(isinstance(r, tuple) and len(r) == width
                                                         for r in rows):
        raise ValueError("not an encoded type table")
    root = _Graph(rows).get(0)
    assert root is not None
    return root
