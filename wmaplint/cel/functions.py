"""CEL's operators and functions on the Python values of the evaluator (``interpret.py``), as the CEL runtime
defines them: the same results, and errors worded as the runtime words them.

An int and a double compare as doubles (the runtime converts the int), values of other kinds are never equal
and have no ordering; int arithmetic is int64 (overflow and division by zero are errors), double arithmetic
IEEE 754. Each function takes its operands already evaluated; one outside what is written here raises
``Unsupported`` for the runtime to evaluate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from wmaplint.cel.regex import compile_pattern

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# Unicode White_Space, what the runtime's trim() removes (Python's str.strip() also removes \x1c-\x1f)
_WHITE_SPACE = "".join(map(chr, (*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028,
                                 0x2029, 0x202F, 0x205F, 0x3000)))
_LOWER = {code: code + 32 for code in range(ord("A"), ord("Z") + 1)}
_UPPER = {code + 32: code for code in range(ord("A"), ord("Z") + 1)}


class Unsupported(Exception):
    """The expression, or the data it meets, is outside the subset: the runtime is to evaluate it."""


class EvaluationError(Exception):
    """An evaluation that ended in an error; ``text`` is the runtime's wording."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class CelError(EvaluationError):
    """A CEL error value: ``&&``, ``||`` and the comprehension macros may absorb it."""


def _kind(value: object) -> str:
    """The runtime's name of a value's type, as its error texts spell it."""
    kind = type(value)
    if value is None:
        return "null_type"
    return {bool: "bool", int: "int", float: "double", str: "string", list: "list", dict: "map"}[kind]


def no_overload(function: str) -> CelError:
    return CelError(f"No matching overloads found : {function}")


def _key_text(key: object) -> str:
    if type(key) is str:
        if not key.isprintable() or '"' in key or "\\" in key:
            raise Unsupported("a key the runtime quotes with escapes")
        return f'"{key}"'
    if type(key) is bool:
        return "true" if key else "false"
    if type(key) is int:
        return str(key)
    raise Unsupported("a key the runtime formats its own way")


def missing_key(key: object) -> CelError:
    return CelError(f"Key not found in map : {_key_text(key)}")


def _equal(left: Any, right: Any) -> bool:
    kind = type(left)
    if kind is type(right):
        if kind is list:
            return len(left) == len(right) and all(_equal(a, b) for a, b in zip(left, right, strict=True))
        if kind is dict:
            return len(left) == len(right) and all(
                key in right and _equal(value, right[key]) for key, value in left.items()
            )
        return bool(left == right)
    if (kind is int or kind is float) and type(right) in (int, float):
        return float(left) == float(right)
    return False


def _numbers(left: Any, right: Any) -> tuple[Any, Any] | None:
    """Both operands as comparable Python values, or None when the runtime has no ordering for the pair."""
    kind, other = type(left), type(right)
    if kind is other and kind in (int, float, str, bool):
        return left, right
    if kind in (int, float) and other in (int, float):
        return float(left), float(right)
    return None


