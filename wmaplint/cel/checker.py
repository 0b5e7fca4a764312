"""Compile a CEL expression and type-check it against schema-derived types.

cel-expr-python parses and checks with every variable declared ``dyn`` (it cannot declare struct types without
the protobuf runtime); this module then walks the checked AST with the real types of ``self``/``oldSelf``
(``types.py``) and reports what cel-go's checker would: undefined fields, selection on scalars, impossible
operand types, non-iterable comprehension ranges, mixed literals, bad constant arguments, wrong output type.
Unknown stays ``dyn`` and never errors.
"""

from __future__ import annotations

import datetime
import re
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from wmaplint import memo
from wmaplint.cel import ast as celast
from wmaplint.cel import types as t
from wmaplint.cel.protowire import WireError

MAX_EXPRESSION_CHARS = 100_000
MAX_PROBLEMS = 100  # as cel-go reports: the first 100 errors, then how many more were truncated
_STRING_ONLY_MEMBERS = frozenset(
    {
        "contains",
        "startsWith",
        "endsWith",
        "matches",
        "lowerAscii",
        "upperAscii",
        "trim",
        "split",
        "substring",
        "charAt",
        "replace",
        "find",
        "findAll",
        "format",
    }
)
_CONCRETE = frozenset({"bool", "int", "uint", "double", "string", "bytes", "timestamp", "duration"})
_NUMERIC = frozenset({"int", "uint", "double"})
_SIZED = frozenset({"string", "bytes", "list", "map"})
# Library member functions and the opaque receiver types they accept.
_OPAQUE_MEMBERS: dict[str, frozenset[str]] = {
    "isGreaterThan": frozenset({"kubernetes.Quantity", "kubernetes.Semver"}),
    "isLessThan": frozenset({"kubernetes.Quantity", "kubernetes.Semver"}),
    "compareTo": frozenset({"kubernetes.Quantity", "kubernetes.Semver"}),
    "asApproximateFloat": frozenset({"kubernetes.Quantity"}),
    "asInteger": frozenset({"kubernetes.Quantity"}),
    "isInteger": frozenset({"kubernetes.Quantity"}),
    "add": frozenset({"kubernetes.Quantity"}),
    "sub": frozenset({"kubernetes.Quantity"}),
    "major": frozenset({"kubernetes.Semver"}),
    "minor": frozenset({"kubernetes.Semver"}),
    "patch": frozenset({"kubernetes.Semver"}),
    "family": frozenset({"net.IP"}),
    "containsIP": frozenset({"net.CIDR"}),
    "containsCIDR": frozenset({"net.CIDR"}),
    "masked": frozenset({"net.CIDR"}),
    "prefixLength": frozenset({"net.CIDR"}),
    "validate": frozenset({"kubernetes.NamedFormat"}),
}
_GO_DURATION = re.compile(r"[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+\Z|[-+]?0\Z")


@dataclass(frozen=True)
class CheckerMessage:
    """What the checker says of an expression (its callers make it a ``CelIssue``); ``offset`` is a code-point
    offset into the expression text."""

    message: str
    offset: int | None
    kind: str = "type"  # compile (syntax / declarations), type, output


@dataclass
class Compiled:
    """The schema-independent part: cel-expr-python's verdict and the checked AST."""

    text: str
    serialized: bytes | None
    ast: celast.CheckedAst | None
    problems: list[CheckerMessage]


@dataclass
class CheckResult:
    text: str
    problems: list[CheckerMessage]
    output: t.CelType = t.DYN
    compiled: Compiled | None = None
    uses_old_self: bool = False
    node_types: dict[int, t.CelType] = field(default_factory=dict)
    truncated: int = 0  # problems past MAX_PROBLEMS, counted by the last problem's message
    _costs: Any = None

    def checked_ast(self) -> celast.CheckedAst:
        assert self.compiled is not None and self.compiled.ast is not None
        return self.compiled.ast

    def cost_table(self) -> Any:
        """The program's cost bounds at a few data sizes (wmaplint.cel.budget), worked out once."""
        if self._costs is None:
            from wmaplint.cel.budget import cost_table

            self._costs = cost_table(self.checked_ast(), self.node_types)
        return self._costs

    @property
    def ok(self) -> bool:
        return not self.problems


_compile_cache: OrderedDict[tuple[str, tuple[str, ...]], Compiled] = memo.kept(
    __name__, "_compile_cache", OrderedDict(), pure=True)
_cache_lock = threading.Lock()
_CACHE_SIZE = 8192


