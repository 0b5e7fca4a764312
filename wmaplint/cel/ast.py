"""The checked CEL AST, decoded from cel-expr-python's serialized ``CheckedExpr`` (cel-spec field numbers)."""

from __future__ import annotations

from typing import Any

from wmaplint.cel import protowire as pw
from wmaplint.cel import types as t
from wmaplint.dataclass import dataclass, field

MAX_DEPTH = 400


@dataclass(eq=False)
class Node:
    id: int


@dataclass(eq=False)
class Const(Node):
    value: Any
    kind: str  # null, bool, int, uint, double, string, bytes


@dataclass(eq=False)
class Ident(Node):
    name: str


@dataclass(eq=False)
class Select(Node):
    operand: Node
    field: str
    test_only: bool


@dataclass(eq=False)
class Call(Node):
    function: str
    target: Node | None
    args: list[Node]


@dataclass(eq=False)
class ListLit(Node):
    elements: list[Node]
    optional_indices: list[int]


@dataclass(eq=False)
class MapEntry:
    id: int
    key: Node | None
    field_name: str | None
    value: Node
    optional: bool


@dataclass(eq=False)
class StructLit(Node):
    message_name: str
    entries: list[MapEntry]


@dataclass(eq=False)
class Comprehension(Node):
    iter_var: str
    iter_var2: str
    iter_range: Node
    accu_var: str
    accu_init: Node
    loop_condition: Node
    loop_step: Node
    result: Node


@dataclass(eq=False)
class Unknown(Node):
    pass


@dataclass
class CheckedAst:
    expr: Node
    types: dict[int, t.CelType] = field(default_factory=dict)
    references: dict[int, str] = field(default_factory=dict)  # expr id -> resolved name (idents, qualified)
    overloads: dict[int, list[str]] = field(default_factory=dict)
    positions: dict[int, int] = field(default_factory=dict)  # expr id -> code point offset


def decode_checked(serialized: bytes) -> CheckedAst:
    """Decode ``google.protobuf.Any{cel.expr.CheckedExpr}``; raises ``protowire.WireError`` on bad bytes."""
    outer = pw.parse(serialized)
    payload = pw.first_bytes(outer, 2)
    checked = pw.parse(payload)
    result = CheckedAst(Unknown(0))
    for entry in pw.all_bytes(checked, 2):
        fields = pw.parse(entry)
        key = pw.as_int64(pw.first_int(fields, 1))
        ref = pw.parse(pw.first_bytes(fields, 2))
        name = pw.first(ref, 1)
        if isinstance(name, bytes) and name:
            result.references[key] = name.decode()
        result.overloads[key] = [o.decode() for o in ref.get(3, []) if isinstance(o, bytes)]
    for entry in pw.all_bytes(checked, 3):
        fields = pw.parse(entry)
        key = pw.as_int64(pw.first_int(fields, 1))
        result.types[key] = decode_type(pw.first_bytes(fields, 2), 0)
    source = pw.first(checked, 5)
    if isinstance(source, bytes):
        info = pw.parse(source)
        for entry in pw.all_bytes(info, 4):
            fields = pw.parse(entry)
            result.positions[pw.as_int64(pw.first_int(fields, 1))] = pw.first_int(fields, 2)
    expr = pw.first(checked, 4)
    if isinstance(expr, bytes):
        result.expr = decode_expr(expr, 0)
    return result


_PRIMITIVES = {1: "bool", 2: "int", 3: "uint", 4: "double", 5: "string", 6: "bytes"}
_WELL_KNOWN = {1: "dyn", 2: "timestamp", 3: "duration"}


def decode_type(raw: bytes, depth: int) -> t.CelType:
    if depth > 32:
        return t.DYN
    fields = pw.parse(raw)
    if 3 in fields:
        return t.SCALARS[_PRIMITIVES.get(pw.first_int(fields, 3), "dyn")]
    if 4 in fields:  # wrapper types behave like their primitive (nullable)
        return t.SCALARS[_PRIMITIVES.get(pw.first_int(fields, 4), "dyn")]
    if 5 in fields:
        return t.SCALARS[_WELL_KNOWN.get(pw.first_int(fields, 5), "dyn")]
    if 2 in fields:
        return t.NULL
    if 6 in fields:
        inner = pw.parse(pw.first_bytes(fields, 6))
        return t.list_of(decode_type(pw.first_bytes(inner, 1), depth + 1))
    if 7 in fields:
        inner = pw.parse(pw.first_bytes(fields, 7))
        return t.map_of(
            decode_type(pw.first_bytes(inner, 1), depth + 1),
            decode_type(pw.first_bytes(inner, 2), depth + 1),
        )
    if 11 in fields:
        return t.TYPE
    if 14 in fields:
        inner = pw.parse(pw.first_bytes(fields, 14))
        name = pw.first_bytes(inner, 1).decode()
        params = [decode_type(p, depth + 1) for p in pw.all_bytes(inner, 2)]
        if name == "optional_type":
            return t.optional_of(params[0] if params else t.DYN)
        return t.opaque(name)
    if 9 in fields:
        return t.opaque(pw.first_bytes(fields, 9).decode())
    return t.DYN


