"""WM504 root-owner-ref: the root component has an ownerRef."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source.edits import remove_pair

RULE = define(
    "WM504", "root-owner-ref", "error",
    "The root component has an ownerRef.",
    why="The root is the workload object itself and owns everything; upstream rejects any ownerRef on it, "
    "even an empty one.",
    bad=job_with("      name: job\n", "      name: job\n      ownerRef: job\n"),
    good=JOB,
    fix="Remove ownerRef from the root component.",
)


@definition_check(RULE)
def root_owner_ref(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    root = ctx.definition.root
    if root is None or root.owner_ref_node is None:
        return
    key = root.node.key_node("ownerRef")
    yield ctx.diag(RULE, key, "root component cannot have an ownerRef",
                   fixes=fix("remove ownerRef", remove_pair(root.node, key)) if key else [])
