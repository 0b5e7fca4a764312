"""WM513 gang-member-unknown: a gang member names a component that does not exist."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.names import by_name
from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB
from wmaplint.source.edits import replace_scalar
from wmaplint.spelling import suggestions

_GANG = "  optimizationInstructions:\n    gangScheduling:\n      podGroups:\n      - name: job\n"

RULE = define(
    "WM513", "gang-member-unknown", "error",
    "A gang member names a component that does not exist.",
    why="Upstream rejects it (\"pod-group member component '%s' is not defined\"); the scheduler cannot form "
    "the gang.",
    bad=JOB + _GANG + "        members: [{componentName: jobs}]\n",
    good=JOB + _GANG + "        members: [{componentName: job}]\n",
    fix="Use the name of a root or child component.",
)


@definition_check(RULE)
def gang_member_unknown(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    named = by_name(ctx.definition)  # a set of names: members x components would be quadratic with a list
    names = list(named)
    for member in ctx.definition.gang_members:
        if not member.component or member.component in named:
            continue
        hint = suggestions(member.component, names)
        node = member.component_node
        yield ctx.diag(
            RULE, node,
            f"pod-group member component {member.component!r} is not defined (should be a root or child "
            "component)" + (f"; did you mean {hint[0]!r}?" if hint else ""),
            fixes=fix(f"use {hint[0]}", replace_scalar(node, hint[0])) if hint and node is not None else [],
            data={"suggestions": hint, "valid": sorted(names)},
        )
