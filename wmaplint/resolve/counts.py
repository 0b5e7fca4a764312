"""Replica counts and instance ids as the runtime reads them from the outputs of a definition's paths."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

# Numeric strings as the runtime reads them: strconv.ParseInt(s, 10, 32), a sign and decimal digits without
# spaces, underscores, fractions or exponents; older releases refused strings altogether (FORMAT.md §2.4).
_GO_INT = re.compile(r"[+-]?0*[0-9]{1,10}")
MAX_REPLICAS = 2**31 - 1  # the runtime stores replica counts as int32
_LARGEST_DOUBLE = 1.7976931348623157e308  # libjq gives `infinite` as the largest double


def as_count(value: Json) -> int | None:
    """A replica count as the runtime reads it: an integral JSON number or a base-10 numeric string, within
    int32 and not negative; None otherwise. "1.5", "2.0", -5, NaN and infinity (libjq gives it as the largest
    double) are not counts."""
    if isinstance(value, bool):
        return None
    number: int | float
    if isinstance(value, str):
        if not _GO_INT.fullmatch(value):
            return None
        digits = value.lstrip("+-").lstrip("0") or "0"  # at most 10 digits: no huge int() conversion
        number = -int(digits) if value.startswith("-") else int(digits)
    elif isinstance(value, (int, float)):
        number = value
    else:
        return None
    if isinstance(number, float):
        if not math.isfinite(number) or not number.is_integer():
            return None
        number = int(number)
    return number if 0 <= number <= MAX_REPLICAS else None


def why_not_a_count(value: Json) -> str:
    """Why ``as_count`` refuses a value: ``infinite``, ``nan``, ``range`` (a number, or a numeric string, that
    is no non-negative int32) or ``type`` (not a number)."""
    if isinstance(value, float) and value >= _LARGEST_DOUBLE:
        return "infinite"
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if numeric or isinstance(value, str) and _GO_INT.fullmatch(value):
        return "range"
    return "type"


def instance_id(value: Json) -> str | None:
    """An output of instanceIdPath as the id string the runtime reads, None for a value that gives none."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return None
