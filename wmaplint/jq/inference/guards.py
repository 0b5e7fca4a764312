"""Which paths a jq expression has proven present where it iterates, for the type interpreter.

gojq stops with `cannot iterate over: null` when `.[]` meets null, and so do the builtins defined over `.[]`
(`map`, `any/1`, `all/1`, `sort_by`...). The interpreter knows where a value may be missing because the
schema does not require a field (``Val.absent``); this module tells whether the expression guards the
iteration: `[]?`, `try`, `// []` and the type selectors are seen by the walk itself, the conditions of `if`,
`select`, `and` and `or` here. Paths are dotted keys from the expression's input, `[]` marking list elements
(``spec.groups[].containers``); the input itself is ``""``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wmaplint.jq import ast as jqast

# the env key of the paths the conditions around the current node have tested (a frozenset)
PRESENT = "%present"


def path_key(node: jqast.Node | None) -> str | None:
    """``.a.b["c"]`` as "a.b.c": a plain path from the input, else None."""
    parts: list[str] = []
    while node is not None and not isinstance(node, jqast.Identity):
        if isinstance(node, jqast.Field):
            parts.append(node.name)
        elif (isinstance(node, jqast.Index) and isinstance(key := node.index, jqast.Literal)
              and type(key.value) is str):
            parts.append(key.value)
        else:
            return None
        node = node.target
    return ".".join(reversed(parts)) if parts else None


def paths_in(node: jqast.Node) -> set[str]:
    return {k for n in jqast.walk(node) if (k := path_key(n)) is not None}


def null_tests(node: jqast.Node) -> set[str]:
    """Paths a condition compares with null by `==` (the then-branch of `if .a == null` does not prove .a)."""
    out: set[str] = set()
    for n in jqast.walk(node):
        if isinstance(n, jqast.Binary) and n.op == "==":
            for a, b in ((n.left, n.right), (n.right, n.left)):
                if isinstance(b, jqast.Literal) and b.value is None and (k := path_key(a)) is not None:
                    out.add(k)
    return out


def tested_paths(cond: jqast.Node) -> set[str]:
    """What a condition reads, as paths from its input: fields, `has("k")` keys, and the input itself when
    the condition looks at `.` (`if . then .[] else [] end`). A condition that reads a path is taken to guard
    it, whatever it compares: silence where the analysis cannot tell."""
    out = paths_in(cond)
    for n in jqast.walk(cond):
        if isinstance(n, jqast.Identity):
            out.add("")
        elif isinstance(n, jqast.Pipe) and (key := _has_key(n.right)) is not None:
            base = path_key(n.left)
            if base is not None:
                out.add(f"{base}.{key}")
        elif (key := _has_key(n)) is not None:
            out.add(key)
    return out


def _has_key(node: jqast.Node) -> str | None:
    if isinstance(node, jqast.FuncCall) and node.name == "has" and len(node.args) == 1:
        arg = node.args[0]
        if isinstance(arg, jqast.Literal) and isinstance(arg.value, str):
            return arg.value
    return None


def select_condition(node: jqast.Node) -> jqast.Node | None:
    """The condition of `select(c)`, the left side of a pipe whose right side then sees only inputs where c
    holds."""
    if isinstance(node, jqast.FuncCall) and node.name == "select" and len(node.args) == 1:
        return node.args[0]
    return None


def proven(env: Mapping[str, Any], relative: Iterable[str], base: str | None) -> dict[str, Any]:
    """``env`` where the paths ``relative`` to an input at ``base`` are known present (no change when the
    input is not a plain path)."""
    if base is None:
        return dict(env)
    added = {base if not p else f"{base}.{p}" if base else p for p in relative}
    inner = dict(env)
    inner[PRESENT] = frozenset(env.get(PRESENT, frozenset()) | added)
    return inner


def guarded(env: Mapping[str, Any], path: str) -> bool:
    """A condition around this point tested ``path`` or something below it (which needs it present)."""
    return any(
        p == path or p.startswith(path + ".") or p.startswith(path + "[]")
        for p in env.get(PRESENT, frozenset())
    )
