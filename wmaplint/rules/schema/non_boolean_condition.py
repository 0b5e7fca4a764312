"""WM304 non-boolean-condition: a condition (select, if, and/or/not) gets a value that is never a boolean."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.jq.inference.findings import NonBooleanCondition, with_article
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM304", "non-boolean-condition", "warning",
    "A condition (select, if, and/or/not) receives a value that is never a boolean.",
    why="jq treats every value except false and null as true, so a condition on a string or number is always "
    "true: a select that filters nothing, a status that always matches.",
    bad=job_with("'(.status.active // 0) > 0'", "'[.status.conditions[] | select(.type)] | length > 0'"),
    good=JOB,
    fix="Compare the value explicitly (for example `select(.type == \"Ready\")`).",
)


@reports(RULE, NonBooleanCondition)
def message(finding: NonBooleanCondition) -> str:
    return f"condition is {with_article(finding.kind)}, never a boolean: it is always true"
