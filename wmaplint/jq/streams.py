"""How many outputs a jq expression yields for one input: the parts that can make it yield several
(iterations, `,`, generators) and the parts that change their count (`select`, `empty`, `first`...), outside
the constructs that collect their outputs (``[...]``, ``reduce``, ``any(...)``, ``length``...)."""

from __future__ import annotations

from collections.abc import Callable

from wmaplint.jq import ast as jqast
from wmaplint.jq.wording import clip

# How the caller finds the program's own definition a call reaches (``Names.definition_of``).
DefinitionOf = Callable[[jqast.FuncCall], "jqast.FuncDef | None"]

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


def _stream_children(node: jqast.Node) -> list[jqast.Node]:
    """Children whose outputs flow into ``node``'s outputs (for multiplicity; collectors excluded)."""
    if isinstance(node, (jqast.ArrayCons, jqast.Literal, jqast.VarRef, jqast.Format, jqast.Break,
                         jqast.Identity, jqast.RecurseDefault)):
        return []
    if isinstance(node, jqast.Reduce):
        return [node.init]
    if isinstance(node, jqast.Foreach):
        return [node.source, node.init]
    if isinstance(node, (jqast.FuncDef, jqast.Import)):
        return [node.rest] if node.rest is not None else []
    if isinstance(node, jqast.Try):
        return [node.body] + ([node.catch] if node.catch is not None else [])
    if isinstance(node, (jqast.Field, jqast.Index, jqast.Slice, jqast.Iterate)):
        out: list[jqast.Node] = []
        if node.target is not None:
            out.append(node.target)
        if isinstance(node, jqast.Index):
            out.append(node.index)
        if isinstance(node, jqast.Slice):
            out.extend(x for x in (node.lower, node.upper) if x is not None)
        return out
    if isinstance(node, jqast.Bind):
        return [node.source, node.body]
    if isinstance(node, jqast.FuncCall):
        collected = _COLLECTING_ARGS.get(node.name, None)
        if collected is None:
            return list(node.args)
        return [a for i, a in enumerate(node.args) if i not in collected]
    return list(jqast.children(node))


def output_leaks(node: jqast.Node, definition_of: DefinitionOf | None = None) -> list[jqast.Node]:
    """Nodes that can make ``node`` yield several outputs for one input (iterations, ``,``, generators),
    ignoring those inside collecting constructs (``[...]``, ``reduce``, ``any(...)``, ``length`` ...)."""
    out: list[jqast.Node] = []
    stack: list[jqast.Node] = [node]
    seen_defs: set[int] = set()
    while stack:
        cur = stack.pop()
        if isinstance(cur, jqast.Label):
            emitters = label_emitters(cur, definition_of)
            if emitters is not None:  # `label $l | ... | ., break $l`: the outputs before the break only
                stack.extend(reversed(emitters))
                continue
        if isinstance(cur, (jqast.Iterate, jqast.RecurseDefault, jqast.Comma)):
            out.append(cur)
            if isinstance(cur, jqast.Comma):
                continue
        if isinstance(cur, jqast.FuncCall):
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


def count_changers(node: jqast.Node, definition_of: DefinitionOf) -> list[tuple[jqast.Node, str]]:
    """Count-changing constructs (select, empty, first, limit, `,`...) reaching ``node``'s output stream, each
    with what it does to the outputs."""
    out: list[tuple[jqast.Node, str]] = []
    stack: list[jqast.Node] = [node]
    while stack:
        cur = stack.pop()
        if isinstance(cur, jqast.FuncCall):
            if cur.name in COUNT_CHANGERS and definition_of(cur) is None:
                out.append((cur, COUNT_CHANGERS[cur.name]))
            continue
        if isinstance(cur, jqast.Label) and label_emitters(cur, definition_of) is not None:
            out.append((cur, "stops at the first output (`break`)"))
            continue
        if isinstance(cur, jqast.Comma):
            out.append((cur, "yields the outputs of both sides"))
            continue
        if isinstance(cur, jqast.If):
            branches = [cur.then, *(t for _c, t in cur.elifs)]
            if cur.else_ is not None:
                branches.append(cur.else_)
            stack.extend(branches)
            continue
        if isinstance(cur, (jqast.ArrayCons, jqast.ObjectCons, jqast.Reduce, jqast.Literal,
                            jqast.StringInterp, jqast.VarRef)):
            continue
        if isinstance(cur, jqast.Binary) and cur.op != "//":
            continue
        if isinstance(cur, jqast.Try):
            stack.append(cur.body)
            continue
        stack.extend(_stream_children(cur))
    return out