def _text(value: object) -> str:
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else ""


def decode_expr(raw: bytes, depth: int) -> Node:
    if depth > MAX_DEPTH:
        raise pw.WireError("expression nesting too deep")
    fields = pw.parse(raw)
    node_id = pw.as_int64(pw.first_int(fields, 2))
    sub = depth + 1
    if 3 in fields:
        return _constant(node_id, pw.parse(pw.first_bytes(fields, 3)))
    if 4 in fields:
        return Ident(node_id, _text(pw.first(pw.parse(pw.first_bytes(fields, 4)), 1)))
    if 5 in fields:
        sel = pw.parse(pw.first_bytes(fields, 5))
        operand = decode_expr(pw.first_bytes(sel, 1), sub)
        return Select(node_id, operand, _text(pw.first(sel, 2)), bool(pw.first(sel, 3, 0)))
    if 6 in fields:
        call = pw.parse(pw.first_bytes(fields, 6))
        target_raw = pw.first(call, 1)
        target = decode_expr(target_raw, sub) if isinstance(target_raw, bytes) else None
        args = [decode_expr(a, sub) for a in pw.all_bytes(call, 3)]
        return Call(node_id, _text(pw.first(call, 2)), target, args)
    if 7 in fields:
        lst = pw.parse(pw.first_bytes(fields, 7))
        optional: list[int] = []
        for raw_idx in lst.get(2, []):
            if isinstance(raw_idx, bytes):  # packed
                optional.extend(pw.packed_varints(raw_idx))
            elif isinstance(raw_idx, int):
                optional.append(raw_idx)
        return ListLit(node_id, [decode_expr(e, sub) for e in pw.all_bytes(lst, 1)], optional)
    if 8 in fields:
        struct = pw.parse(pw.first_bytes(fields, 8))
        entries = []
        for raw_entry in pw.all_bytes(struct, 2):
            entry = pw.parse(raw_entry)
            key_raw = pw.first(entry, 3)
            entries.append(
                MapEntry(
                    pw.as_int64(pw.first_int(entry, 1)),
                    decode_expr(key_raw, sub) if isinstance(key_raw, bytes) else None,
                    _text(pw.first(entry, 2)) or None,
                    decode_expr(pw.first_bytes(entry, 4), sub),
                    bool(pw.first(entry, 5, 0)),
                )
            )
        return StructLit(node_id, _text(pw.first(struct, 1)), entries)
    if 9 in fields:
        comp = pw.parse(pw.first_bytes(fields, 9))

        def part(number: int) -> Node:
            raw_part = pw.first(comp, number)
            return decode_expr(raw_part, sub) if isinstance(raw_part, bytes) else Unknown(0)

        return Comprehension(
            node_id,
            _text(pw.first(comp, 1)),
            _text(pw.first(comp, 8)),
            part(2),
            _text(pw.first(comp, 3)),
            part(4),
            part(5),
            part(6),
            part(7),
        )
    return Unknown(node_id)


def _constant(node_id: int, fields: pw.Fields) -> Const:
    if 1 in fields:
        return Const(node_id, None, "null")
    if 2 in fields:
        return Const(node_id, bool(pw.first(fields, 2)), "bool")
    if 3 in fields:
        return Const(node_id, pw.as_int64(pw.first_int(fields, 3)), "int")
    if 4 in fields:
        return Const(node_id, pw.first_int(fields, 4), "uint")
    if 5 in fields:
        return Const(node_id, pw.as_double(pw.first_bytes(fields, 5, b"\0" * 8)), "double")
    if 6 in fields:
        return Const(node_id, _text(pw.first(fields, 6)), "string")
    if 7 in fields:
        return Const(node_id, pw.first_bytes(fields, 7), "bytes")
    return Const(node_id, None, "unknown")
