"""Which parts of a variable's value an expression can read (``parts.py`` cuts a value down to them).

The CEL runtime converts a variable's whole Python value on first use, so a rule that reads two fields of a
large ``root`` pays for converting all of it on every evaluation. ``reads`` walks the checked AST and records
the field paths read from one variable, as a tree of field names.
"""

from __future__ import annotations

from typing import Any

from wmaplint.cel import ast as celast
from wmaplint.cel.parts import ANY, WHOLE, Reads

_INDEX = ("_[_]", "_[?_]", "_?._")
MAX_DEPTH = 300


class _Walker:
    def __init__(self, variable: str) -> None:
        self.variable = variable
        self.tree: Reads = {}
        self.whole_root = False

    def mark(self, path: tuple[str, ...], whole: bool) -> None:
        """Record that ``path`` is reached, and read whole when ``whole``."""
        if not path:
            self.whole_root = self.whole_root or whole
            return
        node: Any = self.tree
        for key in path[:-1]:
            if node is WHOLE:
                return
            node = node.setdefault(key, {})
        if node is WHOLE:
            return
        if whole:
            node[path[-1]] = WHOLE
        else:
            node.setdefault(path[-1], {})

    def path(
        self, node: celast.Node, scope: dict[str, tuple[str, ...]], depth: int
    ) -> tuple[str, ...] | None:
        """The path of ``node`` in the variable when it is a plain reference into it (recorded as reached),
        else None after walking it as a value."""
        # what it reads cannot be told: keep everything
        if depth > MAX_DEPTH or isinstance(node, celast.Unknown):
            self.whole_root = True
            return None
        if isinstance(node, celast.Ident):
            found = scope.get(node.name, () if node.name == self.variable else None)
            if found is not None:
                self.mark(found, False)
            return found
        if isinstance(node, celast.Select):
            base = self.path(node.operand, scope, depth + 1)
            if base is None:
                return None
            self.mark((*base, node.field), False)
            return None if node.test_only else (*base, node.field)
        if isinstance(node, celast.Call) and node.function in _INDEX and len(node.args) == 2:
            base = self.path(node.args[0], scope, depth + 1)
            key = node.args[1]
            self.value(key, scope, depth + 1)
            if base is None:
                return None
            step = key.value if isinstance(key, celast.Const) and isinstance(key.value, str) else ANY
            self.mark((*base, step), False)
            return (*base, step)
        if isinstance(node, celast.Comprehension):
            self.comprehension(node, scope, depth + 1)
            return None
        for child in _children(node):
            self.value(child, scope, depth + 1)
        return None

    def value(self, node: celast.Node, scope: dict[str, tuple[str, ...]], depth: int) -> None:
        """``node`` is used as a value: a reference into the variable is read whole."""
        found = self.path(node, scope, depth)
        if found is not None:
            self.mark(found, True)

    def comprehension(
        self, node: celast.Comprehension, scope: dict[str, tuple[str, ...]], depth: int
    ) -> None:
        over = self.path(node.iter_range, scope, depth)
        inner = {k: v for k, v in scope.items() if k not in (node.iter_var, node.iter_var2, node.accu_var)}
        if over is not None:
            self.mark((*over, ANY), False)  # every item (or key) is visited
            if node.iter_var2:  # index or key, then the item
                self.mark(over, True)  # a key used as a value needs the keys: keep the range whole
                inner[node.iter_var2] = (*over, ANY)
            else:
                inner[node.iter_var] = (*over, ANY)
        for part in (node.accu_init, node.loop_condition, node.loop_step, node.result):
            self.value(part, inner, depth + 1)


def _children(node: celast.Node) -> list[celast.Node]:
    if isinstance(node, celast.Call):
        return ([node.target] if node.target is not None else []) + list(node.args)
    if isinstance(node, celast.ListLit):
        return list(node.elements)
    if isinstance(node, celast.StructLit):
        return [part for e in node.entries for part in (e.key, e.value) if part is not None]
    return []


def reads(checked: celast.CheckedAst, variable: str) -> Reads | Any:
    """The parts of ``variable`` that ``checked`` can read: a tree of field names (``ANY`` for items), or
    WHOLE."""
    walker = _Walker(variable)
    walker.value(checked.expr, {}, 0)
    return WHOLE if walker.whole_root else walker.tree
