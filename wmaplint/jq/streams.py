"""How many outputs a jq expression yields for one input: the parts that can make it yield several
(iterations, `,`, generators) and the parts that change their count (`select`, `empty`, `first`...), outside
the constructs that collect their outputs (``[...]``, ``reduce``, ``any(...)``, ``length``...)."""

from __future__ import annotations

from collections.abc import Callable

from wmaplint.jq import ast as A
from wmaplint.jq.wording import clip

# How the caller finds the program's own definition a call reaches (``Names.definition_of``).
DefinitionOf = Callable[[A.FuncCall], "A.FuncDef | None"]

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
COUNT_CHANGERS = {
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

_GENERATOR_BUILTINS = frozenset({
    "range", "recurse", "repeat", "paths", "splits", "scan", "combinations", "tostream", "inputs", "while",
    "match", "capture", "limit", "skip", "getpath_stream", "JOIN", "fromstream", "truncate_stream",
})


def _stream_children(node: A.Node) -> list[A.Node]:
    """Children whose outputs flow into ``node``'s outputs (for multiplicity; collectors excluded)."""
    if isinstance(node, (A.ArrayCons, A.Literal, A.VarRef, A.Format, A.Break, A.Identity, A.RecurseDefault)):
        return []
    if isinstance(node, A.Reduce):
        return [node.init]
    if isinstance(node, A.Foreach):
        return [node.source, node.init]
    if isinstance(node, (A.FuncDef, A.Import)):
        return [node.rest] if node.rest is not None else []
    if isinstance(node, A.Try):
        return [node.body] + ([node.catch] if node.catch is not None else [])
    if isinstance(node, (A.Field, A.Index, A.Slice, A.Iterate)):
        out: list[A.Node] = []
        if node.target is not None:
            out.append(node.target)
        if isinstance(node, A.Index):
            out.append(node.index)
        if isinstance(node, A.Slice):
            out.extend(x for x in (node.lower, node.upper) if x is not None)
        return out
    if isinstance(node, A.Bind):
        return [node.source, node.body]
    if isinstance(node, A.FuncCall):
        collected = _COLLECTING_ARGS.get(node.name, None)
        if collected is None:
            return list(node.args)
        return [a for i, a in enumerate(node.args) if i not in collected]
    return list(A.children(node))


def output_leaks(node: A.Node, definition_of: DefinitionOf | None = None) -> list[A.Node]:
    """Nodes that can make ``node`` yield several outputs for one input (iterations, ``,``, generators),
    ignoring those inside collecting constructs (``[...]``, ``reduce``, ``any(...)``, ``length`` ...)."""
    out: list[A.Node] = []
    stack: list[A.Node] = [node]
    seen_defs: set[int] = set()
    while stack:
        cur = stack.pop()
        if isinstance(cur, A.Label):
            emitters = label_emitters(cur, definition_of)
            if emitters is not None:  # `label $l | ... | ., break $l`: the outputs before the break only
                stack.extend(reversed(emitters))
                continue
        if isinstance(cur, (A.Iterate, A.RecurseDefault, A.Comma)):
            out.append(cur)
            if isinstance(cur, A.Comma):
                continue
        if isinstance(cur, A.FuncCall):
            target = definition_of(cur) if definition_of is not None else None
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


def count_changers(node: A.Node, definition_of: DefinitionOf) -> list[tuple[A.Node, str]]:
    """Count-changing constructs (select, empty, first, limit, `,`...) reaching ``node``'s output stream, each
    with what it does to the outputs."""
    out: list[tuple[A.Node, str]] = []
    stack: list[A.Node] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, A.FuncCall):
            if cur.name in COUNT_CHANGERS and definition_of(cur) is None:
                out.append((cur, COUNT_CHANGERS[cur.name]))
            continue
        if isinstance(cur, A.Label) and label_emitters(cur, definition_of) is not None:
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


def label_emitters(label: A.Label, definition_of: DefinitionOf | None = None) -> list[A.Node] | None:
    """What ``label $l | body`` yields when its body breaks out right after each output (``first(f)`` is
    ``label $l | f | ., break $l``): the parts whose outputs come before the break, or None when the body
    can go on after an output. Each part yields its outputs for one input, then the label ends."""

    def nothing(node: A.Node) -> bool:  # yields no output: `empty`, `error`, any `break`
        if isinstance(node, A.Break):
            return True
        target = definition_of(node) if definition_of is not None and isinstance(node, A.FuncCall) else None
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


def leak_span(node: A.Node) -> tuple[int, int]:
    """The offsets that show where an output leak is: an iteration's brackets, a call's name, a `,`."""
    if isinstance(node, A.Iterate):
        return node.seg_start, node.end
    if isinstance(node, A.FuncCall):
        return node.start, node.name_end
    if isinstance(node, A.Comma):
        return node.left.end, node.right.start
    return node.start, node.end


def leak_description(node: A.Node, text: str) -> str:
    """An output leak as a message names it."""
    if isinstance(node, A.Iterate):
        return f"the iteration `{clip(text[node.start : node.end])}`"
    if isinstance(node, A.Comma):
        return "`,`"
    if isinstance(node, A.FuncCall):
        return f"`{node.name}`"
    return f"`{clip(text[node.start : node.end])}`"
