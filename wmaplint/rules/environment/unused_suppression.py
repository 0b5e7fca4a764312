"""WM910 unused-suppression: a suppression comment suppresses nothing."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.rules.format.unknown_field import RULE as UNKNOWN_FIELD
from wmaplint.suppression import UnusedSuppression

RULE = define(
    "WM910", "unused-suppression", "info",
    "A wmaplint suppression comment that suppresses nothing.",
    why="Stale suppressions hide future findings on the same line and mislead readers about what is wrong.",
    bad=job_with("      name: job\n",
                 f"      name: job  # wmaplint: disable={UNKNOWN_FIELD.id} -- no longer needed\n"),
    good=JOB,
    fix="Remove the comment, or correct the rule it names.",
)


@reports(RULE, UnusedSuppression)
def message(finding: UnusedSuppression) -> str:
    return f"suppression of {', '.join(finding.rules)} suppresses nothing"
