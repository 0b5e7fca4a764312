"""The form of a checked expression that ``interpret.py`` evaluates: the checked AST cut down to what
evaluation reads, as JSON data. A rule pack's record holds it, so a later run needs neither the protobuf
decoding nor the AST classes.

A plan is a nested list per node: ``["const", value]``, ``["ident", name]``,
``["select", operand, field, test_only]``, ``["call", function, target or None, [args]]``,
``["list", [elements]]``, ``["map", [[key, value], ...]]`` and
``["comp", iter_var, iter_var2, range, accu_var, init, condition, step, result]``. Nodes with no such form
(optional elements, message literals, qualified names, unsigned or bytes constants) give no plan.
"""

from __future__ import annotations

from typing import Any

from wmaplint.cel import ast as celast

Plan = list[Any]
_CONSTANTS = ("null", "bool", "int", "double", "string")


class _NoPlan(Exception):
    pass


def plan_of(checked: celast.CheckedAst) -> Plan | None:
    """The plan of a checked expression, or None when a node of it has no plan form."""
    try:
        return _plan(checked, checked.expr, 0)
    except (_NoPlan, RecursionError):
        return None


def _plan(checked: celast.CheckedAst, node: celast.Node, depth: int) -> Plan:
    if depth > celast.MAX_DEPTH:
        raise _NoPlan
    sub = depth + 1
    if isinstance(node, celast.Const):
        if node.kind not in _CONSTANTS:
            raise _NoPlan
        return ["const", node.value]
    if isinstance(node, celast.Ident):
        if checked.references.get(node.id, node.name) != node.name:
            raise _NoPlan  # resolved to another name: a constant or a type in a container
        return ["ident", node.name]
    if isinstance(node, celast.Select):
        if node.id in checked.references:
            raise _NoPlan  # a qualified name (a.b.c read as one identifier), not a field selection
        return ["select", _plan(checked, node.operand, sub), node.field, node.test_only]
    if isinstance(node, celast.Call):
        target = None if node.target is None else _plan(checked, node.target, sub)
        return ["call", node.function, target, [_plan(checked, arg, sub) for arg in node.args]]
    if isinstance(node, celast.ListLit):
        if node.optional_indices:
            raise _NoPlan
        return ["list", [_plan(checked, element, sub) for element in node.elements]]
    if isinstance(node, celast.StructLit):
        if node.message_name:
            raise _NoPlan
        entries = []
        for entry in node.entries:
            if entry.key is None or entry.optional:
                raise _NoPlan
            entries.append([_plan(checked, entry.key, sub), _plan(checked, entry.value, sub)])
        return ["map", entries]
    if isinstance(node, celast.Comprehension):
        parts = (node.iter_range, node.accu_init, node.loop_condition, node.loop_step, node.result)
        iter_range, init, condition, step, result = (_plan(checked, part, sub) for part in parts)
        return ["comp", node.iter_var, node.iter_var2, iter_range, node.accu_var, init, condition, step,
                result]
    raise _NoPlan
