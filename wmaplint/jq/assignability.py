"""Whether a jq expression is a path expression: one gojq can assign through (``path(f)``, ``f = v``;
GOJQ.md §3.7), and if not, the part that makes it a value instead."""

from __future__ import annotations

from wmaplint.jq import ast as jqast
from wmaplint.jq import builtins as B
from wmaplint.jq.names import Names

# The arguments of path builtins that must themselves be paths (the others are counts and conditions).
_PATH_ARGS: dict[str, tuple[int, ...]] = {
    "first": (0,), "limit": (1,), "skip": (1,), "nth": (1,), "recurse": (0,), "while": (1,), "until": (1,),
    "repeat": (0,),
}  # fmt: skip

_MAX_DEPTH = 40


def non_path(node: jqast.Node, names: Names, depth: int = 0) -> tuple[jqast.Node, str] | None:
    """The first part of ``node`` that makes it invalid inside ``path(...)``, and why; None when it is a
    path (or too deep to tell)."""
    if depth > _MAX_DEPTH:
        return None
    deeper = depth + 1
    if isinstance(node, (jqast.Identity, jqast.RecurseDefault, jqast.Break)):
        return None
    if isinstance(node, (jqast.Field, jqast.Index, jqast.Slice, jqast.Iterate)):
        target = node.target
        if target is None:
            return None
        if isinstance(target, jqast.VarRef):
            return target, f"it starts from the variable `${target.name}`, not from `.`"
        return non_path(target, names, deeper)
    if isinstance(node, jqast.Optional):
        return non_path(node.term, names, deeper)
    if isinstance(node, jqast.Try):
        return non_path(node.body, names, deeper)
    if isinstance(node, (jqast.Pipe, jqast.Comma)):
        return non_path(node.left, names, deeper) or non_path(node.right, names, deeper)
    if isinstance(node, jqast.Binary):
        if node.op == "//":
            return non_path(node.left, names, deeper) or non_path(node.right, names, deeper)
        kind = (
            "a comparison"
            if node.op in ("==", "!=", "<", "<=", ">", ">=")
            else (f"`{node.op}`" if node.op in ("and", "or") else "arithmetic")
        )
        return node, f"{kind} makes a new value"
    if isinstance(node, jqast.If):
        for branch in (node.then, *(t for _c, t in node.elifs), node.else_):
            if branch is not None:
                found = non_path(branch, names, deeper)
                if found:
                    return found
        return None
    if isinstance(node, (jqast.Bind, jqast.Label)):
        return non_path(node.body, names, deeper)
    if isinstance(node, (jqast.FuncDef, jqast.Import)):
        return non_path(node.rest, names, deeper) if node.rest is not None else None
    if isinstance(node, jqast.FuncCall):
        return _non_path_call(node, names, deeper)
    return _value_maker(node)


def _non_path_call(node: jqast.FuncCall, names: Names, depth: int) -> tuple[jqast.Node, str] | None:
    user = names.definition_of(node)
    if user is not None:
        found = non_path(user.body, names, depth)
        return (node, f"`{node.name}` is defined with a body that is not a path") if found else None
    info = B.lookup_any(node.name, node.arity)
    if (node.name, node.arity) in names.definitions or info is None:
        return None  # a parameter or an unknown name, reported elsewhere
    if not info.path:
        return node, f"`{node.name}` makes a new value"
    for index in _PATH_ARGS.get(node.name, ()):
        if index < len(node.args):
            found = non_path(node.args[index], names, depth)
            if found:
                return found
    return None


def _value_maker(node: jqast.Node) -> tuple[jqast.Node, str] | None:
    """Why ``node``, a construct that is never a path, makes a value (None for the rest)."""
    if isinstance(node, jqast.VarRef):
        return node, f"the variable `${node.name}` is a value, not a location in `.`"
    if isinstance(node, jqast.Literal):
        return node, "a literal is a constant, not a location in `.`"
    if isinstance(node, (jqast.StringInterp, jqast.Format)):
        return node, "a string or format makes a new value"
    if isinstance(node, jqast.ArrayCons):
        return node, "`[...]` constructs a new array"
    if isinstance(node, jqast.ObjectCons):
        return node, "`{...}` constructs a new object"
    if isinstance(node, jqast.Neg):
        return node, "unary minus makes a new value"
    if isinstance(node, (jqast.Reduce, jqast.Foreach)):
        return node, f"`{'reduce' if isinstance(node, jqast.Reduce) else 'foreach'}` makes a new value"
    if isinstance(node, jqast.Assign):
        return node, "an assignment makes a new value"
    return None
