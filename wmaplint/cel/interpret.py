"""Evaluate a checked CEL expression (its plan, ``plan.py``) in Python, for a subset of CEL, exactly as the
CEL runtime evaluates it.

Evaluating with the runtime costs every process the import of a large native module and of the Kubernetes
library built on it, while most rules use a small part of CEL. This evaluator takes the Python values the
runtime is given and gives the runtime's outcome: the same value, or an error (``EvaluationError``) worded
as the runtime words it. Whatever is outside the subset raises ``Unsupported``, when the program is made or
during an evaluation (evaluating has no effects, so it can be abandoned), and the caller evaluates with the
runtime instead.

The subset: constants (null, bool, int, double, string), variables, list literals and map literals with
string keys; field selection and ``has()``; indexing lists and maps; ``!``, unary ``-``, ``&&`` and ``||``
(an error is absorbed by the operand that decides, either way round), ``_?_:_``; ``==`` and ``!=`` (an int
and a double compare as doubles, as the runtime does), ``< <= > >=``, ``+ - * / %`` (int64 overflow and
division by zero are errors), ``in`` on lists and maps; ``size``, ``contains``, ``startsWith``, ``endsWith``,
``matches`` (the patterns of ``regex.py``), ``lowerAscii``, ``upperAscii``, ``replace``, ``split``,
``join``, ``trim``, ``dyn``, ``string`` of a string, bool or int; and comprehensions (the macros ``all``,
``exists``, ``exists_one``, ``map``, ``filter`` and their two-variable forms) under the runtime's limit of
10,000 iterations in all (the operators and functions are in ``functions.py``). Values are None, bool, int
(int64), float, str, list and dict with string keys; the runtime is left anything else in the data.

Maps are iterated in their insertion order. CEL leaves the order open and the runtime's differs from one
process to the next, so only a list made from a map's keys can come out in another order than the runtime's.

A plan read back from the user cache is data someone else may have written: its evaluation is held to the
cost it was admitted with (``evaluate(admitted=...)``): what it may make (characters and elements, counted
before each string or list is built) and how long its loops may run. Past either it stops with ``OverBound``;
the caller then compiles the expression afresh. A forged plan that doubled a string in 36 steps asked for
137 GB.
"""

from __future__ import annotations

import math
import re
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from wmaplint.cel.functions import (
    FUNCTIONS,
    INT64_MAX,
    INT64_MIN,
    CelError,
    EvaluationError,
    Unsupported,
    missing_key,
    no_overload,
)

__all__ = ["CelError", "EvaluationError", "IterationLimit", "OverBound", "Program", "Unsupported", "fits",
           "program_of"]

ITERATION_BUDGET = 10_000  # the runtime's: an evaluation ends when its loops reach this many iterations
MAX_PLAN_DEPTH = 100  # evaluation recurses once per level; deeper expressions are left to the runtime
MAX_DATA_DEPTH = 100
_SURROGATE = re.compile("[\ud800-\udfff]")
# What an evaluation held to its admitted cost may make and take. The runtime's cost charges a tenth of a
# unit a character a string operation makes or reads, and about one a list element, so ten characters or
# elements a unit of cost, on top of a megabyte, hold every evaluation the estimate admits; this evaluator
# takes well under a microsecond a unit.
MADE_FREE = 1 << 20
MADE_PER_COST = 10
SECONDS_FREE = 0.25
SECONDS_PER_COST = 1e-6


class IterationLimit(EvaluationError):
    """The runtime's iteration limit was reached: the evaluation stops whatever would absorb an error."""


class OverBound(Exception):
    """An evaluation held to its admitted cost went past it (what it made, or how long its loops ran)."""


