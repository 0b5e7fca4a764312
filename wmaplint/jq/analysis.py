"""Static checks of one jq expression in its definition role.

``analyze(text, role)`` returns findings with offsets into ``text``; it never raises for bad input.
The checks:
compile-level resolution (functions, variables, labels, formats), the upstream deny-list, host-dependent
builtins, cardinality against the role (the zip rule), assignability of written paths, selector precedence
and the byExpression expected result.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from wmaplint.definition.model import FRAGMENT_FIELDS
from wmaplint.jq import ast as A
from wmaplint.jq import builtins as B
from wmaplint.jq import rules as R
from wmaplint.jq.findings import JqFinding
from wmaplint.jq.parser import line_col, trailing_comment, try_parse
from wmaplint.jq.roles import ExprRole
from wmaplint.structs import dataclass

__all__ = ["JqFinding", "analyze", "infer_result_kind", "output_leaks"]


def analyze(text: str, role: ExprRole) -> list[JqFinding]:
    """All findings for ``text`` used as ``role``, sorted by position."""
    return list(_analyze_cached(text, role))


@lru_cache(maxsize=16384)
def _analyze_cached(text: str, role: ExprRole) -> tuple[JqFinding, ...]:
    parsed = try_parse(text)
    if not isinstance(parsed, A.Node):
        line, col = line_col(text, parsed.start)
        return (
            JqFinding(R.SYNTAX_ERROR.id, f"{parsed.message} (at {line}:{col})", parsed.start, parsed.end),
        )
    try:
        findings = _Analysis(text, parsed, role).run()
    except RecursionError:  # the parser bounds tree depth; keep the promise of never raising anyway
        findings = []
    findings.sort(key=lambda f: (f.start, f.end, f.rule))
    return tuple(findings)


# --- helpers -----------------------------------------------------------------------------------------------


def _edit_distance(a: str, b: str, limit: int = 3) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def _suggest(name: str, candidates: list[str], limit: int = 3) -> list[str]:
    budget = 1 if len(name) <= 3 else 2 if len(name) <= 6 else 3
    scored = sorted((_edit_distance(name, c, budget), c) for c in candidates if c != name)
    return [c for d, c in scored if d <= budget][:limit]


_USER = "user"  # marker in function scopes

# Argument positions whose outputs are collected (do not reach the caller's output stream one by one).
_COLLECTING_ARGS: dict[str, tuple[int, ...]] = {
    "map": (0,), "map_values": (0,), "add": (0,), "any": (0, 1), "all": (0, 1), "isempty": (0,),
    "first": (0,), "last": (0,), "nth": (1,), "IN": (0, 1), "INDEX": (0, 1), "JOIN": (0, 1, 2, 3),
    "with_entries": (0,), "sort_by": (0,), "group_by": (0,), "unique_by": (0,), "min_by": (0,),
    "max_by": (0,),
    "walk": (0,), "del": (0,), "pick": (0,), "paths": (0,), "path": (), "to_entries": (), "reduce": (),
    "isvalid": (0,), "tostream": (), "fromstream": (0,), "truncate_stream": (0,), "limit": (0,), "skip": (0,),
    "until": (0, 1), "while": (0,), "recurse": (1,), "error": (0,), "getpath": (), "splits": (),
}  # fmt: skip
# Builtins that keep at most one output or drop some: they change a per-instance count.
_COUNT_CHANGERS = {
    "select": "drops the elements its condition rejects",
    "empty": "yields nothing",
    "first": "keeps only the first output",
    "last": "keeps only the last output",
    "nth": "keeps only one output",
    "limit": "keeps only the first n outputs",
    "skip": "drops the first n outputs",
    "arrays": "drops values that are not arrays",
    "objects": "drops values that are not objects",
    "iterables": "drops scalars",
    "booleans": "drops values that are not booleans",
    "numbers": "drops values that are not numbers",
    "strings": "drops values that are not strings",
    "nulls": "drops values that are not null",
    "values": "drops null values",
    "scalars": "drops arrays and objects",
    "finites": "drops values that are not finite numbers",
    "normals": "drops values that are not normal numbers",
}


@dataclass
class _Def:
    node: A.FuncDef


class _Analysis:
    def __init__(self, text: str, root: A.Node, role: ExprRole) -> None:
        self.text = text
        self.root = root
        self.role = role
        self.findings: list[JqFinding] = []
        self.all_defs: dict[tuple[str, int], A.FuncDef] = {}
        for node in A.walk(root):
            if isinstance(node, A.FuncDef):
                self.all_defs.setdefault((node.name, node.arity), node)
        self.call_targets: dict[int, A.FuncDef | None] = {}  # id(FuncCall) -> user def (None = builtin)

    def add(self, rule: str, message: str, node_or_span: A.Node | tuple[int, int], **kw: Any) -> None:
        if isinstance(node_or_span, A.Node):
            start, end = node_or_span.start, node_or_span.end
        else:
            start, end = node_or_span
        self.findings.append(JqFinding(rule, message, start, end, **kw))

    def run(self) -> list[JqFinding]:
        last = self.root
        while isinstance(last, (A.FuncDef, A.Import)) and last.rest is not None:
            last = last.rest
        if isinstance(last, A.FuncDef):
            self.add(
                R.SYNTAX_ERROR.id,
                "the expression has only definitions and no query (gojq: missing query)",
                (0, len(self.text)),
            )
        self.check_scopes(self.root, {}, frozenset(), frozenset())
        self.check_denied_and_host()
        cardinality = self.role.cardinality
        if cardinality in ("per-instance", "instance-ids"):
            self.check_alternative_over_stream()
        if cardinality == "per-instance":
            if self.role.has_instances:
                self.check_count_changers()
            else:
                self.check_several_outputs(SEVERAL_ONE_INSTANCE)
        elif cardinality == "one":
            self.check_several_outputs(SEVERAL_ONE)
        elif cardinality == "first":
            self.check_first_output_only()
        if self.role.writable:
            self.check_assignable()
        if self.role.selector_value is not None or self.role.field == "expression" or self.role.writable:
            self.check_trailing_comment()
        if self.role.selector_value is not None:
            self.check_selector_precedence()
        if self.role.expected_result is not None:
            self.check_expected_result()
        return self.findings

    # --- compile-level resolution --------------------------------------------------------------------------

    def check_scopes(
        self,
        node: A.Node,
        funcs: dict[tuple[str, int], A.FuncDef | str],
        variables: frozenset[str],
        labels: frozenset[str],
    ) -> None:
        """Resolve calls, variables and labels like gojq's compiler (GOJQ.md §2.9)."""
        if isinstance(node, A.FuncDef):
            inner = dict(funcs)
            inner[(node.name, node.arity)] = node
            body_vars = set(variables)
            for param in node.params:
                if param.startswith("$"):
                    body_vars.add(param[1:])
                    inner[(param[1:], 0)] = _USER
                else:
                    inner[(param, 0)] = _USER
            self.check_scopes(node.body, inner, frozenset(body_vars), labels)
            if node.rest is not None:
                after = dict(funcs)
                after[(node.name, node.arity)] = node
                self.check_scopes(node.rest, after, variables, labels)
            return
        if isinstance(node, A.FuncCall):
            self.resolve_call(node, funcs)
            for arg in node.args:
                self.check_scopes(arg, funcs, variables, labels)
            return
        if isinstance(node, A.VarRef):
            if node.name not in variables and node.name not in B.PREDEFINED_VARIABLES:
                note = B.UNDEFINED_VARIABLE_NOTES.get(node.name)
                message = (
                    f"variable `${node.name}` is not defined here (gojq: variable not defined: ${node.name})"
                )
                if note:
                    message += f"; {note}"
                suggestions = [f"${s}" for s in _suggest(node.name, sorted(variables))]
                if suggestions:
                    message += f"; did you mean {', '.join(f'`{s}`' for s in suggestions)}?"
                self.add(
                    R.UNDEFINED_VARIABLE.id,
                    message,
                    node,
                    data={"suggestions": suggestions} if suggestions else None,
                )
            return
        if isinstance(node, A.Bind):
            self.check_scopes(node.source, funcs, variables, labels)
            bound = set(variables)
            for pattern in node.patterns:
                bound.update(_pattern_vars(pattern))
            for pattern in node.patterns:
                self.check_pattern_keys(pattern, funcs, frozenset(bound), labels)
            self.check_scopes(node.body, funcs, frozenset(bound), labels)
            return
        if isinstance(node, (A.Reduce, A.Foreach)):
            self.check_scopes(node.source, funcs, variables, labels)
            fold_vars = frozenset(set(variables) | _pattern_vars(node.pattern))
            self.check_pattern_keys(node.pattern, funcs, fold_vars, labels)
            self.check_scopes(node.init, funcs, variables, labels)
            self.check_scopes(node.update, funcs, fold_vars, labels)
            if isinstance(node, A.Foreach) and node.extract is not None:
                self.check_scopes(node.extract, funcs, fold_vars, labels)
            return
        if isinstance(node, A.Label):
            self.check_scopes(node.body, funcs, variables, labels | {node.name})
            return
        if isinstance(node, A.Break):
            if node.name not in labels:
                self.add(
                    R.UNDEFINED_LABEL.id,
                    f"`break ${node.name}` has no enclosing `label ${node.name}` (gojq: label not defined: "
                    f"${node.name})",
                    node,
                )
            return
        if isinstance(node, A.Format):
            self.check_format(node.name, node)
            return
        if isinstance(node, A.StringInterp) and node.format is not None:
            self.check_format(node.format, (node.start, node.start + 1 + len(node.format)))
        if isinstance(node, A.Import):
            if node.directive != "module":  # gojq compiles a query's module metadata away
                self.add(
                    R.MODULE_DIRECTIVE.id,
                    f"`{node.directive}` cannot be used: the runtime has no module loader (gojq: cannot "
                    f'load module: "{node.path}")',
                    (node.start, node.start + len(node.directive)),
                )
            if node.rest is not None:
                self.check_scopes(node.rest, funcs, variables, labels)
            return
        for child in A.children(node):
            self.check_scopes(child, funcs, variables, labels)

    def check_pattern_keys(
        self, pattern: A.Node, funcs: dict, variables: frozenset[str], labels: frozenset[str]
    ) -> None:
        for node in A.walk(pattern):
            if isinstance(node, A.ObjectPatternEntry) and node.key is not None:
                self.check_scopes(node.key, funcs, variables, labels)

    def resolve_call(self, node: A.FuncCall, funcs: dict[tuple[str, int], A.FuncDef | str]) -> None:
        key = (node.name, node.arity)
        user = funcs.get(key)
        if user is not None:
            self.call_targets[id(node)] = user if isinstance(user, A.FuncDef) else None
            return
        self.call_targets[id(node)] = None
        info = B.lookup_any(node.name, node.arity)
        if info is not None:
            return  # CLI-only builtins are reported as host-dependent
        name_span = (node.start, node.name_end)
        signature = f"{node.name}/{node.arity}"
        base = f"function `{signature}` is not defined (gojq: function not defined: {signature})"
        note = B.C_JQ_ONLY.get(key) or (B.NOWHERE.get(node.name) if not B.arities(node.name) else None)
        suggestions: list[str] = []
        elsewhere = self.all_defs.get(key)
        if elsewhere is not None:
            line, col = line_col(self.text, elsewhere.start)
            message = (
                f"function `{node.name}/{node.arity}` is defined at {line}:{col} but is not visible here "
                f"(a definition is visible only after it and inside the query it opens)"
            )
        elif B.arities(node.name) or any(n == node.name for (n, _a) in funcs):
            known = sorted(set(B.arities(node.name)) | {a for (n, a) in funcs if n == node.name})
            message = f"{base}; `{node.name}` takes {' or '.join(str(a) for a in known)} argument(s)"
        else:
            message = base
            if note:
                message += f"; {note}"
            candidates = B.public_names() + sorted({n for (n, _a) in funcs})
            suggestions = _suggest(node.name, candidates)
            if suggestions:
                message += f"; did you mean {', '.join(f'`{s}`' for s in suggestions)}?"
        self.add(
            R.UNKNOWN_FUNCTION.id,
            message,
            name_span,
            data={"suggestions": suggestions} if suggestions else None,
        )

    def check_format(self, name: str, where: A.Node | tuple[int, int]) -> None:
        if name in B.FORMATS:
            return
        suggestions = [f"@{s}" for s in _suggest(name, sorted(B.FORMATS))]
        message = (
            f"format `@{name}` does not exist in gojq (it fails at run time: format not defined: @{name})"
        )
        if suggestions:
            message += f"; did you mean {', '.join(f'`{s}`' for s in suggestions)}?"
        self.add(
            R.UNKNOWN_FORMAT.id, message, where, data={"suggestions": suggestions} if suggestions else None
        )

    def user_def(self, node: A.FuncCall) -> A.FuncDef | None:
        return self.call_targets.get(id(node))

    # --- deny-list and host-dependent builtins -------------------------------------------------------------

    def check_denied_and_host(self) -> None:
        for node in A.walk(self.root):
            if isinstance(node, A.FuncCall):
                if node.name == "del":
                    self.add(
                        R.DENIED_CONSTRUCT.id,
                        "del function is not allowed (definitions only read the object)",
                        (node.start, node.name_end),
                    )
                elif node.name in ("range", "paths", "recurse", "walk", "repeat"):
                    self.add(
                        R.DENIED_CONSTRUCT.id,
                        f"function '{node.name}' may produce excessive output and is not allowed",
                        (node.start, node.name_end),
                    )
                elif self.user_def(node) is None:
                    info = B.lookup_any(node.name, node.arity)
                    if info is not None and info.impure and (node.name, node.arity) not in self.all_defs:
                        self.add(
                            R.HOST_DEPENDENT.id, f"`{node.name}` {info.impure}", (node.start, node.name_end)
                        )
            elif isinstance(node, A.RecurseDefault):
                self.add(R.DENIED_CONSTRUCT.id, "recursive descent operator '..' is not allowed", node)
            elif isinstance(node, A.Assign):
                self.add(
                    R.DENIED_CONSTRUCT.id,
                    f"modifying operator '{node.op}' is not allowed (definitions only read the object)",
                    (node.op_start, node.op_start + len(node.op)),
                )
            elif isinstance(node, A.VarRef) and node.name == "ENV" and not self._env_bound(node):
                self.add(
                    R.HOST_DEPENDENT.id,
                    "`$ENV` is the empty object `{}` when gojq is embedded (no environment)",
                    node,
                )

    def _env_bound(self, ref: A.VarRef) -> bool:
        for node in A.walk(self.root):
            if isinstance(node, (A.Bind, A.Reduce, A.Foreach)):
                patterns = node.patterns if isinstance(node, A.Bind) else (node.pattern,)
                if any("ENV" in _pattern_vars(p) for p in patterns):
                    return True
            if isinstance(node, A.FuncDef) and "$ENV" in node.params:
                return True
        return False

    # --- cardinality -----------------------------------------------------------------------------------

    def check_alternative_over_stream(self) -> None:
        for node in A.walk(self.root):
            if not (isinstance(node, A.Binary) and node.op == "//"):
                continue
            leaks = self.leaks(node.left)
            iterations = [n for n in leaks if isinstance(n, (A.Iterate, A.RecurseDefault, A.FuncCall))]
            if not iterations:
                continue
            replacement = self.alternative_fix(node)
            source = iterations[0]
            where = (
                self.text[source.start : source.end]
                if not isinstance(source, A.Iterate)
                else (self.text[source.start : source.end])
            )
            message = (
                f"`//` applies to the whole stream of `{_clip(where)}`: null or missing elements are dropped "
                "instead of defaulted, so the output count no longer matches the instances"
            )
            if replacement:
                message += f"; write `{_clip(replacement, 80)}`"
            self.add(
                R.ALTERNATIVE_OVER_STREAM.id,
                message,
                (node.op_start, node.op_start + 2),
                replacement=replacement,
            )

    def alternative_fix(self, node: A.Binary) -> str | None:
        """``P[].x // d`` → ``P[]? | (.x // d)`` when the left side is a chain with one iteration."""
        chain: list[A.Node] = []
        cur: A.Node | None = node.left
        while isinstance(cur, (A.Field, A.Index, A.Slice, A.Iterate)):
            chain.append(cur)
            cur = cur.target
        if cur is not None and not isinstance(cur, A.Identity):
            return None
        iterates = [n for n in chain if isinstance(n, A.Iterate)]
        if len(iterates) != 1:
            return None
        it = iterates[0]
        for n in chain:
            bounds = (
                [n.index]
                if isinstance(n, A.Index)
                else [b for b in (n.lower, n.upper) if b is not None]
                if (isinstance(n, A.Slice))
                else []
            )
            if any(self.leaks(b) for b in bounds):
                return None
        prefix = self.text[node.left.start : it.end].rstrip()
        if not prefix.endswith("?"):
            prefix += "?"
        rest = self.text[it.end : node.left.end].strip()
        if not rest:
            return None
        if rest.startswith("?"):
            return None
        if not rest.startswith("."):
            rest = "." + rest
        right = self.text[node.right.start : node.right.end]
        if isinstance(node.right, (A.Pipe, A.Comma, A.Bind, A.Label, A.FuncDef)):
            right = f"({right})"
        fixed = f"{prefix} | ({rest} // {right})"
        if node is self.root:
            return fixed
        return self.text[: node.start] + f"({fixed})" + self.text[node.end :]

    def leaks(self, node: A.Node) -> list[A.Node]:
        """Nodes whose several outputs reach ``node``'s own output stream (iterations, `,`, generators)."""
        return output_leaks(node, self.user_def)

    def droppers(self, node: A.Node) -> list[tuple[A.Node, str]]:
        """Count-changing constructs (select, empty, first, limit, ...) reaching ``node``'s output stream."""
        out: list[tuple[A.Node, str]] = []
        stack: list[A.Node] = [node]
        while stack:
            cur = stack.pop()
            if isinstance(cur, A.FuncCall):
                if cur.name in _COUNT_CHANGERS and self.user_def(cur) is None:
                    out.append((cur, _COUNT_CHANGERS[cur.name]))
                    continue
                continue
            if isinstance(cur, A.Label) and _label_emitters(cur, self.user_def) is not None:
                out.append((cur, "stops at the first output (`break`)"))
                continue
            if isinstance(cur, A.Comma):
                out.append((cur, "yields the outputs of both sides"))
                continue
            if isinstance(cur, A.If):
                branches = [cur.then, *(t for _c, t in cur.elifs)]
                if cur.else_ is not None:
                    branches.append(cur.else_)
                stack.extend(branches)
                continue
            if isinstance(cur, (A.ArrayCons, A.ObjectCons, A.Reduce, A.Literal, A.StringInterp, A.VarRef)):
                continue
            if isinstance(cur, A.Binary) and cur.op != "//":
                continue
            if isinstance(cur, A.Try):
                stack.append(cur.body)
                continue
            stack.extend(_stream_children(cur))
        return out

    def check_count_changers(self) -> None:
        for node, why in self.droppers(self.root):
            span: A.Node | tuple[int, int] = node
            what = "`,`"
            if isinstance(node, A.FuncCall):
                span, what = (node.start, node.name_end), f"`{node.name}`"
            elif isinstance(node, A.Label):
                span, what = (node.start, node.start + len("label")), f"`label ${node.name}`"
            elif isinstance(node, A.Comma):
                span = (node.left.end, node.right.start)
            outcome = (
                "later instances then shift onto the wrong values, since fragments are merged by index"
                if self.role.field in FRAGMENT_FIELDS
                else "the runtime then rejects the component (`instance ids count does not match results "
                "count`)"
            )
            self.add(
                R.COUNT_CHANGING_FILTER.id,
                f"{what} {why}, so this per-instance path can yield a different number of outputs than "
                f"there are instances; {outcome}",
                span,
            )

    def check_several_outputs(self, kind: str) -> None:
        leaks = self.leaks(self.root)
        if not leaks:
            return
        first = leaks[0]
        desc = _leak_description(first, self.text)
        if kind == SEVERAL_ONE_INSTANCE:
            message = (
                f"{desc} can yield several outputs, but this component has no instanceIdPath, so exactly one "
                f"is expected (the runtime reports `instance ids count (1) does not match results count`)"
            )
        else:
            message = (
                f"{desc} can yield several outputs, but `{self.role.field}` must yield exactly one value"
            )
        self.add(R.SEVERAL_OUTPUTS.id, message, _leak_span(first))

    def check_first_output_only(self) -> None:
        leaks = self.leaks(self.root)
        if not leaks:
            return
        first = leaks[0]
        self.add(
            R.FIRST_OUTPUT_ONLY.id,
            f"{_leak_description(first, self.text)} can yield several outputs; `{self.role.field}` "
            f"uses only the "
            f"first and ignores the rest (combine them with `any(...)`, `all(...)` or `first(...)`)",
            _leak_span(first),
        )

    # --- assignability -------------------------------------------------------------------------------------

    def check_assignable(self) -> None:
        problem = self.non_path(self.root, 0)
        if problem is None:
            return
        node, reason = problem
        self.add(
            R.NOT_ASSIGNABLE.id,
            f"not a path expression: {reason}; writes through `{self.role.field}` fail (gojq: invalid path "
            f"against ..., jq: Invalid path expression)",
            node,
        )

    def non_path(self, node: A.Node, depth: int) -> tuple[A.Node, str] | None:
        """The first part of ``node`` that makes it invalid inside ``path(...)`` (GOJQ.md §3.7)."""
        if depth > 40:
            return None
        if isinstance(node, (A.Identity, A.RecurseDefault, A.Break)):
            return None
        if isinstance(node, (A.Field, A.Index, A.Slice, A.Iterate)):
            target = node.target
            if target is None:
                return None
            if isinstance(target, A.VarRef):
                return target, f"it starts from the variable `${target.name}`, not from `.`"
            return self.non_path(target, depth + 1)
        if isinstance(node, (A.Optional,)):
            return self.non_path(node.term, depth + 1)
        if isinstance(node, A.Try):
            return self.non_path(node.body, depth + 1)
        if isinstance(node, (A.Pipe, A.Comma)):
            return self.non_path(node.left, depth + 1) or self.non_path(node.right, depth + 1)
        if isinstance(node, A.Binary):
            if node.op == "//":
                return self.non_path(node.left, depth + 1) or self.non_path(node.right, depth + 1)
            kind = (
                "a comparison"
                if node.op in ("==", "!=", "<", "<=", ">", ">=")
                else (f"`{node.op}`" if node.op in ("and", "or") else "arithmetic")
            )
            return node, f"{kind} makes a new value"
        if isinstance(node, A.If):
            for branch in (node.then, *(t for _c, t in node.elifs), node.else_):
                if branch is not None:
                    found = self.non_path(branch, depth + 1)
                    if found:
                        return found
            return None
        if isinstance(node, (A.Bind,)):
            return self.non_path(node.body, depth + 1)
        if isinstance(node, A.Label):
            return self.non_path(node.body, depth + 1)
        if isinstance(node, A.FuncDef):
            return self.non_path(node.rest, depth + 1) if node.rest is not None else None
        if isinstance(node, A.Import):
            return self.non_path(node.rest, depth + 1) if node.rest is not None else None
        if isinstance(node, A.VarRef):
            return node, f"the variable `${node.name}` is a value, not a location in `.`"
        if isinstance(node, A.Literal):
            return node, "a literal is a constant, not a location in `.`"
        if isinstance(node, (A.StringInterp, A.Format)):
            return node, "a string or format makes a new value"
        if isinstance(node, A.ArrayCons):
            return node, "`[...]` constructs a new array"
        if isinstance(node, A.ObjectCons):
            return node, "`{...}` constructs a new object"
        if isinstance(node, A.Neg):
            return node, "unary minus makes a new value"
        if isinstance(node, (A.Reduce, A.Foreach)):
            return node, f"`{'reduce' if isinstance(node, A.Reduce) else 'foreach'}` makes a new value"
        if isinstance(node, A.Assign):
            return node, "an assignment makes a new value"
        if isinstance(node, A.FuncCall):
            user = self.user_def(node)
            if user is not None:
                found = self.non_path(user.body, depth + 1)
                return (node, f"`{node.name}` is defined with a body that is not a path") if found else None
            if (node.name, node.arity) in self.all_defs or B.lookup_any(node.name, node.arity) is None:
                return None  # a parameter or an unknown name, reported elsewhere
            info = B.lookup_any(node.name, node.arity)
            assert info is not None
            if not info.path:
                return node, f"`{node.name}` makes a new value"
            for index in _PATH_ARGS.get(node.name, ()):
                if index < len(node.args):
                    found = self.non_path(node.args[index], depth + 1)
                    if found:
                        return found
            return None
        return None

    # --- selector precedence -------------------------------------------------------------------------------

    def check_trailing_comment(self) -> None:
        """The runtime puts text after a byExpression (`(<e>) | tostring`), a keyPath compared with a value
        (`<k> == <v>`, FORMAT.md §2.5 and §2.7) and a path it writes through (`(<p>) = $val`, `[path(<p>)] as
        $paths | ...`, upstream runner.go): a comment that runs to the end swallows it."""
        start = trailing_comment(self.text, self.root.end)
        if start is None:
            return
        if self.role.writable:
            consequence = (
                "the `) = $val` the runtime appends to write through it (`(<path>) = $val`, or "
                "`[path(<path>)] as $paths | ...` for several instances): the write does not parse, so "
                "updating the workload through this path fails (reading it still works)"
            )
        elif self.role.selector_value is not None:
            encoded = _clip(json.dumps(self.role.selector_value, ensure_ascii=False), 30)
            consequence = (
                f"the ` == {encoded}` the runtime appends: the query yields the keyPath's own values, never "
                "`true`, so no pod matches"
            )
        else:
            consequence = (
                "the `) | tostring` the runtime wraps it in: `(<expression>) | tostring` does not parse, so "
                "the status of every workload fails to evaluate"
            )
        self.add(
            R.TRAILING_COMMENT.id,
            f"the expression ends in a comment, which swallows {consequence}; end the comment with a line "
            "break",
            (start, len(self.text.rstrip())),
            replacement=self.text.rstrip(" \t") + " \n",
        )

    def check_selector_precedence(self) -> None:
        value = self.role.selector_value
        assert value is not None
        found = _appended_comparison_problem(self.text, json.dumps(value, ensure_ascii=False))
        if found is None:
            return
        message, fixable = found
        stripped = self.text.strip()
        wrapped = f"({stripped}{_closing(stripped)}" if fixable else None
        if wrapped is not None:
            message += f": `{_clip(wrapped, 80)}`"
        self.add(R.SELECTOR_PRECEDENCE.id, message, (0, len(self.text)), replacement=wrapped)

    # --- expected result -------------------------------------------------------------------------------

    def check_expected_result(self) -> None:
        expected = self.role.expected_result
        assert expected is not None
        kind = infer_result_kind(self.root, self.user_def)
        problem, suggestion = _expected_mismatch(kind, expected)
        if problem is None:
            return
        message = f"expectedResult {json.dumps(expected)} can never match: {problem}"
        if suggestion is not None:
            message += f"; did you mean {json.dumps(suggestion)}?"
        self.add(
            R.EXPECTED_RESULT_MISMATCH.id,
            message,
            (0, len(self.text)),
            data={"suggestions": [suggestion]} if suggestion is not None else {"kind": kind},
        )


