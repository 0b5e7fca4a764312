"""The Kubernetes CEL environment on cel-expr-python (K8S_CEL.md §1, §6).

Two environments, because cel-expr-python dispatches Python implementations by value kind only:
* the *check* environment declares every function with its precise Kubernetes signature (no implementations)
  and is used to compile and type-check;
* the *run* environment registers one kind-level Python implementation per function and evaluates the
  checked expression after ``serialize()``/``deserialize()``.
``self`` is ``dyn`` in both; schema typing is done by ``wmaplint.cel.checker`` over the checked AST.
This module imports cel-expr-python, so import it lazily.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from cel_expr_python import cel
from cel_expr_python.ext import ext_optional, ext_strings

from wmaplint import memo
from wmaplint.cel import library as lib

_EXTENSIONS_YAML = (
    'extensions:\n  - name: "lists"\n    version: 2\n  - name: "sets"\n  - name: "two-var-comprehensions"\n'
)

T = cel.Type
S, INT, U, D, B, DY = T.STRING, T.INT, T.UINT, T.DOUBLE, T.BOOL, T.DYN
QUANTITY = T.AbstractType("kubernetes.Quantity")
URL = T.AbstractType("kubernetes.URL")
SEMVER = T.AbstractType("kubernetes.Semver")
NAMED_FORMAT = T.AbstractType("kubernetes.NamedFormat")
IP = T.AbstractType("net.IP")
CIDR = T.AbstractType("net.CIDR")
TP = T("~A")

# Function names that only the Kubernetes library (or our additions) provide: the checker treats a call whose
# argument is an optional value as an overload error, because such values cannot cross into Python.
LIBRARY_FUNCTIONS: frozenset[str] = frozenset()

_ORDERED = {
    "int": INT,
    "uint": U,
    "double": D,
    "bool": B,
    "duration": T.DURATION,
    "timestamp": T.TIMESTAMP,
    "string": S,
    "bytes": T.BYTES,
}


def _ov(oid: str, ret: Any, params: list[Any], member: bool = False) -> Any:
    return cel.Overload(oid, ret, params, is_member=member)


def _declarations() -> list[Any]:
    fn = cel.FunctionDecl
    decls = []
    # ext.Strings v2, declared here (not via ExtStrings) so list indexOf/lastIndexOf can share the names.
    decls += [
        fn("charAt", [_ov("string_char_at_int", S, [S, INT], True)]),
        fn(
            "indexOf",
            [
                _ov("string_index_of_string", INT, [S, S], True),
                _ov("string_index_of_string_int", INT, [S, S, INT], True),
                _ov("list_a_index_of_a", INT, [T.List(TP), TP], True),
            ],
        ),
        fn(
            "lastIndexOf",
            [
                _ov("string_last_index_of_string", INT, [S, S], True),
                _ov("string_last_index_of_string_int", INT, [S, S, INT], True),
                _ov("list_a_last_index_of_a", INT, [T.List(TP), TP], True),
            ],
        ),
        fn("lowerAscii", [_ov("string_lower_ascii", S, [S], True)]),
        fn("upperAscii", [_ov("string_upper_ascii", S, [S], True)]),
        fn(
            "replace",
            [
                _ov("string_replace_string_string", S, [S, S, S], True),
                _ov("string_replace_string_string_int", S, [S, S, S, INT], True),
            ],
        ),
        fn(
            "split",
            [
                _ov("string_split_string", T.List(S), [S, S], True),
                _ov("string_split_string_int", T.List(S), [S, S, INT], True),
            ],
        ),
        fn(
            "substring",
            [
                _ov("string_substring_int", S, [S, INT], True),
                _ov("string_substring_int_int", S, [S, INT, INT], True),
            ],
        ),
        fn("trim", [_ov("string_trim", S, [S], True)]),
        fn(
            "join", [_ov("list_join", S, [T.List(S)], True), _ov("list_join_string", S, [T.List(S), S], True)]
        ),
        fn("format", [_ov("string_format", S, [S, T.List(DY)], True)]),
        fn("strings.quote", [_ov("strings_quote", S, [S])]),
    ]
    # Cross-type numeric ordering (Kubernetes >= 1.28).
    mixed = [
        (INT, D, "int64_double"),
        (D, INT, "double_int64"),
        (INT, U, "int64_uint64"),
        (U, INT, "uint64_int64"),
        (U, D, "uint64_double"),
        (D, U, "double_uint64"),
    ]
    for op, word in (
        ("_<_", "less"),
        ("_<=_", "less_equals"),
        ("_>_", "greater"),
        ("_>=_", "greater_equals"),
    ):
        decls.append(fn(op, [_ov(f"{word}_{name}", B, [a, b]) for a, b, name in mixed]))
    # kubernetes.lists
    decls += [
        fn("isSorted", [_ov(f"list_{n}_is_sorted", B, [T.List(t)], True) for n, t in _ORDERED.items()]),
        fn(
            "sum",
            [
                _ov(f"list_{n}_sum", t, [T.List(t)], True)
                for n, t in (("int", INT), ("uint", U), ("double", D), ("duration", T.DURATION))
            ],
        ),
        fn("min", [_ov(f"list_{n}_min", t, [T.List(t)], True) for n, t in _ORDERED.items()]),
        fn("max", [_ov(f"list_{n}_max", t, [T.List(t)], True) for n, t in _ORDERED.items()]),
    ]
    # kubernetes.regex
    decls += [
        fn("find", [_ov("string_find_string", S, [S, S], True)]),
        fn(
            "findAll",
            [
                _ov("string_find_all_string", T.List(S), [S, S], True),
                _ov("string_find_all_string_int", T.List(S), [S, S, INT], True),
            ],
        ),
    ]
    # kubernetes.urls
    decls += [fn("url", [_ov("string_to_url", URL, [S])]), fn("isURL", [_ov("is_url_string", B, [S])])]
    for getter in ("getScheme", "getHost", "getHostname", "getPort", "getEscapedPath"):
        decls.append(fn(getter, [_ov(f"url_{getter}", S, [URL], True)]))
    decls.append(fn("getQuery", [_ov("url_getQuery", T.Map(S, T.List(S)), [URL], True)]))
    # kubernetes.quantity and kubernetes.Semver (shared comparison names)
    decls += [
        fn("quantity", [_ov("string_to_quantity", QUANTITY, [S])]),
        fn("isQuantity", [_ov("is_quantity_string", B, [S])]),
        fn("sign", [_ov("quantity_sign", INT, [QUANTITY])]),
        # cel-expr-python treats every abstract type as one, so Quantity/Semver overloads share a type
        # parameter
        # and the checker (checker.LIBRARY_SIGNATURES) tells them apart.
        fn("isGreaterThan", [_ov("library_is_greater_than", B, [TP, TP], True)]),
        fn("isLessThan", [_ov("library_is_less_than", B, [TP, TP], True)]),
        fn("compareTo", [_ov("library_compare_to", INT, [TP, TP], True)]),
        fn("asApproximateFloat", [_ov("quantity_get_float", D, [QUANTITY], True)]),
        fn("asInteger", [_ov("quantity_get_int", INT, [QUANTITY], True)]),
        fn("isInteger", [_ov("quantity_is_integer", B, [QUANTITY], True)]),
        fn("add", [_ov("quantity_add", QUANTITY, [QUANTITY, DY], True)]),
        fn("sub", [_ov("quantity_sub", QUANTITY, [QUANTITY, DY], True)]),
        fn("semver", [_ov("string_to_semver", SEMVER, [S]), _ov("string_bool_to_semver", SEMVER, [S, B])]),
        fn("isSemver", [_ov("is_semver_string", B, [S]), _ov("is_semver_string_bool", B, [S, B])]),
        fn("major", [_ov("semver_major", INT, [SEMVER], True)]),
        fn("minor", [_ov("semver_minor", INT, [SEMVER], True)]),
        fn("patch", [_ov("semver_patch", INT, [SEMVER], True)]),
    ]
    # kubernetes.net.ip / cidr
    decls += [
        fn("ip", [_ov("string_to_ip", IP, [S]), _ov("cidr_ip", IP, [CIDR], True)]),
        fn("isIP", [_ov("is_ip", B, [S])]),
        fn("ip.isCanonical", [_ov("ip_is_canonical", B, [S])]),
        fn("family", [_ov("ip_family", INT, [IP], True)]),
        fn("cidr", [_ov("string_to_cidr", CIDR, [S])]),
        fn("isCIDR", [_ov("is_cidr", B, [S])]),
        fn("containsIP", [_ov("cidr_contains_ip", B, [CIDR, DY], True)]),
        fn("containsCIDR", [_ov("cidr_contains_cidr", B, [CIDR, DY], True)]),
        fn("masked", [_ov("cidr_masked", CIDR, [CIDR], True)]),
        fn("prefixLength", [_ov("cidr_prefix_length", INT, [CIDR], True)]),
    ]
    for pred in lib.IP_PREDICATES:
        decls.append(fn(pred, [_ov(f"ip_{pred}", B, [IP], True)]))
    # kubernetes.format
    optional_format = T.AbstractType("optional_type", [NAMED_FORMAT])
    decls.append(fn("format.named", [_ov("format_named", optional_format, [S])]))
    for name in lib.FORMAT_NAMES:
        decls.append(fn(f"format.{name}", [_ov(f"format_{name}", NAMED_FORMAT, [])]))
    decls.append(
        fn(
            "validate",
            [_ov("format_validate", T.AbstractType("optional_type", [T.List(S)]), [NAMED_FORMAT, S], True)],
        )
    )
    # optional library v2 additions missing from cel-expr-python
    decls += [
        fn(
            "optional.unwrap",
            [_ov("optional_unwrap", T.List(TP), [T.List(T.AbstractType("optional_type", [TP]))])],
        ),
        fn(
            "unwrapOpt",
            [_ov("optional_unwrapOpt", T.List(TP), [T.List(T.AbstractType("optional_type", [TP]))], True)],
        ),
    ]
    return decls


def _library_names() -> frozenset[str]:
    names = set()
    for decl_name in (
        "isSorted",
        "sum",
        "min",
        "max",
        "find",
        "findAll",
        "url",
        "isURL",
        "getScheme",
        "getHost",
        "getHostname",
        "getPort",
        "getEscapedPath",
        "getQuery",
        "quantity",
        "isQuantity",
        "sign",
        "isGreaterThan",
        "isLessThan",
        "compareTo",
        "asApproximateFloat",
        "asInteger",
        "isInteger",
        "add",
        "sub",
        "semver",
        "isSemver",
        "major",
        "minor",
        "patch",
        "ip",
        "isIP",
        "ip.isCanonical",
        "family",
        "cidr",
        "isCIDR",
        "containsIP",
        "containsCIDR",
        "masked",
        "prefixLength",
        "isUnspecified",
        "isLoopback",
        "isLinkLocalMulticast",
        "isLinkLocalUnicast",
        "isGlobalUnicast",
        "format.named",
        "validate",
        "indexOf",
        "lastIndexOf",
    ):
        names.add(decl_name)
    names.update(f"format.{n}" for n in lib.FORMAT_NAMES)
    return frozenset(names)


LIBRARY_FUNCTIONS = _library_names()


@memo.lru_cache(maxsize=8, pure=True)
def check_env(variables: tuple[str, ...] = ("self", "oldSelf")) -> Any:
    """The type-checking environment; every variable is ``dyn`` (schema typing happens over the AST)."""
    return _env(variables, [cel.CelExtension("kubernetes", _declarations()), ext_optional.ExtOptional(2)])


def _env(variables: tuple[str, ...], extensions: list[Any]) -> Any:
    return cel.NewEnv(config=cel.NewEnvConfigFromYaml(_EXTENSIONS_YAML),
                      variables={name: DY for name in variables}, extensions=extensions)


def _impl(name: str, fn: Callable[..., Any], arity: int, member: bool = False, ret: Any = DY) -> Any:
    return cel.FunctionDecl(
        name, [cel.Overload(f"run_{name}_{arity}", ret, [DY] * arity, is_member=member, impl=fn)]
    )


def _runtime_functions() -> list[Any]:
    def dispatch_ip(value: object) -> Any:
        return lib.ip(value)

    decls = [
        _impl("isSorted", lib.is_sorted, 1, True, B),
        _impl("sum", lib.list_sum, 1, True),
        _impl("min", lib.list_min, 1, True),
        _impl("max", lib.list_max, 1, True),
        cel.FunctionDecl("find", [cel.Overload("run_find", S, [S, S], is_member=True, impl=lib.find)]),
        cel.FunctionDecl(
            "findAll",
            [
                cel.Overload("run_findAll_2", T.List(S), [S, S], is_member=True, impl=lib.find_all),
                cel.Overload("run_findAll_3", T.List(S), [S, S, INT], is_member=True, impl=lib.find_all),
            ],
        ),
        _impl("url", lib.url, 1),
        _impl("isURL", lib.is_url, 1, ret=B),
        _impl("getScheme", lib.url_scheme, 1, True, S),
        _impl("getHost", lib.url_host, 1, True, S),
        _impl("getHostname", lib.url_hostname, 1, True, S),
        _impl("getPort", lib.url_port, 1, True, S),
        _impl("getEscapedPath", lib.url_path, 1, True, S),
        _impl("getQuery", lib.url_query, 1, True),
        _impl("quantity", lib.quantity, 1),
        _impl("isQuantity", lib.is_quantity, 1, ret=B),
        _impl("sign", lib.quantity_sign, 1, ret=INT),
        _impl("isGreaterThan", lib.is_greater_than, 2, True, B),
        _impl("isLessThan", lib.is_less_than, 2, True, B),
        _impl("compareTo", lib.compare_to, 2, True, INT),
        _impl("asApproximateFloat", lambda q: float(lib._qval(q)), 1, True, D),
        _impl("asInteger", lib.quantity_as_integer, 1, True, INT),
        _impl("isInteger", lib.quantity_is_integer, 1, True, B),
        _impl("add", lib.quantity_add, 2, True),
        _impl("sub", lib.quantity_sub, 2, True),
        cel.FunctionDecl(
            "semver",
            [
                cel.Overload("run_semver_1", DY, [DY], impl=lib.semver),
                cel.Overload("run_semver_2", DY, [DY, DY], impl=lib.semver),
            ],
        ),
        cel.FunctionDecl(
            "isSemver",
            [
                cel.Overload("run_isSemver_1", B, [DY], impl=lib.is_semver),
                cel.Overload("run_isSemver_2", B, [DY, DY], impl=lib.is_semver),
            ],
        ),
        _impl("major", lambda v: lib._expect(v, "kubernetes.Semver")["major"], 1, True, INT),
        _impl("minor", lambda v: lib._expect(v, "kubernetes.Semver")["minor"], 1, True, INT),
        _impl("patch", lambda v: lib._expect(v, "kubernetes.Semver")["patch"], 1, True, INT),
        cel.FunctionDecl(
            "ip",
            [
                cel.Overload("run_ip_1", DY, [DY], impl=dispatch_ip),
                cel.Overload("run_cidr_ip", DY, [DY], is_member=True, impl=dispatch_ip),
            ],
        ),
        _impl("isIP", lib.is_ip, 1, ret=B),
        _impl("ip.isCanonical", lib.ip_is_canonical, 1, ret=B),
        _impl("family", lib.ip_family, 1, True, INT),
        _impl("cidr", lib.cidr, 1),
        _impl("isCIDR", lib.is_cidr, 1, ret=B),
        _impl("containsIP", lib.cidr_contains_ip, 2, True, B),
        _impl("containsCIDR", lib.cidr_contains_cidr, 2, True, B),
        _impl("masked", lib.cidr_masked, 1, True),
        _impl("prefixLength", lib.cidr_prefix_length, 1, True, INT),
    ]
    for pred in lib.IP_PREDICATES:
        decls.append(_impl(pred, lib.ip_predicate(pred), 1, True, B))
    for name in lib.FORMAT_NAMES:
        decls.append(
            cel.FunctionDecl(
                f"format.{name}",
                [cel.Overload(f"run_format_{name}", DY, [], impl=functools.partial(lib.named_format, name))],
            )
        )
    return decls


@memo.lru_cache(maxsize=8, pure=True)
def run_env(variables: tuple[str, ...] = ("self", "oldSelf")) -> Any:
    """The evaluation environment: standard and extension libraries plus Python implementations."""
    return _env(variables, [cel.CelExtension("kubernetes", _runtime_functions()), ext_strings.ExtStrings(2),
                            ext_optional.ExtOptional(2)])
