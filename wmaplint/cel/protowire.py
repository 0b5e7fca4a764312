"""A minimal protobuf wire-format reader, enough to decode ``cel.expr.CheckedExpr``.

cel-expr-python hands out the checked AST only as serialized protobuf, and the protobuf runtime is not a
dependency, so this reads the few message shapes we need by field number.
"""

from __future__ import annotations

import struct

Fields = dict[int, list[object]]


class WireError(ValueError):
    """The bytes are not a well-formed protobuf message."""


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise WireError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def parse(data: bytes) -> Fields:
    """Split one message into ``{field number: [raw values]}``; varints as int, length-delimited as bytes."""
    fields: Fields = {}
    pos = 0
    end = len(data)
    while pos < end:
        key, pos = _varint(data, pos)
        number, wire_type = key >> 3, key & 7
        value: object
        if wire_type == 0:
            value, pos = _varint(data, pos)
        elif wire_type == 1:
            value = data[pos : pos + 8]
            pos += 8
        elif wire_type == 2:
            length, pos = _varint(data, pos)
            value = data[pos : pos + length]
            pos += length
        elif wire_type == 5:
            value = data[pos : pos + 4]
            pos += 4
        else:
            raise WireError(f"unsupported wire type {wire_type}")
        if pos > end:
            raise WireError("truncated field")
        fields.setdefault(number, []).append(value)
    return fields


def first(fields: Fields, number: int, default: object = None) -> object:
    values = fields.get(number)
    return values[-1] if values else default


def first_int(fields: Fields, number: int, default: int = 0) -> int:
    """The last varint of a field; a length-delimited value there means the message is not what we expect."""
    value = first(fields, number, default)
    if isinstance(value, int):
        return value
    raise WireError(f"field {number} is not a varint")


def first_bytes(fields: Fields, number: int, default: bytes = b"") -> bytes:
    """The last length-delimited value of a field (a nested message, a string or fixed64 bytes)."""
    value = first(fields, number, default)
    if isinstance(value, bytes):
        return value
    raise WireError(f"field {number} is not length-delimited")


def all_bytes(fields: Fields, number: int) -> list[bytes]:
    """Every value of a repeated length-delimited field."""
    values = fields.get(number, [])
    if all(isinstance(v, bytes) for v in values):
        return values  # type: ignore[return-value]  # checked just above
    raise WireError(f"field {number} is not length-delimited")


def as_int64(value: int) -> int:
    return value - (1 << 64) if value >= 1 << 63 else value


def as_double(raw: bytes) -> float:
    return float(struct.unpack("<d", raw)[0])


def packed_varints(raw: bytes) -> list[int]:
    out = []
    pos = 0
    while pos < len(raw):
        value, pos = _varint(raw, pos)
        out.append(value)
    return out