def _ordering(function: str, test: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def compare(left: object, right: object) -> bool:
        pair = _numbers(left, right)
        if pair is None:
            raise no_overload(function)
        return test(*pair)

    return compare


def _int(value: int) -> int:
    if not INT64_MIN <= value <= INT64_MAX:
        raise CelError("integer overflow")
    return value


def _arithmetic(function: str, on_ints: Callable[[int, int], int],
                on_doubles: Callable[[float, float], float]) -> Callable[[Any, Any], Any]:
    def apply(left: Any, right: Any) -> Any:
        kind = type(left)
        if kind is type(right):
            if kind is int:
                return _int(on_ints(left, right))
            if kind is float:
                return on_doubles(left, right)
        raise no_overload(function)

    return apply


def _add(left: Any, right: Any) -> Any:
    kind = type(left)
    if kind is type(right):
        if kind is int:
            return _int(left + right)
        if kind is float or kind is str or kind is list:
            return left + right
    raise no_overload("_+_")


def _divide_ints(left: int, right: int) -> int:
    if right == 0:
        raise CelError("divide by zero")
    quotient = abs(left) // abs(right)  # truncated toward zero, as in C
    return quotient if (left < 0) == (right < 0) else -quotient


def _modulo(left: object, right: object) -> Any:
    if type(left) is not int or type(right) is not int:
        raise no_overload("_%_")
    if right == 0:
        raise CelError("modulus by zero")
    if left == INT64_MIN and right == -1:
        raise CelError("integer overflow")  # the quotient overflows, so the runtime refuses the remainder too
    remainder = abs(left) % abs(right)  # the sign of the dividend, as in C
    return -remainder if left < 0 else remainder


def _divide_doubles(left: float, right: float) -> float:
    if right == 0.0:  # IEEE 754, which Python raises on
        if left == 0.0 or math.isnan(left):
            return math.nan
        return math.copysign(math.inf, left) * math.copysign(1.0, right)
    return left / right


def _negate(value: object) -> Any:
    if type(value) is int:
        return _int(-value)
    if type(value) is float:
        return -value
    raise no_overload("-_")


def _not(value: object) -> bool:
    if type(value) is not bool:
        raise no_overload("!_")
    return not value


def _index(container: Any, key: Any) -> Any:
    kind = type(container)
    if kind is list:
        if type(key) is float and key.is_integer() and INT64_MIN <= key < 2.0**63:
            key = int(key)
        if type(key) is not int:
            raise CelError(f"Index error: expected integer type, got {_kind(key)}")
        if not 0 <= key < len(container):
            raise CelError(f"Index error: index={key} size={len(container)}")
        return container[key]
    if kind is dict:
        if type(key) is str:
            if key in container:
                return container[key]
            raise missing_key(key)
        if key is None or type(key) in (list, dict):
            raise CelError(f"Invalid map key type: '{_kind(key)}'")
        raise missing_key(key)  # a number or bool: never a key of these maps
    if container is None or kind in (str, int, float, bool):
        raise CelError(f"Invalid container type: '{_kind(container)}'")
    raise Unsupported("indexing this value")


def _in(element: Any, container: Any) -> bool:
    kind = type(container)
    if kind is list:
        return any(_equal(element, member) for member in container)
    if kind is dict:
        if type(element) is str:
            return element in container
        if type(element) in (int, float, bool):
            return False
    raise no_overload("@in")


def _size(value: Any) -> int:
    if type(value) in (str, list, dict):
        return len(value)
    raise no_overload("size")


def _strings(function: str, apply: Callable[..., Any], *kinds: type) -> Callable[..., Any]:
    """A string function whose operands must be of ``kinds`` (the receiver first)."""
    def checked(*operands: Any) -> Any:
        if any(type(operand) is not kind for operand, kind in zip(operands, kinds, strict=True)):
            raise no_overload(function)
        return apply(*operands)

    return checked


def _matches(text: object, pattern: object) -> bool:
    if type(text) is not str or type(pattern) is not str:
        raise no_overload("matches")
    compiled = compile_pattern(pattern)
    found = compiled.search(text) if compiled is not None else None
    if found is None:
        raise Unsupported("a pattern outside the subset, or one too costly to tell here")
    return found


def _replace(text: str, old: str, new: str, count: int = -1) -> str:
    return text.replace(old, new, count if count >= 0 else -1)


def _split(text: str, separator: str, count: int = -1) -> list[str]:
    if count == 0:
        return []
    if separator:
        return text.split(separator) if count < 0 else text.split(separator, count - 1)
    if not text:
        return [""]
    if 0 < count < len(text):
        return [*text[: count - 1], text[count - 1 :]]
    return list(text)


def _join(values: object, separator: Any = "") -> str:
    if type(values) is not list or type(separator) is not str or any(type(v) is not str for v in values):
        raise no_overload("join")
    return separator.join(values)


def _string(value: object) -> str:
    kind = type(value)
    if kind is str:
        return str(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return str(value)
    raise Unsupported("string() of this type")


# (function, called on a target, argument count) -> implementation over the evaluated operands
FUNCTIONS: dict[tuple[str, bool, int], Callable[..., Any]] = {
    ("_==_", False, 2): _equal,
    ("_!=_", False, 2): lambda left, right: not _equal(left, right),
    ("_<_", False, 2): _ordering("_<_", lambda a, b: a < b),
    ("_<=_", False, 2): _ordering("_<=_", lambda a, b: a <= b),
    ("_>_", False, 2): _ordering("_>_", lambda a, b: a > b),
    ("_>=_", False, 2): _ordering("_>=_", lambda a, b: a >= b),
    ("_+_", False, 2): _add,
    ("_-_", False, 2): _arithmetic("_-_", lambda a, b: a - b, lambda a, b: a - b),
    ("_*_", False, 2): _arithmetic("_*_", lambda a, b: a * b, lambda a, b: a * b),
    ("_/_", False, 2): _arithmetic("_/_", _divide_ints, _divide_doubles),
    ("_%_", False, 2): _modulo,
    ("-_", False, 1): _negate,
    ("!_", False, 1): _not,
    ("_[_]", False, 2): _index,
    ("@in", False, 2): _in,
    ("size", False, 1): _size,
    ("size", True, 0): _size,
    ("contains", True, 1): _strings("contains", lambda s, part: part in s, str, str),
    ("startsWith", True, 1): _strings("startsWith", str.startswith, str, str),
    ("endsWith", True, 1): _strings("endsWith", str.endswith, str, str),
    ("matches", True, 1): _matches,
    ("matches", False, 2): _matches,
    ("lowerAscii", True, 0): _strings("lowerAscii", lambda s: s.translate(_LOWER), str),
    ("upperAscii", True, 0): _strings("upperAscii", lambda s: s.translate(_UPPER), str),
    ("trim", True, 0): _strings("trim", lambda s: s.strip(_WHITE_SPACE), str),
    ("replace", True, 2): _strings("replace", _replace, str, str, str),
    ("replace", True, 3): _strings("replace", _replace, str, str, str, int),
    ("split", True, 1): _strings("split", _split, str, str),
    ("split", True, 2): _strings("split", _split, str, str, int),
    ("join", True, 0): _join,
    ("join", True, 1): _join,
    ("dyn", False, 1): lambda value: value,
    ("string", False, 1): _string,
}
