"""WM911 suppression-unknown-rule: a suppression comment names a rule that does not exist."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.suppression import UnknownSuppressedRule

RULE = define(
    "WM911", "suppression-unknown-rule", "warning",
    "A suppression comment names a rule that does not exist.",
    why="A misspelled rule id suppresses nothing, so the finding it was meant to silence still fails the "
    "build.",
    bad=job_with("      name: job\n", "      name: job  # wmaplint: disable=WM9999 -- typo\n"),
    good=JOB,
    fix="Use a rule id or name from `wmaplint rules`.",
)


@reports(RULE, UnknownSuppressedRule)
def message(finding: UnknownSuppressedRule) -> str:
    return f"suppression names unknown rule {finding.name!r}"
