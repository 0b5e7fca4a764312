"""Function calls in the type interpreter: what gojq's builtins yield and where their arguments run, and
user-defined functions, inlined."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.jq import ast as jqast
from wmaplint.jq.inference.navigation import Navigation
from wmaplint.jq.inference.operators import Operators
from wmaplint.jq.inference.values import ANY_VAL, NEVER_VAL, Val, is_never, scalar_val, solid
from wmaplint.jq.inference.walk import NO_SPAN
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
    from wmaplint.jq.inference.walk import Walk

MAX_CALL_DEPTH = 8  # user-defined functions are inlined this deep, then ``any``


class Calls:
    """Builtins and user-defined functions, for the walk ``it``."""

    __slots__ = ("it", "navigation", "operators")

    def __init__(self, it: Walk, navigation: Navigation, operators: Operators) -> None:
        self.it = it
        self.navigation = navigation
        self.operators = operators

    def call(self, node: jqast.FuncCall, inp: Val, env: dict[str, Any], d: int, quiet: bool) -> Val:
        name, args = node.name, node.args
        user = env.get(f"{name}/{len(args)}")
        if isinstance(user, tuple):
            return self.user_call(user, node, inp, env, d, quiet)
        if user is None and f"{name}/{len(args)}" in env:  # a filter parameter: its body is not tracked
            return ANY_VAL

        def arg(i: int, v: Val = inp) -> Val:
            return self.it.eval(args[i], v, env, d, quiet)

        arity = len(args)
        if name == "select" and arity == 1:
            self.operators.condition(arg(0), args[0])
            return inp
        if name in ("empty", "error", "halt", "halt_error"):
            for i in range(arity):
                arg(i)
            return NEVER_VAL
        if name in _ELEMENT_ARGS and arity == 1:  # the argument runs on each element of the input
            if not quiet and name in _ITERATES_INPUT:
                self.navigation.null_iteration(inp, node, env)
            item = self.navigation.iterate(inp, node, quiet)
            out = arg(0, item)
            if name in ("any", "all"):
                self.operators.condition(out, args[0])
                return scalar_val(BOOLEAN)
            if name == "map":
                return Val(SchemaType(ARRAY, items=solid(out).type))
            if name in ("min_by", "max_by"):
                return Val(item.type) if not is_never(item) else item
            if name == "group_by":
                return Val(SchemaType(ARRAY, items=inp.type))
            if name == "INDEX":
                return Val(SchemaType(OBJECT, additional=item.type))
            return Val(inp.type)  # map_values, sort_by, unique_by keep the input's shape
        if name in ("any", "all") and arity == 2:  # any(generator; condition)
            gen = arg(0)
            self.operators.condition(arg(1, gen), args[1])
            return scalar_val(BOOLEAN)
        if name == "with_entries" and arity == 1:
            arg(0, self.entry(inp))
            return Val(SchemaType(OBJECT, additional=ANY))
        if name == "to_entries" and not args:
            return Val(SchemaType(ARRAY, items=self.entry(inp).type))
        if name in ("first", "last", "min", "max", "add") and not args:
            # null only for an empty list: a definition's lists are built with elements, so not "optional"
            return Val(self.navigation.iterate(inp, node, True).type)
        if name in ("first", "last") and arity == 1 or name in ("limit", "nth", "skip") and arity == 2:
            for i in range(arity - 1):
                arg(i)
            return arg(arity - 1)
        if name == "nth" and arity == 1:
            arg(0)
            return Val(self.navigation.iterate(inp, node, True).type, True)
        if name in _TYPE_SELECTORS and not args:
            return _select_kinds(inp, _TYPE_SELECTORS[name])
        if name in ("keys", "keys_unsorted") and not args:
            key = SchemaType(INTEGER) if inp.type.kinds() == {ARRAY} else SchemaType(STRING)
            return Val(SchemaType(ARRAY, items=key))
        if name in ("split", "splits") and args:
            for i in range(arity):
                arg(i)
            if name == "splits":
                return scalar_val(STRING)
            return Val(SchemaType(ARRAY, items=SchemaType(STRING)))
        if name in ("sub", "gsub") and arity >= 2:  # the replacement runs on the object of named captures
            arg(0)
            self.it.eval(args[1], ANY_VAL, env, d, True)
            for i in range(2, arity):
                arg(i)
            return scalar_val(STRING)
        if name in _ANY_INPUT_ARGS:  # arguments run on values the analysis does not follow (walk, recurse...)
            for a in args:
                self.it.eval(a, ANY_VAL, env, d, True)
            return ANY_VAL if name not in ("debug", "stderr") else inp
        result = _RESULTS.get(name)
        if result is None:  # not a gojq builtin (or not one this table knows): its arguments stay unchecked
            for a in args:
                self.it.eval(a, ANY_VAL, env, d, True)
            return ANY_VAL
        for i in range(arity):
            arg(i)
        if result == "input":
            return inp
        if result == "list-of-input":
            return Val(SchemaType(ARRAY, items=inp.type))
        if result == "object":
            return Val(SchemaType(OBJECT, additional=ANY))
        if result == "strings":
            return Val(SchemaType(ARRAY, items=SchemaType(STRING)))
        if result == "integers":
            return Val(SchemaType(ARRAY, items=SchemaType(INTEGER)))
        if result == ANY_KIND:
            return ANY_VAL
        return scalar_val(result)

    def entry(self, inp: Val) -> Val:
        """What `to_entries` makes of each member of ``inp``: its key and value, under the names
        `from_entries` reads too (name, k, v)."""
        value = self.navigation.iterate(inp, NO_SPAN, True).type
        key = SchemaType(INTEGER) if inp.type.kinds() == {ARRAY} else SchemaType(STRING)
        t = SchemaType(OBJECT, required=frozenset({"key", "value"}))
        t.properties = {
            "key": Property("key", key),
            "value": Property("value", value),
            "name": Property("name", key),
            "k": Property("k", key),
            "v": Property("v", value),
        }
        return Val(t)

    def user_call(
        self,
        user: tuple[jqast.FuncDef, dict[str, Any]],
        node: jqast.FuncCall,
        inp: Val,
        env: dict[str, Any],
        d: int,
        quiet: bool,
    ) -> Val:
        fdef, def_env = user
        calls = env.get("#calls", 0)
        if calls >= MAX_CALL_DEPTH:
            return ANY_VAL
        inner = dict(def_env)
        inner["#calls"] = calls + 1
        for param, argument in zip(fdef.params, node.args, strict=False):
            if param.startswith("$"):
                inner[param] = self.it.eval(argument, inp, env, d, quiet)
            else:  # filter parameters: not tracked, calls to them yield any
                inner[f"{param}/0"] = None
        return self.it.eval(fdef.body, inp, inner, d, quiet)


def _select_kinds(inp: Val, selected: frozenset[str]) -> Val:
    """``values``, ``strings``...: keep the variants of the selected kinds; nothing else passes."""
    if inp.is_any or is_never(inp):
        return inp
    kept = [v for v in variants(inp.type) if v.kind == ANY_KIND or v.kind in selected]
    may_be_null = NULL in selected and (inp.optional or NULL in inp.type.kinds())
    if not kept:
        return Val(SchemaType(NULL), True) if may_be_null else NEVER_VAL
    return Val(union(*kept), may_be_null)


# builtins whose single argument runs on each element (or member value) of the input
_ELEMENT_ARGS = frozenset(
    {"any", "all", "map", "map_values", "min_by", "max_by", "sort_by", "group_by", "unique_by", "INDEX"}
)
# those gojq defines over `.[]` (builtin.jq), so that a null input stops them (map_values goes through paths)
_ITERATES_INPUT = _ELEMENT_ARGS - {"map_values"}
# builtins whose arguments run on values this analysis does not follow: they are evaluated over any
_ANY_INPUT_ARGS = frozenset(
    {
        "walk",
        "paths",
        "recurse",
        "until",
        "while",
        "repeat",
        "fromstream",
        "truncate_stream",
        "JOIN",
        "INDEX",
        "debug",
        "stderr",
        "leaf_paths",
    }
)
_NUMERIC = frozenset({NUMBER, INTEGER})
_TYPE_SELECTORS: dict[str, frozenset[str]] = {
    "values": frozenset({OBJECT, ARRAY, STRING, NUMBER, INTEGER, BOOLEAN}),
    "nulls": frozenset({NULL}),
    "booleans": frozenset({BOOLEAN}),
    "numbers": _NUMERIC,
    "finites": _NUMERIC,
    "normals": _NUMERIC,
    "strings": frozenset({STRING}),
    "arrays": frozenset({ARRAY}),
    "objects": frozenset({OBJECT}),
    "iterables": frozenset({ARRAY, OBJECT}),
    "scalars": frozenset({STRING, NUMBER, INTEGER, BOOLEAN, NULL}),
}
_MATH = (
    "floor ceil round sqrt fabs pow log exp abs sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh "
    "nearbyint rint trunc significand cbrt exp10 exp2 expm1 log10 log1p log2 logb gamma tgamma lgamma erf "
    "erfc j0 j1 y0 y1 atan2 copysign drem fdim fmax fmin fmod hypot jn nextafter nexttoward remainder "
    "ldexp scalb scalbln yn fma infinite nan"
)
# what the other builtins yield (their arguments run on the input): a kind, or one of the words below
_RESULTS: dict[str, str] = {
    **dict.fromkeys(
        "any all not has in contains inside startswith endswith test isempty IN isinfinite isnan isnormal "
        "isfinite toboolean".split(),
        BOOLEAN,
    ),
    **dict.fromkeys(
        "tostring tojson ascii_downcase ascii_upcase ltrimstr rtrimstr trimstr trim ltrim rtrim join implode "
        "todate todateiso8601 strftime strflocaltime format type".split(),
        STRING,
    ),
    **dict.fromkeys(f"tonumber fromdate fromdateiso8601 mktime now range {_MATH}".split(), NUMBER),
    **dict.fromkeys("length utf8bytelength bsearch".split(), INTEGER),
    **dict.fromkeys("sort unique reverse del pick setpath delpaths".split(), "input"),
    **dict.fromkeys("from_entries env".split(), "object"),
    "explode": "integers",
    "builtins": "strings",
    **dict.fromkeys(
        "getpath path fromjson input inputs tostream transpose flatten combinations index rindex indices "
        "match capture scan gmtime localtime strptime frexp modf add input_filename modulemeta "
        "input_line_number ascii".split(),
        ANY_KIND,
    ),
}