def _strip_status(message: str) -> str:
    message = re.sub(r"^[A-Z_]+: ", "", message.strip())
    return re.sub(r"\s*\[[A-Z_]+\]$", "", message)


_ISSUE_LINE = re.compile(r"ERROR: <input>:(\d+):(\d+): (.*)")


def _line_col_to_offset(text: str, line: int, col: int) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: max(line - 1, 0)]) + max(col - 1, 0)


def _rewrite(message: str) -> str:
    """cel-cpp wording -> cel-go wording (K8S_CEL.md §6.2)."""
    found = re.match(r"expression of type '(.*)' cannot be the operand of a select operation", message)
    if found:
        return f"type '{found.group(1)}' does not support field selection"
    return message


def _compile_problems(text: str, raw: str) -> list[CheckerMessage]:
    body = _strip_status(raw)
    problems = []
    for match in _ISSUE_LINE.finditer(body):
        problems.append(
            CheckerMessage(
                _rewrite(match.group(3).strip()),
                _line_col_to_offset(text, int(match.group(1)), int(match.group(2))),
                "compile",
            )
        )
    first = body.splitlines()[0] if body else "compilation failed"
    return problems or [CheckerMessage(first, None, "compile")]


def _backtick_offset(text: str) -> int | None:
    quote: str | None = None
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 1
            elif text.startswith(quote, i):
                i += len(quote) - 1
                quote = None
        elif text.startswith(('"""', "'''"), i):
            quote = text[i : i + 3]
            i += 2
        elif ch in "\"'":
            quote = ch
        elif ch == "`":
            return i
        i += 1
    return None


def compile_expression(text: str, variables: tuple[str, ...] = ("self", "oldSelf")) -> Compiled:
    """Parse and check with dyn variables; cached by text (the result does not depend on the schema)."""
    key = (text, variables)
    with _cache_lock:
        cached = _compile_cache.get(key)
        if cached is not None:
            _compile_cache.move_to_end(key)
            return cached
    compiled = _compile_uncached(text, variables)
    with _cache_lock:
        _compile_cache[key] = compiled
        if len(_compile_cache) > _CACHE_SIZE:
            _compile_cache.popitem(last=False)
    return compiled


def _compile_uncached(text: str, variables: tuple[str, ...]) -> Compiled:
    if not isinstance(text, str) or not text.strip():
        return Compiled(text, None, None, [CheckerMessage("expression is empty", None, "compile")])
    if len(text) > MAX_EXPRESSION_CHARS:
        return Compiled(
            text,
            None,
            None,
            [CheckerMessage(f"expression longer than {MAX_EXPRESSION_CHARS} characters", None, "compile")],
        )
    tick = _backtick_offset(text)
    if tick is not None:
        unsupported = CheckerMessage("Syntax error: unsupported syntax: '`'", tick, "compile")
        return Compiled(text, None, None, [unsupported])
    from wmaplint.cel.env import check_env

    try:
        expression = check_env(variables).compile(text)
    except RuntimeError as exc:
        return Compiled(text, None, None, _compile_problems(text, str(exc)))
    except Exception as exc:  # anything else from the native layer is still a finding, not a crash
        return Compiled(
            text, None, None,
            [CheckerMessage(_strip_status(str(exc)) or "compilation failed", None, "compile")],
        )
    serialized = expression.serialize()
    try:
        checked = celast.decode_checked(serialized)
    except (WireError, RecursionError):
        checked = None
    return Compiled(text, serialized, checked, [])


def check_expression(
    text: str, variables: Mapping[str, t.CelType], expect: str | None = "bool"
) -> CheckResult:
    """Compile ``text`` and type-check it with ``variables`` (name -> type); ``expect`` = bool, string or
    None."""
    names = tuple(variables)
    compiled = compile_expression(text, names)
    if compiled.problems or compiled.ast is None:
        return CheckResult(text, list(compiled.problems), t.DYN, compiled)
    walker = _TypeWalker(compiled.ast, dict(variables))
    try:
        output = walker.infer(compiled.ast.expr, {}, 0)
    except RecursionError:
        output = t.DYN
    problems = walker.problems
    if walker.reported > MAX_PROBLEMS:
        more = walker.reported - MAX_PROBLEMS
        problems.append(CheckerMessage(f"{more} more errors were truncated", None, "type"))
    if expect and not problems and not output.is_dyn and output.kind != expect:
        what = "a bool" if expect == "bool" else "a string"
        problems.append(CheckerMessage(f"cel expression must evaluate to {what}", None, "output"))
    truncated = max(walker.reported - MAX_PROBLEMS, 0)
    return CheckResult(text, problems, output, compiled, walker.uses_old_self, walker.node_types, truncated)


