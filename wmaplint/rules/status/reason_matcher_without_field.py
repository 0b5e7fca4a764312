"""WM404 reason-matcher-without-field: a condition matcher tests reason, which nothing reads."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import job_with
from wmaplint.status.mappings import condition_entries, condition_label, declared_statuses, reads_reasons

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

TESTS_REASON = job_with("[{type: Failed, status: \"True\"}]",
                        "[{type: Failed, status: \"True\", reason: BackoffLimitExceeded}]")
READS_REASONS = ("statusFieldName: status}", "statusFieldName: status, reasonFieldName: reason}")

RULE = define(
    "WM404", "reason-matcher-without-field", "warning",
    "A condition matcher tests reason but conditionsDefinition has no reasonFieldName.",
    why="Reasons are read only when reasonFieldName is set (its default exists only when an API server "
    "applies the CRD; offline and with reasonFieldName: null it is unset), so the matcher never matches.",
    bad=TESTS_REASON,
    good=TESTS_REASON.replace(*READS_REASONS),
    fix="Add reasonFieldName: reason to conditionsDefinition.",
)


@definition_check(RULE)
def unread_reasons(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for status in declared_statuses(ctx.definition):
        if status.conditions_node is None or reads_reasons(status):
            continue
        for key, entry in condition_entries(status):
            if entry.get("reason") is not None:
                yield ctx.diag(RULE, entry.key_node("reason"),
                               f"condition {condition_label(entry)!r} under {key!r} tests reason, but "
                               "conditionsDefinition has no reasonFieldName: reasons are never read, so this "
                               "never matches")