SEVERAL_ONE = "one"
SEVERAL_ONE_INSTANCE = "one-instance"

_PATH_ARGS: dict[str, tuple[int, ...]] = {
    "first": (0,), "limit": (1,), "skip": (1,), "nth": (1,), "recurse": (0,), "while": (1,), "until": (1,),
    "repeat": (0,),
}  # fmt: skip


def _clip(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pattern_vars(pattern: A.Node) -> set[str]:
    names: set[str] = set()
    for node in A.walk(pattern):
        if isinstance(node, A.VarPattern):
            names.add(node.name)
        elif isinstance(node, A.ObjectPatternEntry) and node.var is not None:
            names.add(node.var)
    return names


def _appended_comparison_problem(text: str, encoded: str) -> tuple[str, bool] | None:
    """Why the runtime's text ``<keyPath> == <value as JSON>`` (FORMAT.md §2.7) does not compare the keyPath's
    outputs, parsed as gojq parses it, and whether wrapping the keyPath in parentheses fixes it; None when it
    does compare them (a top-level pipe, `as`, `def` or `label` compares its last part, whose outputs are the
    keyPath's)."""
    compared = f"`<keyPath> == {_clip(encoded, 30)}`"
    parsed = try_parse(f"{text} == {encoded}")
    if not isinstance(parsed, A.Node):
        return (
            f"the runtime's query {compared} does not parse ({parsed.message}): a keyPath that is itself a "
            "comparison yields a boolean; keep the path in keyPath and the compared value in value"
        ), False
    last = _spine_end(parsed)
    appended = len(text) + len(" == ")
    if isinstance(last, A.Binary) and last.op == "==" and last.right.start == appended:
        return None
    if not any(isinstance(n, A.Literal) and n.start == appended for n in A.walk(parsed)):
        return None  # a trailing comment swallowed the comparison: reported by check_trailing_comment
    message = (
        f"the runtime compares {compared}, and the top-level {_loose_operator(last)} of this keyPath binds "
        "looser than `==`, so only its last part is compared"
    )
    if isinstance(last, A.Binary) and last.op in ("and", "or"):  # wrapped, a boolean never equals a string
        return f"{message}; keep only the path in keyPath", False
    return f"{message}; wrap it", True


def _spine_end(node: A.Node) -> A.Node:
    """The part of a query that yields the query's outputs and that text appended to the query extends: the
    right side of a pipe, the body of an `as` binding or a `label`, the query after a `def` or directive."""
    while True:
        if isinstance(node, A.Pipe):
            node = node.right
        elif isinstance(node, (A.Bind, A.Label)):
            node = node.body
        elif isinstance(node, (A.FuncDef, A.Import)) and node.rest is not None:
            node = node.rest
        else:
            return node


def _loose_operator(node: A.Node) -> str:
    """How to name an operator that binds looser than `==` (GOJQ.md §2.2)."""
    if isinstance(node, A.Comma):
        return "`,`"
    if isinstance(node, (A.Binary, A.Assign)):
        return f"`{node.op}`"
    return "operator"


def _closing(text: str) -> str:
    """The `)` that closes a wrapped expression: on its own line when a comment could swallow it, after a
    space when the text ends in a backslash (which would continue the comment onto that line)."""
    if "#" not in text:
        return ")"
    return " \n)" if text.endswith("\\") else "\n)"


def _leak_span(node: A.Node) -> tuple[int, int]:
    if isinstance(node, A.Iterate):
        return node.seg_start, node.end
    if isinstance(node, A.FuncCall):
        return node.start, node.name_end
    if isinstance(node, A.Comma):
        return node.left.end, node.right.start
    return node.start, node.end


def _leak_description(node: A.Node, text: str) -> str:
    if isinstance(node, A.Iterate):
        return f"the iteration `{_clip(text[node.start : node.end])}`"
    if isinstance(node, A.Comma):
        return "`,`"
    if isinstance(node, A.FuncCall):
        return f"`{node.name}`"
    return f"`{_clip(text[node.start : node.end])}`"


def _stream_children(node: A.Node) -> list[A.Node]:
    """Children whose outputs flow into ``node``'s outputs (for multiplicity; collectors excluded)."""
    if isinstance(node, (A.ArrayCons, A.Literal, A.VarRef, A.Format, A.Break, A.Identity, A.RecurseDefault)):
        return []
    if isinstance(node, A.Reduce):
        return [node.init]
    if isinstance(node, A.Foreach):
        out = [node.source, node.init]
        return out
    if isinstance(node, A.FuncDef):
        return [node.rest] if node.rest is not None else []
    if isinstance(node, A.Import):
        return [node.rest] if node.rest is not None else []
    if isinstance(node, A.Try):
        return [node.body] + ([node.catch] if node.catch is not None else [])
    if isinstance(node, (A.Field, A.Index, A.Slice, A.Iterate)):
        out2: list[A.Node] = []
        if node.target is not None:
            out2.append(node.target)
        if isinstance(node, A.Index):
            out2.append(node.index)
        if isinstance(node, A.Slice):
            out2.extend(x for x in (node.lower, node.upper) if x is not None)
        return out2
    if isinstance(node, A.Bind):
        return [node.source, node.body]
    if isinstance(node, A.FuncCall):
        collected = _COLLECTING_ARGS.get(node.name, None)
        if collected is None:
            return list(node.args)
        return [a for i, a in enumerate(node.args) if i not in collected]
    return list(A.children(node))


_GENERATOR_BUILTINS = frozenset(
    {
        "range",
        "recurse",
        "repeat",
        "paths",
        "splits",
        "scan",
        "combinations",
        "tostream",
        "inputs",
        "while",
        "match",
        "capture",
        "limit",
        "skip",
        "getpath_stream",
        "JOIN",
        "fromstream",
        "truncate_stream",
    }
)


def output_leaks(node: A.Node, user_def: Any = None) -> list[A.Node]:
    """Nodes that can make ``node`` yield several outputs for one input (iterations, ``,``, generators),
    ignoring those inside collecting constructs (``[...]``, ``reduce``, ``any(...)``, ``length`` ...)."""
    out: list[A.Node] = []
    stack: list[A.Node] = [node]
    seen_defs: set[int] = set()
    while stack:
        cur = stack.pop()
        if isinstance(cur, A.Label):
            emitters = _label_emitters(cur, user_def)
            if emitters is not None:  # `label $l | ... | ., break $l`: the outputs before the break only
                stack.extend(reversed(emitters))
                continue
        if isinstance(cur, (A.Iterate, A.RecurseDefault, A.Comma)):
            out.append(cur)
            if isinstance(cur, A.Comma):
                continue
        if isinstance(cur, A.FuncCall):
            target = user_def(cur) if user_def is not None else None
            if target is not None:
                if id(target) not in seen_defs:
                    seen_defs.add(id(target))
                    stack.append(target.body)
                continue
            if cur.name == "limit" and _is_literal_one(cur):
                continue  # `limit(1; f)`: at most one output, whatever f yields
            if cur.name in _GENERATOR_BUILTINS and (cur.name not in ("limit", "skip", "while") or cur.args):
                out.append(cur)
                continue
        stack.extend(reversed(_stream_children(cur)))
    out.sort(key=lambda n: n.start)
    return out


def _label_emitters(label: A.Label, user_def: Any = None) -> list[A.Node] | None:
    """What ``label $l | body`` yields when its body breaks out right after each output (``first(f)`` is
    ``label $l | f | ., break $l``): the parts whose outputs come before the break, or None when the body
    can go on after an output. Each part yields its outputs for one input, then the label ends."""

    def nothing(node: A.Node) -> bool:  # yields no output: `empty`, `error`, any `break`
        if isinstance(node, A.Break):
            return True
        target = user_def(node) if user_def is not None and isinstance(node, A.FuncCall) else None
        return isinstance(node, A.FuncCall) and target is None and node.name in ("empty", "error")

    def emitters(node: A.Node) -> list[A.Node] | None:
        if isinstance(node, A.Comma) and isinstance(node.right, A.Break) and node.right.name == label.name:
            return [node.left]
        if isinstance(node, A.Pipe):
            return emitters(node.right)  # the first output of the right side ends the label
        if isinstance(node, (A.Bind, A.Label)):
            return emitters(node.body)
        if isinstance(node, A.FuncDef) and node.rest is not None:
            return emitters(node.rest)
        if isinstance(node, A.If) and node.else_ is not None:
            found: list[A.Node] = []
            for branch in (node.then, *(t for _c, t in node.elifs), node.else_):
                if nothing(branch):
                    continue
                inner = emitters(branch)
                if inner is None:
                    return None
                found.extend(inner)
            return found
        return None

    return emitters(label.body)


def _is_literal_one(call: A.FuncCall) -> bool:
    return bool(call.args) and isinstance(call.args[0], A.Literal) and call.args[0].value in (0, 1)


# --- result kinds ------------------------------------------------------------------------------------------

_KIND_NEVER = "never"
_BOOL_BUILTIN_RESULT = {"boolean", "number", "string", "array", "object"}


def _join(a: str, b: str) -> str:
    if a == _KIND_NEVER:
        return b
    if b == _KIND_NEVER:
        return a
    return a if a == b else "any"


def infer_result_kind(node: A.Node, user_def: Any = None, _depth: int = 0) -> str:
    """Kind of value ``node`` yields, from the expression alone: ``boolean``, ``number``, ``string``,
    ``null``, ``array``, ``object``, ``any`` (unknown or mixed), or ``never`` (no output)."""
    if _depth > 60:
        return "any"
    if user_def is None:
        defs = {(n.name, n.arity): n for n in A.walk(node) if isinstance(n, A.FuncDef)}
        user_def = (lambda call: defs.get((call.name, call.arity))) if defs else (lambda call: None)
    d = _depth + 1
    if isinstance(node, A.Literal):
        v = node.value
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "boolean"
        if isinstance(v, (int, float)):
            return "number"
        return "string"
    if isinstance(node, (A.StringInterp, A.Format)):
        return "string"
    if isinstance(node, A.ArrayCons):
        return "array"
    if isinstance(node, A.ObjectCons):
        return "object"
    if isinstance(node, A.Neg):
        return "number"
    if isinstance(node, A.Binary):
        if node.op in ("==", "!=", "<", "<=", ">", ">=", "and", "or"):
            return "boolean"
        left = infer_result_kind(node.left, user_def, d)
        right = infer_result_kind(node.right, user_def, d)
        if node.op == "//":
            # `a // b` yields a only when it is truthy: a boolean left side can only give `true`
            return _join(left, right)
        if left == "number" and right == "number":
            return "number"
        if node.op in ("+", "-") and "number" in (left, right) and {left, right} <= {"number", "any", "null"}:
            return "number"  # anything else is a run-time error
        if node.op == "+" and "string" in (left, right) and {left, right} <= {"string", "null"}:
            return "string"
        if node.op in ("+", "-") and left == "array" and right == "array":
            return "array"
        return "any"
    if isinstance(node, A.Pipe):
        return infer_result_kind(node.right, user_def, d)
    if isinstance(node, A.Comma):
        return _join(infer_result_kind(node.left, user_def, d), infer_result_kind(node.right, user_def, d))
    if isinstance(node, A.If):
        kind = infer_result_kind(node.then, user_def, d)
        for _c, t in node.elifs:
            kind = _join(kind, infer_result_kind(t, user_def, d))
        return _join(kind, infer_result_kind(node.else_, user_def, d) if node.else_ is not None else "any")
    if isinstance(node, A.Try):
        body = infer_result_kind(node.body, user_def, d)
        return _join(body, infer_result_kind(node.catch, user_def, d)) if node.catch is not None else body
    if isinstance(node, A.Optional):
        return infer_result_kind(node.term, user_def, d)
    if isinstance(node, (A.Bind, A.Label)):
        return infer_result_kind(node.body, user_def, d)
    if isinstance(node, A.FuncDef):
        return infer_result_kind(node.rest, user_def, d) if node.rest is not None else "any"
    if isinstance(node, A.Reduce):
        return _join(infer_result_kind(node.init, user_def, d), infer_result_kind(node.update, user_def, d))
    if isinstance(node, A.Break):
        return _KIND_NEVER
    if isinstance(node, A.FuncCall):
        target = user_def(node) if user_def is not None else None
        if target is not None:
            return infer_result_kind(target.body, user_def, d)
        if node.name in ("empty", "error", "halt", "halt_error") and B.lookup(node.name, node.arity):
            return _KIND_NEVER
        info = B.lookup(node.name, node.arity)
        if info is not None and info.result in _BOOL_BUILTIN_RESULT:
            return info.result
        if info is not None and node.name in ("first", "last", "limit", "nth") and node.args:
            return infer_result_kind(node.args[-1], user_def, d)
        return "any"
    return "any"


_TRUE_WORDS = {"true", "yes", "y", "on", "1", "t"}
_FALSE_WORDS = {"false", "no", "n", "off", "0", "f"}
_CANONICAL_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?(e[+-][1-9][0-9]*)?")


def _expected_mismatch(kind: str, expected: str) -> tuple[str | None, str | None]:
    """Why ``expected`` can never be the text of a value of ``kind`` (and a suggestion), or
    ``(None, None)``."""
    if kind == "boolean":
        if expected in ("true", "false"):
            return None, None
        low = expected.strip().lower()
        suggestion = "true" if low in _TRUE_WORDS else "false" if low in _FALSE_WORDS else None
        return "the expression yields a boolean, which prints as `true` or `false`", suggestion
    if kind == "number":
        if _CANONICAL_NUMBER.fullmatch(expected):
            return None, None
        try:
            value = float(expected)
        except ValueError:
            return "the expression yields a number", None
        suggestion = _gojq_number_text(value)
        return "the expression yields a number, and gojq prints numbers in shortest form", suggestion
    if kind == "null":
        if expected == "null":
            return None, None
        return "the expression yields null, which prints as `null`", "null"
    if kind in ("array", "object"):
        try:
            value = json.loads(expected)
        except ValueError:
            return f"the expression yields an {kind}, which prints as compact JSON", None
        wanted = list if kind == "array" else dict
        if not isinstance(value, wanted):
            return f"the expression yields an {kind}, which prints as compact JSON", None
        canonical = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        if canonical != expected:
            return f"the expression yields an {kind}; gojq prints it compact with sorted keys", canonical
    return None, None


def _gojq_number_text(value: float) -> str | None:
    if value != value or value in (float("inf"), float("-inf")):
        return None
    if value == int(value) and abs(value) < 1e17:
        return str(int(value))
    text = repr(value)
    return text