class _TypeWalker:
    MAX_DEPTH = 300

    def __init__(self, checked: celast.CheckedAst, variables: dict[str, t.CelType]) -> None:
        self.checked = checked
        self.variables = variables
        self.problems: list[CheckerMessage] = []
        self.reported = 0
        self.uses_old_self = False
        self.node_types: dict[int, t.CelType] = {}

    def report(self, node: celast.Node, message: str) -> None:
        self.reported += 1
        if self.reported <= MAX_PROBLEMS:
            self.problems.append(CheckerMessage(message, self.checked.positions.get(node.id), "type"))

    def checker_type(self, node: celast.Node) -> t.CelType:
        return self.checked.types.get(node.id, t.DYN)

    def infer(self, node: celast.Node, scope: dict[str, t.CelType], depth: int) -> t.CelType:
        if depth > self.MAX_DEPTH:
            return t.DYN
        result = self._infer(node, scope, depth + 1)
        self.node_types[node.id] = result
        return result

    def _infer(self, node: celast.Node, scope: dict[str, t.CelType], depth: int) -> t.CelType:
        if isinstance(node, celast.Const):
            return t.SCALARS.get(node.kind, t.DYN)
        if isinstance(node, celast.Ident):
            if node.name in scope:
                return scope[node.name]
            if node.name == "oldSelf":
                self.uses_old_self = True
            if node.name in self.variables:
                return self.variables[node.name]
            return self.checker_type(node)
        if isinstance(node, celast.Select):
            return self._select(node, scope, depth)
        if isinstance(node, celast.Call):
            return self._call(node, scope, depth)
        if isinstance(node, celast.ListLit):
            return self._list(node, scope, depth)
        if isinstance(node, celast.StructLit):
            if node.message_name:
                return t.DYN
            key_t: t.CelType = t.DYN
            val_t: t.CelType = t.DYN
            for entry in node.entries:
                k = self.infer(entry.key, scope, depth) if entry.key is not None else t.DYN
                v = self.infer(entry.value, scope, depth)
                key_t = k if key_t.is_dyn else key_t
                val_t = v if val_t.is_dyn else val_t
            return t.map_of(key_t, val_t)
        if isinstance(node, celast.Comprehension):
            return self._comprehension(node, scope, depth)
        return t.DYN

    # -- selection -------------------------------------------------------------------------------------------

    def _field_of(self, node: celast.Node, operand: t.CelType, name: str) -> t.CelType | None:
        """The type of ``operand.name``; None (after reporting) when the selection is impossible."""
        if isinstance(operand, t.ObjectType):
            found = operand.field(name)
            if found is None:
                self.report(node, f"undefined field '{name}'")
                return None
            return found.type
        if isinstance(operand, t.MapType):
            return operand.value
        if operand.is_dyn or isinstance(operand, t.OptionalType) or operand.kind == "null":
            return t.DYN
        self.report(node, f"type '{operand.render()}' does not support field selection")
        return None

    def _select(self, node: celast.Select, scope: dict[str, t.CelType], depth: int) -> t.CelType:
        if node.id in self.checked.references and not isinstance(node.operand, celast.Select | celast.Ident):
            return self.checker_type(node)
        if node.id in self.checked.references:  # a qualified name resolved by the checker (e.g. an enum)
            return self.checker_type(node)
        operand = self.infer(node.operand, scope, depth)
        selected = self._field_of(node, operand, node.field)
        if node.test_only:
            return t.BOOL
        return selected if selected is not None else t.DYN

    # -- calls -----------------------------------------------------------------------------------------------

    def _call(self, node: celast.Call, scope: dict[str, t.CelType], depth: int) -> t.CelType:
        fn = node.function
        target = self.infer(node.target, scope, depth) if node.target is not None else None
        args = [self.infer(a, scope, depth) for a in node.args]
        from wmaplint.cel.env import LIBRARY_FUNCTIONS

        if fn in LIBRARY_FUNCTIONS:
            for arg_node, arg_t in zip(
                ([node.target] if node.target else []) + node.args,
                ([target] if target is not None else []) + args,
                strict=True,
            ):
                if isinstance(arg_t, t.OptionalType) or (
                    isinstance(arg_node, celast.Call)
                    and arg_node.function == "dyn"
                    and arg_node.args
                    and isinstance(self.node_types.get(arg_node.args[0].id), t.OptionalType)
                ):
                    self._no_overload(node, fn, target, args)
                    return t.DYN
        if fn in ("_[_]", "_[?_]") and len(args) == 2:
            container, _ = args
            if isinstance(container, t.ListType):
                elem = container.elem
            elif isinstance(container, t.MapType):
                elem = container.value
            elif container.is_dyn or container.kind in ("null", "optional"):
                elem = t.DYN
            else:
                self._no_overload(node, fn, None, args)
                return t.DYN
            return t.optional_of(elem) if fn == "_[?_]" else elem
        if fn == "_?._" and len(args) == 2:
            operand = args[0]
            if isinstance(operand, t.OptionalType):
                operand = operand.inner
            name = node.args[1].value if isinstance(node.args[1], celast.Const) else ""
            selected = self._field_of(node, operand, str(name))
            return t.optional_of(selected if selected is not None else t.DYN)
        if fn in ("_==_", "_!=_") and len(args) == 2:
            a, b = args
            if self._incomparable(a, b):
                self._no_overload(node, fn, None, args)
            return t.BOOL
        if fn in ("_<_", "_<=_", "_>_", "_>=_") and len(args) == 2:
            a, b = args
            if (
                a.kind in _CONCRETE
                and b.kind in _CONCRETE
                and a.kind != b.kind
                and not (a.kind in _NUMERIC and b.kind in _NUMERIC)
            ):
                self._no_overload(node, fn, None, args)
            elif (a.kind in ("object", "map", "list") and not b.is_dyn) or (
                b.kind in ("object", "map", "list") and not a.is_dyn
            ):
                self._no_overload(node, fn, None, args)
            return t.BOOL
        if fn == "@in" and len(args) == 2:
            if args[1].kind in _CONCRETE or isinstance(args[1], t.ObjectType):
                self._no_overload(node, fn, None, args)
            return t.BOOL
        if fn == "size":
            subject = target if target is not None else (args[0] if args else t.DYN)
            if not subject.is_dyn and subject.kind not in _SIZED:
                self._no_overload(node, fn, target, args if target is not None else args)
            return t.INT
        if fn == "_?_:_" and len(args) == 3:
            return args[1] if not args[1].is_dyn else args[2]
        if fn == "_+_" and len(args) == 2:
            a, b = args
            if isinstance(a, t.ListType) and isinstance(b, t.ListType):
                return a if not a.elem.is_dyn else b
            if (
                a.kind in _CONCRETE
                and b.kind in _CONCRETE
                and a.kind != b.kind
                and not ({a.kind, b.kind} <= {"timestamp", "duration"})
            ):
                self._no_overload(node, fn, None, args)
            return a if not a.is_dyn else self.checker_type(node)
        if fn == "dyn":
            return t.DYN
        if target is not None:
            member = self._member(node, fn, target, args)
            if member is not None:
                return member
        if fn in ("duration", "timestamp", "matches") and node.args:
            self._constant_argument(node, fn)
        if fn == "optional.of" or fn == "optional.ofNonZeroValue":
            return t.optional_of(args[0] if args else t.DYN)
        return self.checker_type(node)

    def _member(
        self, node: celast.Call, fn: str, target: t.CelType, args: list[t.CelType]
    ) -> t.CelType | None:
        if fn in _STRING_ONLY_MEMBERS and target.kind in (_CONCRETE | {"list", "map", "object", "opaque"}) - {
            "string"
        }:
            self._no_overload(node, fn, target, args)
            return t.DYN
        if fn in ("indexOf", "lastIndexOf") and not target.is_dyn and target.kind not in ("string", "list"):
            self._no_overload(node, fn, target, args)
            return t.INT
        allowed = _OPAQUE_MEMBERS.get(fn)
        if allowed is not None and not target.is_dyn:
            if not isinstance(target, t.OpaqueType) or target.name not in allowed:
                self._no_overload(node, fn, target, args)
                return t.DYN
            if (
                fn in ("isGreaterThan", "isLessThan", "compareTo")
                and args
                and isinstance(args[0], t.OpaqueType)
                and args[0].name != target.name
            ):
                self._no_overload(node, fn, target, args)
                return t.DYN
        if fn == "matches" and node.args:
            self._constant_argument(node, fn)
        if isinstance(target, t.OptionalType):
            if fn in ("value", "orValue"):
                return target.inner
            if fn == "or":
                return target
            if fn == "hasValue":
                return t.BOOL
        if isinstance(target, t.ListType):
            if fn in ("first", "last"):
                return t.optional_of(target.elem)
            if fn in ("sort", "distinct", "reverse", "slice"):
                return target
            if fn in ("min", "max", "sum"):
                return target.elem if not target.elem.is_dyn else self.checker_type(node)
        return None

    def _incomparable(self, a: t.CelType, b: t.CelType) -> bool:
        if a.is_dyn or b.is_dyn or a.kind == "null" or b.kind == "null":
            return False
        if a.kind in _CONCRETE and b.kind in _CONCRETE:
            return a.kind != b.kind
        scalar_vs_composite = (a.kind in _CONCRETE) != (b.kind in _CONCRETE)
        return scalar_vs_composite and "opaque" not in (a.kind, b.kind)

    def _no_overload(
        self, node: celast.Call, fn: str, target: t.CelType | None, args: list[t.CelType]
    ) -> None:
        rendered = ", ".join(a.render() for a in args)
        shown = f"{target.render()}.({rendered})" if target is not None else f"({rendered})"
        self.report(node, f"found no matching overload for '{fn}' applied to '{shown}'")

    def _constant_argument(self, node: celast.Call, fn: str) -> None:
        arg = node.args[0]
        if not isinstance(arg, celast.Const) or arg.kind != "string":
            return
        text = str(arg.value)
        bad = False
        if fn == "duration":
            bad = _GO_DURATION.match(text) is None
        elif fn == "timestamp":
            try:
                datetime.datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
                bad = "T" not in text.upper()
            except ValueError:
                bad = True
        elif fn == "matches":
            try:
                re.compile(text)
            except re.error as exc:
                bad = any(
                    word in str(exc)
                    for word in (
                        "missing",
                        "unterminated",
                        "unbalanced",
                        "nothing to repeat",
                        "multiple repeat",
                    )
                )
        if bad:
            self.problems.append(
                CheckerMessage(f"invalid {fn} argument", self.checked.positions.get(arg.id), "type")
            )

    # -- literals and comprehensions -------------------------------------------------------------------------

    def _list(self, node: celast.ListLit, scope: dict[str, t.CelType], depth: int) -> t.CelType:
        elem: t.CelType = t.DYN
        for index, element in enumerate(node.elements):
            element_t = self.infer(element, scope, depth)
            if index in node.optional_indices and isinstance(element_t, t.OptionalType):
                element_t = element_t.inner
            if elem.is_dyn:
                elem = element_t
            elif element_t.kind in _CONCRETE and elem.kind in _CONCRETE and element_t.kind != elem.kind:
                self.report(element, f"expected type '{elem.render()}' but found '{element_t.render()}'")
        return t.list_of(elem)

    def _comprehension(
        self, node: celast.Comprehension, scope: dict[str, t.CelType], depth: int
    ) -> t.CelType:
        rng = self.infer(node.iter_range, scope, depth)
        first: t.CelType = t.DYN
        second: t.CelType = t.DYN
        if isinstance(rng, t.ListType):
            first, second = (t.INT, rng.elem) if node.iter_var2 else (rng.elem, t.DYN)
        elif isinstance(rng, t.MapType):
            first, second = rng.key, rng.value
        elif not rng.is_dyn:
            self.report(
                node.iter_range,
                f"expression of type '{rng.render()}' cannot be range of a comprehension "
                "(must be list, map, or dynamic)",
            )
        accu = self.infer(node.accu_init, scope, depth)
        inner = dict(scope)
        inner[node.iter_var] = first
        if node.iter_var2:
            inner[node.iter_var2] = second
        inner[node.accu_var] = accu
        self.infer(node.loop_condition, inner, depth)
        step = self.infer(node.loop_step, inner, depth)
        if isinstance(accu, t.ListType) and accu.elem.is_dyn and isinstance(step, t.ListType):
            accu = step
        outer = dict(scope)
        outer[node.accu_var] = accu
        return self.infer(node.result, outer, depth)


def describe(problem: CheckerMessage, text: str) -> str:
    """``ERROR: <input>:L:C: message`` plus the source line and caret, as cel-go prints it."""
    if problem.offset is None:
        return f"ERROR: <input>: {problem.message}"
    before = text[: problem.offset]
    line = before.count("\n") + 1
    col = problem.offset - (before.rfind("\n") + 1) + 1
    source_line = text.split("\n")[line - 1]
    return f"ERROR: <input>:{line}:{col}: {problem.message}\n | {source_line}\n | {'.' * (col - 1)}^"