def label_emitters(label: jqast.Label, definition_of: DefinitionOf | None = None) -> list[jqast.Node] | None:
    """What ``label $l | body`` yields when its body breaks out right after each output (``first(f)`` is
    ``label $l | f | ., break $l``): the parts whose outputs come before the break, or None when the body
    can go on after an output. Each part yields its outputs for one input, then the label ends."""

    def nothing(node: jqast.Node) -> bool:  # yields no output: `empty`, `error`, any `break`
        if isinstance(node, jqast.Break):
            return True
        if not isinstance(node, jqast.FuncCall):
            return False
        target = definition_of(node) if definition_of is not None else None
        return target is None and node.name in ("empty", "error")

    def emitters(node: jqast.Node) -> list[jqast.Node] | None:
        if (isinstance(node, jqast.Comma) and isinstance(node.right, jqast.Break)
                and node.right.name == label.name):
            return [node.left]
        if isinstance(node, jqast.Pipe):
            return emitters(node.right)  # the first output of the right side ends the label
        if isinstance(node, (jqast.Bind, jqast.Label)):
            return emitters(node.body)
        if isinstance(node, jqast.FuncDef) and node.rest is not None:
            return emitters(node.rest)
        if isinstance(node, jqast.If) and node.else_ is not None:
            found: list[jqast.Node] = []
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


def _is_literal_one(call: jqast.FuncCall) -> bool:
    return bool(call.args) and isinstance(call.args[0], jqast.Literal) and call.args[0].value in (0, 1)


def leak_span(node: jqast.Node) -> tuple[int, int]:
    """The offsets that show where an output leak is: an iteration's brackets, a call's name, a `,`."""
    if isinstance(node, jqast.Iterate):
        return node.seg_start, node.end
    if isinstance(node, jqast.FuncCall):
        return node.start, node.name_end
    if isinstance(node, jqast.Comma):
        return node.left.end, node.right.start
    return node.start, node.end


def leak_description(node: jqast.Node, text: str) -> str:
    """An output leak as a message names it."""
    if isinstance(node, jqast.Iterate):
        return f"the iteration `{clip(text[node.start : node.end])}`"
    if isinstance(node, jqast.Comma):
        return "`,`"
    if isinstance(node, jqast.FuncCall):
        return f"`{node.name}`"
    return f"`{clip(text[node.start : node.end])}`"


def stages(tree: jqast.Node, text: str, definition_of: DefinitionOf) -> list[tuple[str, jqast.Node]]:
    """The stages of ``tree`` as a pipeline (``a | b | c``), each with its text as a comparison reads it: a
    variable bound by an earlier stage stands as the text it is bound to, a bind of one value (``. as $x |``)
    is no stage of its own, and whitespace runs are one space. Two expressions whose first stages read the
    same select the same elements there, whatever follows."""
    bound: dict[str, str] = {}
    out: list[tuple[str, jqast.Node]] = []
    cur: jqast.Node | None = tree
    while cur is not None:
        if isinstance(cur, jqast.Pipe):
            left, cur = cur.left, cur.right
        elif (isinstance(cur, jqast.Bind) and len(cur.patterns) == 1
              and isinstance(cur.patterns[0], jqast.VarPattern)
              and not output_leaks(cur.source, definition_of)
              and not count_changers(cur.source, definition_of)):
            bound[cur.patterns[0].name] = _read(cur.source, text, bound)
            cur = cur.body
            continue
        else:
            left, cur = cur, None
        out.append((_read(left, text, bound), left))
    return out


def _read(node: jqast.Node, text: str, bound: dict[str, str]) -> str:
    """``node``'s text with the variables in ``bound`` replaced by what they are bound to, whitespace runs
    as one space."""
    refs = sorted((n for n in jqast.walk(node) if isinstance(n, jqast.VarRef) and n.name in bound),
                  key=lambda n: n.start)
    parts, at = [], node.start
    for ref in refs:
        parts += [text[at : ref.start], f"({bound[ref.name]})"]
        at = ref.end
    parts.append(text[at : node.end])
    return " ".join("".join(parts).split())
