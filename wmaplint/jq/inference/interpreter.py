"""The type interpreter: its state, the parts it holds (navigation, operators, calls), the dispatch of each
node of a jq syntax tree to the part that types it, and ``infer``, its entry."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wmaplint.findings import ExpressionFinding
from wmaplint.jq import ast as jqast
from wmaplint.jq.inference import guards
from wmaplint.jq.inference.calls import Calls
from wmaplint.jq.inference.navigation import Navigation
from wmaplint.jq.inference.operators import Operators
from wmaplint.jq.inference.values import ANY_VAL, TypeResult, Val, is_never, scalar_val, solid
from wmaplint.jq.inference.walk import Recording
from wmaplint.schema.types import ANY, ARRAY, NUMBER, STRING, SchemaType, union

MAX_DEPTH = 300  # the parser bounds trees at 220 levels; this only guards against surprises


class Interpreter:
    """One walk of an expression. ``text``: the expression (for replacements); ``source``: the schema file,
    for "declared here" locations; ``object_meta``: Kubernetes' ObjectMeta, the `metadata` of embedded
    resources (unknown when None); ``recording``: what the editor's queries note on the way (None in the
    analysis). Each part is given the interpreter and calls the others through it. ``defaults``: the offsets
    of the `//` operators whose left side may yield null, false or nothing, so that their right side can be
    what they yield."""

    def __init__(self, text: str, source: str | None, object_meta: SchemaType | None = None,
                 recording: Recording | None = None) -> None:
        self.text = text
        self.source = source
        self.object_meta = object_meta
        self.recording = recording
        self.findings: list[ExpressionFinding] = []
        self.defaults: set[int] = set()
        self._seen: set[tuple[type, int, int]] = set()
        self.navigation = Navigation(self)
        self.operators = Operators(self, self.navigation)
        self.calls = Calls(self, self.navigation, self.operators)

    def record(self, finding: ExpressionFinding) -> None:
        key = (type(finding), finding.start, finding.end)
        if key in self._seen:  # functions and reduce bodies are visited more than once
            return
        self._seen.add(key)
        self.findings.append(finding)

    def eval(self, node: jqast.Node, inp: Val, env: dict[str, Any], depth: int = 0,
             quiet: bool = False) -> Val:
        """The type of what ``node`` yields for inputs of type ``inp``; ``quiet``: record nothing (under `?`
        and `try`, or where the analysis does not follow the input)."""
        out = self.dispatch(node, inp, env, depth, quiet)
        if self.recording is not None:
            self.recording.output(node, out)
        return out

    def dispatch(self, node: jqast.Node, inp: Val, env: dict[str, Any], depth: int, quiet: bool) -> Val:
        if depth > MAX_DEPTH:
            return ANY_VAL
        d = depth + 1
        if isinstance(node, jqast.Identity):
            return inp
        if isinstance(node, jqast.Field):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            return self.navigation.member(base, node.name, node, quiet or node.optional)
        if isinstance(node, jqast.Index):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            idx = self.eval(node.index, inp, env, d, quiet)
            return self.navigation.index(base, idx, node, quiet or node.optional)
        if isinstance(node, jqast.Slice):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            return Val(base.type, base.optional)
        if isinstance(node, jqast.Iterate):
            base = self.eval(node.target, inp, env, d, quiet) if node.target is not None else inp
            if not (quiet or node.optional):
                self.navigation.null_iteration(base, node, env)
            return self.navigation.iterate(base, node, quiet or node.optional)
        if isinstance(node, jqast.Optional):
            return self.eval(node.term, inp, env, d, True)
        if isinstance(node, jqast.Try):
            body = self.eval(node.body, inp, env, d, True)
            if node.catch is not None:
                caught = self.eval(node.catch, ANY_VAL, env, d, quiet)
                return Val(union(body.type, caught.type), body.optional)
            return body
        if isinstance(node, jqast.Pipe):
            left = self.eval(node.left, inp, env, d, quiet)
            if is_never(left):
                return left
            cond = guards.select_condition(node.left)
            if cond is not None:  # what follows `select(c) |` sees only inputs where c holds
                env = guards.proven(env, guards.tested_paths(cond), inp.path)
            return self.eval(node.right, left, env, d, quiet)
        if isinstance(node, jqast.Comma):
            left = self.eval(node.left, inp, env, d, quiet)
            right = self.eval(node.right, inp, env, d, quiet)
            return Val(union(left.type, right.type), left.optional or right.optional)
        if isinstance(node, jqast.Literal):
            return self.operators.literal(node.value)
        if isinstance(node, (jqast.StringInterp, jqast.Format)):
            if isinstance(node, jqast.StringInterp):
                for part in node.parts:
                    if isinstance(part, jqast.Node):
                        self.eval(part, inp, env, d, quiet)
            return scalar_val(STRING)
        if isinstance(node, jqast.Neg):
            self.eval(node.term, inp, env, d, quiet)
            return scalar_val(NUMBER)
        if isinstance(node, jqast.Binary):
            return self.operators.binary(node, inp, env, d, quiet)
        if isinstance(node, jqast.ArrayCons):
            items = solid(self.eval(node.body, inp, env, d, quiet)).type if node.body is not None else ANY
            return Val(SchemaType(ARRAY, items=items))
        if isinstance(node, jqast.ObjectCons):
            return self.operators.object(node, inp, env, d, quiet)
        if isinstance(node, jqast.FuncCall):
            return self.calls.call(node, inp, env, d, quiet)
        if isinstance(node, jqast.VarRef):
            bound = env.get("$" + node.name)
            return bound if isinstance(bound, Val) else ANY_VAL
        if isinstance(node, jqast.Bind):
            src = self.eval(node.source, inp, env, d, quiet)
            inner = dict(env)
            for pattern in node.patterns:
                self.operators.bind(pattern, src, inner)
            return self.eval(node.body, inp, inner, d, quiet)
        if isinstance(node, (jqast.Reduce, jqast.Foreach)):
            src = self.eval(node.source, inp, env, d, quiet)
            inner = dict(env)
            self.operators.bind(node.pattern, src, inner)
            state = self.eval(node.init, inp, env, d, quiet)
            updated = self.eval(node.update, state, inner, d, quiet)
            # one more round: the state after an update feeds the next update
            again = self.eval(node.update, Val(union(state.type, updated.type)), inner, d, quiet)
            result = Val(union(state.type, updated.type, again.type))
            if isinstance(node, jqast.Foreach) and node.extract is not None:
                return self.eval(node.extract, result, inner, d, quiet)
            return result
        if isinstance(node, jqast.If):
            return self.operators.if_(node, inp, env, d, quiet)
        if isinstance(node, jqast.FuncDef):
            inner = dict(env)
            inner[f"{node.name}/{len(node.params)}"] = (node, env)
            inner[f"{node.name}/{len(node.params)}"] = (node, inner)  # recursive definitions see themselves
            return self.eval(node.rest, inp, inner, d, quiet) if node.rest is not None else inp
        if isinstance(node, jqast.Label):
            return self.eval(node.body, inp, env, d, quiet)
        if isinstance(node, jqast.Import):
            rest = getattr(node, "rest", None)
            return self.eval(rest, inp, env, d, quiet) if isinstance(rest, jqast.Node) else ANY_VAL
        for child in jqast.children(node):  # Assign, RecurseDefault, Break...: visit for findings, yield any
            if not isinstance(child, (jqast.VarPattern, jqast.ArrayPattern, jqast.ObjectPattern)):
                self.eval(child, inp, env, d, quiet)
        return ANY_VAL


def bound(roots: Mapping[str, SchemaType] | None) -> dict[str, Any]:
    """The environment of variables bound before the expression (``{"$root": type}``)."""
    return {k if k.startswith("$") else "$" + k: Val(v) for k, v in (roots or {}).items()}


def infer(
    node: jqast.Node,
    input_type: SchemaType,
    *,
    roots: Mapping[str, SchemaType] | None = None,
    text: str = "",
    source: str | None = None,
    object_meta: SchemaType | None = None,
) -> TypeResult:
    """Evaluate ``node`` over ``input_type``.

    ``roots``: variables bound before the expression (``{"$root": type}``), each a SchemaType.
    ``text``: the expression text (for replacements); ``source``: the schema file, for "declared here" data.
    ``object_meta``: Kubernetes' ObjectMeta, the `metadata` of embedded resources (unknown when None).
    """
    interp = Interpreter(text, source, object_meta)
    result = interp.eval(node, Val(input_type, path=""), bound(roots))
    return TypeResult(result.type, result.optional, interp.findings, frozenset(interp.defaults))
