"""Values in the type interpreter: literals, object construction, operators, conditions and `if`, and what
they find wrong (operands of kinds that never compare or combine, a condition that is never a boolean)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.jq import ast as jqast
from wmaplint.jq.inference import guards
from wmaplint.jq.inference.findings import (
    ComparisonOfKinds,
    NonBooleanCondition,
    UncombinableOperands,
    ValueOutsideEnum,
)
from wmaplint.jq.inference.values import (
    ANY_VAL,
    NEVER_VAL,
    Val,
    enum_of,
    is_never,
    kinds,
    scalar_val,
)
from wmaplint.schema.types import (
    ANY,
    ANY_KIND,
    ARRAY,
    BOOLEAN,
    INTEGER,
    NULL,
    NUMBER,
    OBJECT,
    STRING,
    Property,
    SchemaType,
    union,
    variants,
)

if TYPE_CHECKING:
    from wmaplint.jq.inference.navigation import Navigation
    from wmaplint.jq.inference.walk import Walk
    from wmaplint.source.plain import Json

COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


class Operators:
    """Literals, object construction, operators, conditions and `if`, for the walk ``it``."""

    __slots__ = ("it", "navigation")

    def __init__(self, it: Walk, navigation: Navigation) -> None:
        self.it = it
        self.navigation = navigation

    def literal(self, value: Json) -> Val:
        if value is None:
            return Val(SchemaType(NULL), False, None, True)
        if isinstance(value, bool):
            return scalar_val(BOOLEAN, value, True)
        if isinstance(value, int):
            return scalar_val(INTEGER, value, True)
        if isinstance(value, float):
            return scalar_val(NUMBER, value, True)
        if isinstance(value, str):
            t = SchemaType(STRING, enum=(value,))
            return Val(t, False, value, True)
        return ANY_VAL

    def object(self, node: jqast.ObjectCons, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        t = SchemaType(OBJECT)
        for entry in node.entries:
            key = entry.key
            value = (
                self.it.eval(entry.value, inp, env, d, quiet)
                if entry.value is not None
                else self.it.eval(key, inp, env, d, quiet)
                if entry.key_kind == "var"
                else None
            )
            named = entry.key_kind in ("ident", "string")
            if named and isinstance(key, jqast.Literal) and isinstance(key.value, str):
                if value is None:  # shorthand {a}: .a of the input
                    value = self.navigation.member(inp, key.value, key, quiet)
                t.properties[key.value] = Property(key.value, value.type)
                if not value.optional:
                    t.required = t.required | {key.value}
            else:
                if entry.key_kind == "expr":
                    self.it.eval(key, inp, env, d, quiet)
                t.additional = ANY
        return Val(t)

    def binary(self, node: jqast.Binary, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        left = self.it.eval(node.left, inp, env, d, quiet)
        right_env = env
        if node.op in ("and", "or"):  # the right side runs only where the left holds (and), or fails (or)
            right_env = guards.proven(env, guards.tested_paths(node.left), inp.path)
        right = self.it.eval(node.right, inp, right_env, d, quiet)
        op = node.op
        if op == "//":
            if is_never(left) or kinds(left) & {NULL, BOOLEAN, ANY_KIND}:
                self.it.defaults.add(node.op_start)
            lt = [v for v in variants(left.type) if v.kind != NULL]
            return Val(union(*lt, right.type) if lt else right.type, right.optional)
        if op in ("and", "or"):
            self.condition(left, node.left)
            self.condition(right, node.right)
            return scalar_val(BOOLEAN)
        if op in COMPARISONS:
            self.comparable(left, right, node)
            return scalar_val(BOOLEAN)
        return self.arithmetic(op, left, right, node)

    def comparable(self, left: Val, right: Val, node: jqast.Binary) -> None:
        if left.is_any or right.is_any:
            return
        lk, rk = kinds(left) - {NULL}, kinds(right) - {NULL}
        if ANY_KIND in lk or ANY_KIND in rk or not lk or not rk or lk & rk:
            if node.op in ("==", "!=") and left.has_const != right.has_const:
                typed, const = (left, right) if right.has_const else (right, left)
                self.enum_mismatch(typed, const, node)
            return
        self.it.record(ComparisonOfKinds(node.start, node.end, node.op, left.type.describe(),
                                      right.type.describe()))

    def enum_mismatch(self, typed: Val, const: Val, node: jqast.Binary) -> None:
        enum = enum_of(typed.type)
        if enum is not None and typed.type.kind == STRING and const.const not in enum:
            start = node.right.start if const is not typed else node.left.start
            self.it.record(ValueOutsideEnum(start, node.end, const.const, enum))

    def arithmetic(self, op: str, left: Val, right: Val, node: jqast.Binary) -> Val:
        if left.is_any or right.is_any:
            return ANY_VAL
        lk, rk = kinds(left) - {NULL}, kinds(right) - {NULL}
        if ANY_KIND in lk or ANY_KIND in rk:
            return ANY_VAL
        numeric = {INTEGER, NUMBER}
        if op == "+":
            if not lk:
                return right
            if not rk:
                return left
            if lk & rk:
                common = lk & rk
                if common <= numeric:
                    return scalar_val(
                        INTEGER
                        if INTEGER in lk
                        and INTEGER in rk
                        and NUMBER not in (left.type.kinds() | right.type.kinds())
                        else NUMBER
                    )
                return left
        elif op == "-":
            if (lk | rk) <= numeric or (lk == {ARRAY} and rk == {ARRAY}):
                return left if lk == {ARRAY} else scalar_val(NUMBER)
            if lk & rk & numeric:
                return scalar_val(NUMBER)
        elif op == "*":
            if lk & numeric and rk & numeric:
                return scalar_val(NUMBER)
            if (STRING in lk and rk & numeric) or (STRING in rk and lk & numeric):
                return scalar_val(STRING)
            if OBJECT in lk and OBJECT in rk:
                return left
        elif op == "/":
            if lk & numeric and rk & numeric:
                return scalar_val(NUMBER)
            if STRING in lk and STRING in rk:
                return Val(SchemaType(ARRAY, items=SchemaType(STRING)))
        elif op == "%":
            if lk & numeric and rk & numeric:
                return scalar_val(INTEGER)
        else:
            return ANY_VAL
        if not lk or not rk:
            return ANY_VAL
        self.it.record(UncombinableOperands(node.start, node.end, op, left.type.describe(),
                                         right.type.describe()))
        return ANY_VAL

    def condition(self, cond: Val, node: jqast.Node) -> None:
        """A value used as a condition; only a value that is never boolean and never absent is suspicious
        (``select(.optionalField)`` is the usual existence test)."""
        if cond.is_any or cond.optional or is_never(cond):
            return
        cond_kinds = cond.type.kinds()
        if ANY_KIND in cond_kinds or BOOLEAN in cond_kinds or NULL in cond_kinds:
            return
        self.it.record(NonBooleanCondition(node.start, node.end, cond.type.describe()))

    def if_(self, node: jqast.If, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        # A branch returning a path its conditions already tested (`if (.a // 0) == 0 then 1 else .a end`) is
        # taken only when that path has a value: it is not counted as optional.
        branches = []
        tested: set[str] = set()
        guarding: set[str] = set()
        for cond, then in ((node.cond, node.then), *node.elifs):
            self.condition(self.it.eval(cond, inp, env, d, quiet), cond)
            tested |= guards.paths_in(cond)
            guarding |= guards.tested_paths(cond)
            inner = guards.proven(env, guarding - guards.null_tests(cond), inp.path)
            then_val = self.it.eval(then, inp, inner, d, quiet)
            branches.append(_narrow(then_val, then, tested - guards.null_tests(cond)))
        if node.else_ is not None:
            inner = guards.proven(env, guarding, inp.path)
            branches.append(_narrow(self.it.eval(node.else_, inp, inner, d, quiet), node.else_, tested))
        else:
            branches.append(inp)
        live = [b for b in branches if not is_never(b)]
        if not live:
            return NEVER_VAL
        return Val(union(*(b.type for b in live)), any(b.optional for b in live))

    def bind(self, pattern: jqast.Node, value: Val, env: dict[str, Any]) -> None:
        if isinstance(pattern, jqast.VarPattern):
            env["$" + pattern.name] = value
            return
        for sub in jqast.walk(pattern):  # destructuring: the parts are not tracked
            if isinstance(sub, jqast.VarPattern):
                env["$" + sub.name] = ANY_VAL
            elif isinstance(sub, jqast.ObjectPatternEntry) and sub.var:
                env["$" + sub.var] = ANY_VAL


def _narrow(v: Val, node: jqast.Node, tested: set[str]) -> Val:
    """``v`` as not optional when ``node`` is a path the conditions tested."""
    if v.optional and guards.path_key(node) in tested:
        return Val(v.type, False, v.const, v.has_const)
    return v
