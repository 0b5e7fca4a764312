"""WM405 condition-matcher-without-criteria: a byConditions entry gives neither status nor reason."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.status.mappings import condition_entries, condition_label, declared_statuses

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM405", "condition-matcher-without-criteria", "info",
    "A byConditions entry gives neither status nor reason.",
    why="Such an entry matches whenever the condition exists, even with status False; that is rarely "
    "intended for conditions like Ready or Failed.",
    bad=job_with("[{type: Failed, status: \"True\"}]", "[{type: Failed}]"),
    good=JOB,
    fix="Add status: \"True\" (or the status you mean).",
)


@definition_check(RULE)
def conditions_without_criteria(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for status in declared_statuses(ctx.definition):
        for key, entry in condition_entries(status):
            type_node = entry.get("type")
            if type_node is not None and entry.get("status") is None and entry.get("reason") is None:
                yield ctx.diag(RULE, type_node,
                               f"condition {condition_label(entry)!r} under {key!r} gives neither status nor "
                               "reason: it matches whenever the condition exists, even with status False")
