"""WM430 contradictory-matcher: a matcher requires things no object can have at once."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, Severity, define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.status.consistency import ContradictoryMatcher

RULE = define(
    "WM430",
    "contradictory-matcher",
    "error",
    "A matcher requires things no object can have at once, so it never matches.",
    why="The fields of one matcher are ANDed: the same condition with two statuses, two different phases, "
    "or (for known controllers) two conditions the controller never sets True together cannot all hold.",
    bad=job_with(
        '[{type: Failed, status: "True"}]',
        '[{type: Failed, status: "True"}, {type: Failed, status: "False"}]',
    ),
    good=JOB,
    fix="Split the alternatives into separate matchers (entries of the list are ORed), or drop one "
    "requirement.",
)


@reports(RULE, ContradictoryMatcher)
def diagnostic(finding: ContradictoryMatcher) -> Diagnostic:
    found = finding.diagnostic(RULE, f"matcher {finding.matcher.label} never matches: {finding.why}")
    if finding.by_controller:  # what a controller does, not logic: it may change
        found.severity = Severity.WARNING
    return found
