"""The gojq v0.12.19 builtin table (GOJQ.md §3): name/arity → what a checker needs to know.

``availability``: ``"library"`` (defined when gojq is embedded with no options, as the runtime does),
``"cli"`` (only the ``gojq`` command registers it), ``"hidden"`` (callable ``_``-names left out of
``builtins``), ``"c-jq"`` (exists only in C jq 1.7/1.8), ``"nowhere"`` (commonly guessed, exists in neither).
``outputs``: ``"1"``, ``"0"``, ``"0-1"``, ``"*"`` or ``"dep"`` (depends on the filter arguments).
``path``: valid inside ``path(...)`` / on the left of an assignment (when its filter arguments are paths).
``result``: the kind of value produced (``boolean``, ``number``, ``string``, ``array``, ``object``, ``null``,
``input`` for "the input or part of it", ``any``).
"""

from __future__ import annotations

from wmaplint.dataclass import dataclass


@dataclass(frozen=True, slots=True)
class BuiltinInfo:
    name: str
    arity: int
    availability: str = "library"
    outputs: str = "1"
    path: bool = False
    result: str = "any"
    impure: str | None = None  # why the result differs between runs or hosts
    denied: str | None = None  # the upstream validator's rejection message (FORMAT.md §3.3)
    note: str | None = None


_TABLE: dict[tuple[str, int], BuiltinInfo] = {}


def _add(spec: str, **kw: object) -> None:
    for item in spec.split():
        name, arity = item.rsplit("/", 1)
        _TABLE[(name, int(arity))] = BuiltinInfo(name, int(arity), **kw)  # type: ignore[arg-type]  # kw: its fields


_EXCESSIVE = "function '{name}' may produce excessive output and is not allowed"

# value-making functions with one output
_add(
    "not/0 in/1 inside/1 contains/1 has/1 isempty/1 any/0 any/1 any/2 all/0 all/1 all/2 test/1 "
    "test/2 startswith/1 endswith/1 isinfinite/0 isnan/0 isnormal/0 isfinite/0 toboolean/0 IN/1 IN/2",
    result="boolean",
)
_add(
    "length/0 utf8bytelength/0 tonumber/0 bsearch/1 mktime/0 fromdateiso8601/0 fromdate/0 infinite/0 nan/0 "
    "abs/0 fma/3",
    result="number",
)
_add(
    " ".join(
        f"{n}/0"
        for n in (
            "sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh floor round nearbyint rint "
            "ceil trunc significand "
            "fabs sqrt cbrt exp exp10 exp2 expm1 log log10 log1p log2 logb gamma tgamma lgamma erf "
            "erfc j0 j1 y0 y1"
        ).split()
    ),
    result="number",
)
_add(
    " ".join(
        f"{n}/2"
        for n in (
            "atan2 copysign drem fdim fmax fmin fmod hypot jn nextafter nexttoward remainder ldexp "
            "scalb scalbln yn pow"
        ).split()
    ),
    result="number",
)
_add(
    "tostring/0 tojson/0 type/0 ascii_downcase/0 ascii_upcase/0 implode/0 ltrimstr/1 rtrimstr/1 "
    "trimstr/1 ltrim/0 "
    "rtrim/0 trim/0 join/1 todateiso8601/0 todate/0 strftime/1 format/1 sub/2 sub/3 gsub/2 gsub/3",
    result="string",
)
_add(
    "keys/0 explode/0 split/1 split/2 indices/1 reverse/0 sort/0 sort_by/1 group_by/1 unique/0 unique_by/1 "
    "flatten/0 flatten/1 transpose/0 to_entries/0 map/1 gmtime/0 strptime/1 frexp/0 modf/0 path/1 builtins/0 "
    "JOIN/2",
    result="array",
)
_add("from_entries/0 with_entries/1 INDEX/1 INDEX/2 capture/1 capture/2", result="object")
_add("index/1 rindex/1", result="any")
_add(
    "add/0 add/1 min/0 max/0 min_by/1 max_by/1 fromjson/0 setpath/2 delpaths/1 map_values/1 pick/1 "
    "tostream/0 getpath/1",
    result="any",
)
_TABLE[("getpath", 1)] = BuiltinInfo("getpath", 1, path=True, result="any")
_TABLE[("capture", 2)] = BuiltinInfo("capture", 2, outputs="*", result="object")
_TABLE[("del", 1)] = BuiltinInfo("del", 1, result="input", denied="del function is not allowed")
# streams and generators
_add(
    "splits/1 splits/2 scan/1 scan/2 combinations/0 combinations/1 fromstream/1 truncate_stream/1 "
    "JOIN/3 JOIN/4",
    outputs="*",
)
_add("match/1 match/2", outputs="*", result="object")
_add("paths/0 paths/1", outputs="*", result="array", denied=_EXCESSIVE)
_add("range/1 range/2 range/3", outputs="*", result="number", denied=_EXCESSIVE)
_add("recurse/0 recurse/1 recurse/2", outputs="*", path=True, result="input", denied=_EXCESSIVE)
_add("repeat/1", outputs="*", path=True, result="input", denied=_EXCESSIVE)
_add("walk/1", outputs="dep", result="input", denied=_EXCESSIVE)
_add("while/2", outputs="*", path=True, result="input")
_add("until/2", outputs="dep", path=True, result="input")
_add("limit/2 skip/2", outputs="*", path=True)
_add("first/1 nth/2", outputs="0-1", path=True)
_add("first/0 last/0 nth/1", path=True)
_add("last/1", outputs="0-1")
_add(
    "select/1 arrays/0 objects/0 iterables/0 booleans/0 numbers/0 strings/0 nulls/0 values/0 "
    "scalars/0 finites/0 normals/0",
    outputs="0-1",
    path=True,
    result="input",
)
_add("empty/0", outputs="0", path=True)
_add("error/0 error/1", outputs="0", path=True)
_add("map_values/1", result="input")
# impure or host-dependent
_add("now/0", result="number", impure="reads the wall clock, so the result differs between runs")
_add("localtime/0", result="array", impure="depends on the process time zone (TZ)")
_add("strflocaltime/1", result="string", impure="depends on the process time zone (TZ)")
_add("env/0", result="object", impure="is the empty object `{}` when gojq is embedded (no environment)")
_add(
    "input/0 inputs/0",
    outputs="*",
    impure="is a compile error when gojq is embedded (`input(s)/0 is not allowed`)",
)
_add(
    "halt/0 halt_error/0 halt_error/1",
    outputs="0",
    impure="stops the whole evaluation (the embedding host gets a halt error instead of a value)",
)
_add("modulemeta/0", result="object", impure="needs a module loader, which the runtime does not provide")
_add("debug/1", path=True, result="input", impure="is not defined when gojq is embedded (it needs `debug/0`)")
_add(
    "debug/0 stderr/0",
    availability="cli",
    path=True,
    result="input",
    impure="exists only in the gojq command; embedded gojq reports `function not defined`",
)
_add(
    "input_filename/0",
    availability="cli",
    result="string",
    impure="exists only in the gojq command; embedded gojq reports `function not defined`",
)
# hidden internals (callable, left out of `builtins`)
_add(
    "_tohtml/0 _touri/0 _tourid/0 _tocsv/0 _totsv/0 _tosh/0 _tobase64/0 _tobase64d/0",
    availability="hidden",
    result="string",
)
_add("_index/2 _slice/3", availability="hidden", path=True)
_add(
    "_plus/0 _negate/0 _add/2 _subtract/2 _multiply/2 _divide/2 _modulo/2 _alternative/2 _equal/2 "
    "_notequal/2 "
    "_greater/2 _less/2 _greatereq/2 _lesseq/2 _range/3 _min_by/1 _max_by/1 _sort_by/1 _group_by/1 "
    "_unique_by/1 _match/3 _captures/0 _assign/2 _modify/2 _last/1",
    availability="hidden",
)

