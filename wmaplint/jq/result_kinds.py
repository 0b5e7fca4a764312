"""The kind of value a jq expression yields, from the expression alone (no schema)."""

from __future__ import annotations

from collections.abc import Callable

from wmaplint.jq import ast as jqast
from wmaplint.jq import builtins as B
from wmaplint.jq.streams import DefinitionOf

NEVER = "never"  # the expression yields no output
_BUILTIN_RESULTS = {"boolean", "number", "string", "array", "object"}
_MAX_DEPTH = 60


def _join(a: str, b: str) -> str:
    if a == NEVER:
        return b
    if b == NEVER:
        return a
    return a if a == b else "any"


def infer_result_kind(node: jqast.Node, definition_of: DefinitionOf | None = None, _depth: int = 0) -> str:
    """Kind of value ``node`` yields: ``boolean``, ``number``, ``string``, ``null``, ``array``, ``object``,
    ``any`` (unknown or mixed), or ``never`` (no output). ``definition_of`` finds the program's definition a
    call reaches (``Names.definition_of``); without it, calls reach the definitions of the same name."""
    if _depth > _MAX_DEPTH:
        return "any"
    if definition_of is None:
        defs = {(n.name, n.arity): n for n in jqast.walk(node) if isinstance(n, jqast.FuncDef)}
        definition_of = (lambda call: defs.get((call.name, call.arity))) if defs else (lambda call: None)
    d = _depth + 1

    def kind(of: jqast.Node) -> str:
        return infer_result_kind(of, definition_of, d)

    if isinstance(node, jqast.Literal):
        v = node.value
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "boolean"
        if isinstance(v, (int, float)):
            return "number"
        return "string"
    if isinstance(node, (jqast.StringInterp, jqast.Format)):
        return "string"
    if isinstance(node, jqast.ArrayCons):
        return "array"
    if isinstance(node, jqast.ObjectCons):
        return "object"
    if isinstance(node, jqast.Neg):
        return "number"
    if isinstance(node, jqast.Binary):
        return _binary(node, kind)
    if isinstance(node, jqast.Pipe):
        return kind(node.right)
    if isinstance(node, jqast.Comma):
        return _join(kind(node.left), kind(node.right))
    if isinstance(node, jqast.If):
        found = kind(node.then)
        for _c, t in node.elifs:
            found = _join(found, kind(t))
        return _join(found, kind(node.else_) if node.else_ is not None else "any")
    if isinstance(node, jqast.Try):
        body = kind(node.body)
        return _join(body, kind(node.catch)) if node.catch is not None else body
    if isinstance(node, jqast.Optional):
        return kind(node.term)
    if isinstance(node, (jqast.Bind, jqast.Label)):
        return kind(node.body)
    if isinstance(node, jqast.FuncDef):
        return kind(node.rest) if node.rest is not None else "any"
    if isinstance(node, jqast.Reduce):
        return _join(kind(node.init), kind(node.update))
    if isinstance(node, jqast.Break):
        return NEVER
    if isinstance(node, jqast.FuncCall):
        target = definition_of(node)
        if target is not None:
            return kind(target.body)
        if node.name in ("empty", "error", "halt", "halt_error") and B.lookup(node.name, node.arity):
            return NEVER
        info = B.lookup(node.name, node.arity)
        if info is not None and info.result in _BUILTIN_RESULTS:
            return info.result
        if info is not None and node.name in ("first", "last", "limit", "nth") and node.args:
            return kind(node.args[-1])
        return "any"
    return "any"


def _binary(node: jqast.Binary, kind: Callable[[jqast.Node], str]) -> str:
    if node.op in ("==", "!=", "<", "<=", ">", ">=", "and", "or"):
        return "boolean"
    left, right = kind(node.left), kind(node.right)
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
