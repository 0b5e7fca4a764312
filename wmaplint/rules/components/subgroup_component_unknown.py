"""WM514 subgroup-component-unknown: a podGroup sub-group names a component that does not exist."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.names import by_name
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB
from wmaplint.spelling import suggestions

_POD_GROUP = "  optimizationInstructions:\n    gangScheduling:\n      podGroup:\n        name: job\n"

RULE = define(
    "WM514", "subgroup-component-unknown", "error",
    "A podGroup sub-group names a component that does not exist.",
    why="Upstream's validator does not check sub-groups; the scheduler fails at runtime when it builds the "
    "PodGroup.",
    bad=JOB + _POD_GROUP + "        subGroups: [{componentName: jobs}]\n",
    good=JOB + _POD_GROUP + "        subGroups: [{componentName: job}]\n",
    fix="Use the name of an existing component.",
)


@definition_check(RULE)
def subgroup_component_unknown(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    named = by_name(ctx.definition)
    names = list(named)
    for sub in ctx.definition.subgroup_refs:
        if not sub.component or sub.component in named:
            continue
        hint = suggestions(sub.component, names)
        yield ctx.diag(
            RULE, sub.component_node,
            f"podGroup sub-group component {sub.component!r} is not defined; the scheduler fails when it "
            "builds the PodGroup" + (f"; did you mean {hint[0]!r}?" if hint else ""),
            data={"suggestions": hint, "valid": sorted(names)},
        )