class _Frame:
    __slots__ = ("values", "iterations", "made", "most", "deadline")

    def __init__(self, values: dict[str, Any], admitted: int | None = None) -> None:
        self.values = values
        self.iterations = 0
        self.made = 0  # characters and elements made
        if admitted is None:  # compiled in this process: its cost estimate holds
            self.most, self.deadline = sys.maxsize, math.inf
        else:
            self.most = MADE_FREE + MADE_PER_COST * admitted
            self.deadline = time.monotonic() + SECONDS_FREE + SECONDS_PER_COST * admitted

    def make(self, count: int) -> None:
        self.made += count
        if self.made > self.most:
            raise OverBound(f"it would make more than {self.most:,} characters and elements")


Eval = Callable[[_Frame], Any]
_ABSENT = object()


def _scalar_fits(value: Any) -> bool:
    kind = type(value)
    if kind is str:
        return "\0" not in value and (value.isascii() or not _SURROGATE.search(value))
    if kind is int:
        return bool(INT64_MIN <= value <= INT64_MAX)
    return value is None or kind is bool or kind is float


def fits(value: Any) -> bool:
    """Whether the evaluator takes this value, as ``Program.evaluate`` checks each variable's: not data the
    runtime converts otherwise or not at all (it converts a variable whole, so a value anywhere in it counts):
    unsigned or out-of-range ints, bytes, tuples, non-string keys, lone surrogates, and strings with a NUL,
    which it cuts short there. A caller evaluating on many parts of one value can check it once."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind is not dict and kind is not list:
            if not _scalar_fits(item):
                return False
            continue
        if depth >= MAX_DATA_DEPTH:
            return False
        if kind is dict:
            if not all(type(key) is str and _scalar_fits(key) for key in item):
                return False
            item = item.values()
        for member in item:
            if type(member) is dict or type(member) is list:
                stack.append((member, depth + 1))
            elif not _scalar_fits(member):
                return False
    return True


# ---- compiling a plan to closures --------------------------------------------------------------------------


def _mentions(plan: object, name: str, depth: int = 0) -> bool:
    if depth > MAX_PLAN_DEPTH:
        return True
    if isinstance(plan, list):
        if plan[:2] == ["ident", name]:
            return True
        return any(_mentions(part, name, depth + 1) for part in plan)
    return False


def _appends_to(step: Any, accumulator: str) -> bool:
    """Whether a loop step only appends a list literal to the accumulator (the map and filter macros): then
    the accumulator, a list the comprehension made, is extended in place instead of copied each time."""
    if (step[:3] == ["call", "_?_:_", None] and len(step[3]) == 3 and step[3][2] == ["ident", accumulator]
            and not _mentions(step[3][0], accumulator)):
        step = step[3][1]
    return (step[:3] == ["call", "_+_", None] and len(step[3]) == 2 and step[3][0] == ["ident", accumulator]
            and step[3][1][:1] == ["list"] and not _mentions(step[3][1], accumulator))


class _Compiler:
    def __init__(self, variables: frozenset[str]) -> None:
        self.variables = variables
        self.used: set[str] = set()

    def node(self, plan: object, scope: Mapping[str, bool], depth: int) -> Eval:
        """``scope`` maps the comprehension variables in reach to whether each is a list built in place."""
        if depth > MAX_PLAN_DEPTH:
            raise Unsupported("nested too deep")
        if not isinstance(plan, list) or not plan or not isinstance(plan[0], str):
            raise Unsupported("not a plan")
        form = _FORMS.get(plan[0])
        if form is None:
            raise Unsupported(f"no {plan[0]!r} nodes")
        try:
            compiled: Eval = form(self, *plan[1:], scope=scope, depth=depth + 1)
        except (TypeError, IndexError):  # a plan of the wrong shape: a damaged record
            raise Unsupported("a malformed plan") from None
        return compiled

    def _const(self, value: Any, *, scope: Mapping[str, bool], depth: int) -> Eval:
        kind = type(value)
        if not (value is None or kind is bool or kind is float
                or (kind is str and not _SURROGATE.search(value))
                or (kind is int and INT64_MIN <= value <= INT64_MAX)):
            raise Unsupported("a malformed plan")
        return lambda frame: value

    def _ident(self, name: str, *, scope: Mapping[str, bool], depth: int) -> Eval:
        if name not in scope:
            if name not in self.variables:
                raise Unsupported(f"the name {name!r}")
            self.used.add(name)

        def ident(frame: _Frame) -> Any:
            value = frame.values[name]
            if type(value) is CelError:  # an accumulator that holds an error
                raise value.with_traceback(None)
            return value

        return ident

    def _select(self, operand: Any, field: str, test_only: bool, *, scope: Mapping[str, bool],
                depth: int) -> Eval:
        of = self.node(operand, scope, depth)
        if not isinstance(field, str):
            raise Unsupported("a malformed plan")
        if test_only:
            def has(frame: _Frame) -> bool:
                value = of(frame)
                if type(value) is not dict:
                    raise CelError("Applying SELECT to non-message type")
                return field in value

            return has

        def select(frame: _Frame) -> Any:
            value = of(frame)
            if type(value) is not dict:
                raise CelError("Applying SELECT to non-message type")
            found = value.get(field, _ABSENT)
            if found is _ABSENT:
                raise missing_key(field)
            return found

        return select

    def _list(self, elements: list[Any], *, scope: Mapping[str, bool], depth: int) -> Eval:
        parts = [self.node(element, scope, depth) for element in elements]

        def build(frame: _Frame) -> list[Any]:
            frame.make(len(parts))
            return _strict(parts, frame)

        return build

    def _map(self, entries: list[Any], *, scope: Mapping[str, bool], depth: int) -> Eval:
        parts = [self.node(part, scope, depth) for entry in entries for part in entry]
        if len(parts) != 2 * len(entries):
            raise Unsupported("a malformed plan")

        def build(frame: _Frame) -> dict[str, Any]:
            frame.make(len(parts))
            operands = _strict(parts, frame)
            keys = operands[0::2]
            if any(type(key) is not str for key in keys) or len(set(keys)) != len(keys):
                raise Unsupported("map literal keys that are not distinct strings")
            return dict(zip(keys, operands[1::2], strict=True))

        return build

    def _call(self, function: str, target: Any, args: list[Any], *, scope: Mapping[str, bool],
              depth: int) -> Eval:
        operands = [self.node(arg, scope, depth) for arg in ([target] if target is not None else []) + args]
        if target is None and len(operands) == 2 and function in ("_&&_", "_||_"):
            return _logical(function == "_&&_", *operands)
        if target is None and len(operands) == 3 and function == "_?_:_":
            return _conditional(*operands)
        if target is None and len(operands) == 1 and function == "@not_strictly_false":
            return _not_strictly_false(operands[0])
        if (function == "_+_" and target is None and len(args) == 2 and args[0][:1] == ["ident"]
                and scope.get(args[0][1], False)):
            return _append(args[0][1], operands[1])
        apply = FUNCTIONS.get((function, target is not None, len(args)))
        if apply is None:
            raise Unsupported(f"the function {function!r}")
        made = _MAKERS.get(function)
        if made is not None:
            return _making(apply, made, operands)
        if len(operands) == 1:
            only = operands[0]
            return lambda frame: apply(only(frame))
        if len(operands) == 2:
            return _binary(apply, *operands)
        return lambda frame: apply(*_strict(operands, frame))

    def _comp(self, iter_var: str, iter_var2: str, iter_range: Any, accumulator: str, init: Any,
              condition: Any, step: Any, result: Any, *, scope: Mapping[str, bool], depth: int) -> Eval:
        if not all(isinstance(name, str) for name in (iter_var, iter_var2, accumulator)):
            raise Unsupported("a malformed plan")
        names = [name for name in (iter_var, iter_var2) if name]
        of_range = self.node(iter_range, scope, depth)
        inner = {**scope, **dict.fromkeys(names, False), accumulator: False}
        of_init = self.node(init, inner, depth)
        in_place = init[:1] == ["list"] and _appends_to(step, accumulator)
        of_step = self.node(step, {**inner, accumulator: in_place}, depth)
        of_result = self.node(result, inner, depth)
        of_condition = self.node(condition, inner, depth)
        two = bool(iter_var2)

        def loop(frame: _Frame) -> Any:
            if frame.deadline < math.inf and time.monotonic() > frame.deadline:
                raise OverBound("its loops ran past their time")
            collection = of_range(frame)
            if type(collection) is list:
                items: Any = enumerate(collection) if two else collection
            elif type(collection) is dict:
                items = collection.items() if two else collection
            else:
                raise no_overload("<iter_range>")
            values = frame.values
            saved = [(name, values.get(name, _ABSENT)) for name in (*names, accumulator)]
            try:
                values[accumulator] = of_init(frame)
                for item in items:
                    frame.iterations += 1
                    if frame.iterations >= ITERATION_BUDGET:
                        raise IterationLimit("Iteration budget exceeded")
                    if not frame.iterations & 63 and time.monotonic() > frame.deadline:
                        raise OverBound("its loops ran past their time")
                    if two:
                        values[iter_var], values[iter_var2] = item
                    else:
                        values[iter_var] = item
                    try:
                        going_on = of_condition(frame)
                    except CelError:
                        raise Unsupported("a loop condition that fails") from None  # the macros' never do
                    if going_on is False:
                        break
                    if going_on is not True:
                        raise Unsupported("a loop condition that is not a bool")
                    try:
                        values[accumulator] = of_step(frame)
                    except CelError as error:
                        values[accumulator] = error
                return of_result(frame)
            finally:
                for name, value in saved:
                    if value is _ABSENT:
                        values.pop(name, None)
                    else:
                        values[name] = value

        return loop


_FORMS: dict[str, Callable[..., Eval]] = {
    "const": _Compiler._const,
    "ident": _Compiler._ident,
    "select": _Compiler._select,
    "call": _Compiler._call,
    "list": _Compiler._list,
    "map": _Compiler._map,
    "comp": _Compiler._comp,
}


def _strict(operands: list[Eval], frame: _Frame) -> list[Any]:
    """Every operand's value; the first error once all are evaluated (the runtime evaluates them all, which
    counts for its iteration limit)."""
    values = []
    error: CelError | None = None
    for operand in operands:
        try:
            values.append(operand(frame))
        except CelError as found:
            error = error or found
    if error is not None:
        raise error
    return values


def _binary(apply: Callable[[Any, Any], Any], left: Eval, right: Eval) -> Eval:
    """``_strict`` for two operands, the most common call."""
    def binary(frame: _Frame) -> Any:
        try:
            first = left(frame)
        except CelError:
            _outcome(right, frame)
            raise
        return apply(first, right(frame))

    return binary


def _outcome(operand: Eval, frame: _Frame) -> Any:
    try:
        return operand(frame)
    except CelError as error:
        return error


def _logical(is_and: bool, left: Eval, right: Eval) -> Eval:
    deciding = not is_and  # false decides &&, true decides ||, whatever the other operand is
    function = "_&&_" if is_and else "_||_"

    def logical(frame: _Frame) -> Any:
        first = _outcome(left, frame)
        if first is deciding:
            return deciding
        second = _outcome(right, frame)
        if second is deciding:
            return deciding
        if type(first) is bool and type(second) is bool:
            return not deciding
        for value in (first, second):
            if type(value) is CelError:
                raise value
        raise no_overload(function)

    return logical


def _conditional(condition: Eval, then: Eval, otherwise: Eval) -> Eval:
    def conditional(frame: _Frame) -> Any:
        chosen = condition(frame)
        if chosen is True:
            return then(frame)
        if chosen is False:
            return otherwise(frame)
        raise no_overload("<jump_condition>")

    return conditional


def _not_strictly_false(operand: Eval) -> Eval:
    return lambda frame: _outcome(operand, frame) is not False


def _append(accumulator: str, extra: Eval) -> Eval:
    def append(frame: _Frame) -> Any:
        built = frame.values[accumulator]
        more = _outcome(extra, frame)
        for value in (built, more):
            if type(value) is CelError:
                raise value.with_traceback(None)
        if type(built) is not list or type(more) is not list:
            raise no_overload("_+_")
        frame.make(len(more))
        built.extend(more)
        return built

    return append


def _sized(value: Any) -> int:
    kind = type(value)
    return len(value) if kind is str or kind is list or kind is dict else 0


def _concatenated(*values: Any) -> int:
    return sum(_sized(value) for value in values)


def _replaced(text: Any, old: Any, new: Any, count: Any = -1) -> int:
    if type(text) is not str or type(old) is not str or type(new) is not str or type(count) is not int:
        return 0
    found = len(text) + 1 if not old else text.count(old)
    if count >= 0:
        found = min(found, count)
    return len(text) + found * max(0, len(new) - len(old))


def _parts(text: Any, separator: Any, *_: Any) -> int:
    if type(text) is not str or type(separator) is not str:
        return 0
    return len(text) + (len(text) if not separator else text.count(separator)) + 1


def _joined(values: Any, separator: Any = "") -> int:
    if type(values) is not list or type(separator) is not str:
        return 0
    return sum(_sized(value) for value in values) + len(separator) * len(values)


# The functions whose results may be larger than a constant: what each may make, before it runs.
_MAKERS: dict[str, Callable[..., int]] = {
    "_+_": _concatenated, "replace": _replaced, "split": _parts, "join": _joined,
    "lowerAscii": _concatenated, "upperAscii": _concatenated, "trim": _concatenated,
}


def _making(apply: Callable[..., Any], made: Callable[..., int], operands: list[Eval]) -> Eval:
    """A call of a function that makes a string or a list: what it makes is counted before it is made."""
    def call(frame: _Frame) -> Any:
        values = _strict(operands, frame)
        frame.make(made(*values))
        return apply(*values)

    return call


class Program:
    """A plan made ready to evaluate; raises ``Unsupported`` when the plan is outside the subset."""

    def __init__(self, plan: object, variables: tuple[str, ...]) -> None:
        compiler = _Compiler(frozenset(variables))
        try:
            self._root = compiler.node(plan, {}, 0)
        except RecursionError:
            raise Unsupported("nested too deep") from None
        self._used = tuple(sorted(compiler.used))

    def evaluate(self, values: Mapping[str, Any], *, checked: bool = False,
                 admitted: int | None = None) -> Any:
        """The value of the expression for these variables; raises ``EvaluationError`` for an error outcome
        and ``Unsupported`` for data outside the subset. ``checked``: the values are known to ``fits``.
        ``admitted``: the cost bound the evaluation was admitted with, for a plan not compiled in this process
        (read from the cache), which it is then held to (``OverBound``)."""
        for name in self._used:
            if name not in values:
                raise Unsupported(f"no value for {name!r}")
            if not checked and not fits(values[name]):
                raise Unsupported(f"a value of {name!r} outside the subset")
        try:
            return self._root(_Frame({name: values[name] for name in self._used}, admitted))
        except RecursionError:
            raise Unsupported("nested too deep") from None
        except MemoryError:  # the last resort of a bound: what it made is freed as this unwinds
            if admitted is None:
                raise
            raise OverBound("it ran out of memory") from None


def program_of(plan: object, variables: tuple[str, ...]) -> Program | None:
    """The plan made ready to evaluate over these variables, or None when it is outside the subset."""
    try:
        return Program(plan, variables)
    except Unsupported:
        return None
