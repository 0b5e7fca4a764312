"""WM506 child-owner-ref-missing: a child component has no ownerRef."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import WORKER_CHILD, job_with_child

RULE = define(
    "WM506", "child-owner-ref-missing", "error",
    "A child component has no ownerRef.",
    why="Children hang under their parent component; without ownerRef upstream rejects the definition "
    "(\"child component '%s' has no owner ref\").",
    bad=job_with_child(WORKER_CHILD.replace("      ownerRef: job\n", "")),
    good=job_with_child(),
    fix="Set ownerRef to the name of the parent component.",
)


@definition_check(RULE)
def child_owner_ref_missing(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.children:
        if not c.owner_ref:
            yield ctx.diag(RULE, c.owner_ref_node or c.name_node or c.node,
                           f"child component {c.label!r} has no ownerRef")