# names that exist only in C jq, or nowhere (a did-you-mean must not offer these)
C_JQ_ONLY: dict[tuple[str, int], str] = {
    (
        "keys_unsorted",
        0,
    ): "gojq has no `keys_unsorted` (objects always iterate in sorted key order); use `keys`",
    ("input_line_number", 0): "C jq only; gojq does not track input lines",
    ("get_search_list", 0): "C jq 1.7+ only",
    ("get_prog_origin", 0): "C jq 1.7+ only",
    ("get_jq_origin", 0): "C jq 1.7+ only",
    ("lgamma_r", 0): "C jq only; gojq has `lgamma`",
    ("have_decnum", 0): "C jq 1.8 only",
    ("have_literal_numbers", 0): "C jq 1.8 only",
    ("pow10", 0): "C jq 1.7.1 only; use `exp10`",
}
NOWHERE: dict[str, str] = {
    "leaf_paths": "removed from jq; use `paths(scalars)`",
    "recurse_down": "removed from jq; use `recurse`",
    "ascii": "not a function in gojq or jq 1.7+",
    "isvalid": "not a function in gojq or jq 1.7+",
    "dateadd": "not a function in gojq or jq 1.7+",
    "datesub": "not a function in gojq or jq 1.7+",
    "date": "not a function in gojq or jq 1.7+; use `todate`",
    "toarray": "not a function in gojq 0.12.19",
    "getpath_or_null": "not a jq function",
}

FORMATS = frozenset({"text", "json", "html", "uri", "urid", "csv", "tsv", "sh", "base64", "base64d"})

#: value variables predefined by embedded gojq (``$ENV``; ``$__loc__``, ``$ARGS`` and
#: ``$__prog_args`` are not)
PREDEFINED_VARIABLES = frozenset({"ENV"})
UNDEFINED_VARIABLE_NOTES = {
    "__loc__": "`$__loc__` is C jq syntax; gojq treats it as an undefined variable",
    "ARGS": "`$ARGS` exists only with the jq/gojq command's `--arg`/`--args`",
    "__prog_args": "`$__prog_args` exists in neither gojq nor C jq",
}


def lookup(name: str, arity: int) -> BuiltinInfo | None:
    """The builtin ``name/arity`` callable from an embedded gojq program (library or hidden), else
    ``None``."""
    info = _TABLE.get((name, arity))
    if info is None or info.availability == "cli":
        return None
    return info


def lookup_any(name: str, arity: int) -> BuiltinInfo | None:
    """Like ``lookup`` but also returns CLI-only functions."""
    return _TABLE.get((name, arity))


def arities(name: str) -> list[int]:
    """Arities under which ``name`` exists in embedded gojq."""
    return sorted(a for (n, a), info in _TABLE.items() if n == name and info.availability != "cli")


def public_names() -> list[str]:
    """Names listed by gojq's ``builtins`` (embedded, no ``_`` names), sorted and unique."""
    return sorted({n for (n, _), info in _TABLE.items() if info.availability == "library"})

