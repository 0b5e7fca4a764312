"""WM501 duplicate-component-name: two components have the same name."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.model import Component
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import WORKER_CHILD, job_with_child

RULE = define(
    "WM501", "duplicate-component-name", "error",
    "Two components have the same name.",
    why="Component names identify components in ownerRef, gang members and pod attribution; upstream's "
    "validator rejects repeats (\"component name %s is not unique\") and stops checking anything else.",
    bad=job_with_child(WORKER_CHILD.replace("name: worker", "name: job")),
    good=job_with_child(),
    fix="Give each component a unique name.",
)


@definition_check(RULE)
def duplicate_component_name(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    first: dict[str, Component] = {}
    for c in ctx.definition.components:
        if not c.name or c.name_node is None:
            continue
        known = first.setdefault(c.name, c)
        if known is not c and known.name_node is not None:
            yield ctx.diag(RULE, c.name_node, f"component name {c.name!r} is not unique",
                           related=[ctx.here(known.name_node, "first used here")])
