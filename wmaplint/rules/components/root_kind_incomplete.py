"""WM503 root-kind-incomplete: the root component lacks a full group, version and kind."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM503", "root-kind-incomplete", "error",
    "The root component lacks a full group, version and kind.",
    why="The root kind is how platforms find the definition for a workload (one definition per GVK); only "
    "the core kind Pod may have an empty group.",
    bad=job_with("{group: batch, version: v1, kind: Job}", '{group: "", version: v1, kind: Job}'),
    good=JOB,
    fix="Set group, version and kind of the workload's CRD.",
)


@definition_check(RULE)
def root_kind_incomplete(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    root = ctx.definition.root
    if root is None:
        return
    gvk = root.kind
    if gvk is not None and gvk.version and gvk.kind and (gvk.group or gvk.kind == "Pod"):
        return
    if gvk is None:
        yield ctx.diag(RULE, root.name_node or root.node,
                       "root component must have full kind (group, version, kind); missing kind")
        return
    present = (("group", gvk.group or gvk.kind == "Pod"), ("version", gvk.version), ("kind", gvk.kind))
    missing = ", ".join(name for name, value in present if not value)
    message = f"root component must have full kind (group, version, kind); missing {missing}"
    if gvk.kind:
        message += "; only Pod may have the empty core group"
    yield ctx.diag(RULE, gvk.node, message)
