"""WM502 empty-component-name: a component's name is empty."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM502", "empty-component-name", "error",
    "A component's name is empty.",
    why="Upstream rejects it (\"component name is empty\"); nothing can refer to the component.",
    bad=job_with("name: job\n", 'name: ""\n'),
    good=JOB,
    fix="Name the component.",
)


@definition_check(RULE)
def empty_component_name(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.components:
        if c.name_node is not None and c.name == "":
            yield ctx.diag(RULE, c.name_node, "component name is empty")
