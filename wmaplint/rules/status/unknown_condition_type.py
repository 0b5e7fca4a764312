"""WM420 unknown-condition-type: a matcher tests a condition type the workload's controller never sets."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source.edits import replace_scalar
from wmaplint.spelling import closest
from wmaplint.status.mappings import condition_entries, condition_type, runtime_status

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM420",
    "unknown-condition-type",
    "warning",
    "A matcher tests a condition type the workload's controller never sets.",
    why="Condition types are compared exactly; a type the controller never writes (a typo, another "
    "framework's name) means the matcher never matches. Such a matcher matches no object, so the checks of "
    "overlapping and hidden statuses leave it out: this is its one finding. Known types come "
    "from the controller model (schemas/controllers/).",
    bad=job_with('[{type: Failed, status: "True"}]', '[{type: Failure, status: "True"}]'),
    good=JOB,
    fix="Use a condition type the controller sets: the quick fix replaces a near-miss by the type it most "
    "likely means (the same but for case, else the closest spelling among the controller's types).",
)


@definition_check(RULE)
def unknown_condition_types(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = runtime_status(ctx.definition)
    model = ctx.root_model
    status = model.status if model is not None else None
    if found is None or model is None or status is None:
        return
    known = list(status.conditions)
    for key, entry in condition_entries(found[1]):
        type_node = condition_type(entry)
        if type_node is None or type_node.value in status.conditions:
            continue
        ctype = type_node.value
        if not status.never_sets(ctype):
            continue  # the list is not the whole set: only a near-miss is likely a mistake
        suggestion = closest(ctype, known)
        if known:
            message = (f"condition type {ctype!r} under {key!r} is never set by {model.gvk()} "
                       f"({status.source}); its types are {', '.join(known)}")
        else:
            message = (f"condition type {ctype!r} under {key!r} never exists: {model.gvk()} has no "
                       f"conditions ({status.source})")
        if suggestion:
            message += f"; did you mean {suggestion!r}?"
        yield ctx.diag(RULE, type_node, message,
                       fixes=fix(f"replace with {suggestion}", replace_scalar(type_node, suggestion))
                       if suggestion else [])
