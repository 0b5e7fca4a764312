"""WM507 owner-ref-unknown: an ownerRef names a component that does not exist."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.names import by_name
from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import WORKER_CHILD, job_with_child
from wmaplint.source import ScalarNode
from wmaplint.source.edits import replace_scalar
from wmaplint.spelling import suggestions

RULE = define(
    "WM507", "owner-ref-unknown", "error",
    "An ownerRef names a component that does not exist.",
    why="Upstream rejects it (\"has owner ref to non-existing component\"); the tree cannot be built.",
    bad=job_with_child(WORKER_CHILD.replace("ownerRef: job", "ownerRef: jobs")),
    good=job_with_child(),
    fix="Use the name of an existing component (the message suggests the closest).",
)


@definition_check(RULE)
def owner_ref_unknown(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    named = by_name(ctx.definition)
    names = list(named)
    for c in ctx.definition.children:
        if not c.owner_ref or c.owner_ref in named:
            continue
        hint = suggestions(c.owner_ref, names)
        node = c.owner_ref_node
        yield ctx.diag(
            RULE, node,
            f"child component {c.label!r} has ownerRef to non-existing component {c.owner_ref!r}"
            + (f"; did you mean {hint[0]!r}?" if hint else ""),
            fixes=fix(f"use {hint[0]}", replace_scalar(node, hint[0]))
            if hint and isinstance(node, ScalarNode) else [],
            data={"suggestions": hint, "valid": sorted(names)},
        )
