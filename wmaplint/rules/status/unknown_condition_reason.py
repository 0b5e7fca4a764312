"""WM423 unknown-condition-reason: a condition reason that looks like a misspelling of a known one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.examples import job_with
from wmaplint.source import ScalarNode
from wmaplint.source.edits import replace_scalar
from wmaplint.spelling import closest
from wmaplint.status.mappings import condition_entries, condition_type, runtime_status

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext


def _with_reason(reason: str) -> str:
    """The Job example reading reasons, its failed matcher requiring ``reason``."""
    failed = f'[{{type: Failed, status: "True", reason: {reason}}}]'
    text = job_with('[{type: Failed, status: "True"}]', failed)
    return text.replace("statusFieldName: status}", "statusFieldName: status, reasonFieldName: reason}")


RULE = define(
    "WM423",
    "unknown-condition-reason",
    "info",
    "A condition reason that looks like a misspelling of one the controller sets.",
    why="Reasons are compared exactly; a near-miss of a known reason never matches.",
    bad=_with_reason("BackoffLimitExeeded"),
    good=_with_reason("BackoffLimitExceeded"),
    fix="Use the controller's reason spelling.",
)


@definition_check(RULE)
def unknown_reasons(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = runtime_status(ctx.definition)
    model = ctx.root_model
    if found is None or model is None or model.status is None:
        return
    for key, entry in condition_entries(found[1]):
        type_node = condition_type(entry)
        condition = model.condition(type_node.value) if type_node is not None else None
        reason_node = entry.get("reason")
        if condition is None or not isinstance(reason_node, ScalarNode):
            continue
        reason = reason_node.value
        if not isinstance(reason, str) or reason in condition.reasons:
            continue
        suggestion = closest(reason, condition.reasons)
        if suggestion:
            yield ctx.diag(RULE, reason_node,
                           f"reason {reason!r} of {condition.type} under {key!r} is not one {model.gvk()} "
                           f"sets; did you mean {suggestion!r}?",
                           fixes=fix(f"replace with {suggestion}", replace_scalar(reason_node, suggestion)))
