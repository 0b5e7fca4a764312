"""WM308 unreachable-expected-result: a byExpression's expected result can never equal what it yields."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.typecheck.expectations import UnreachableExpectedResult

RULE = define(
    "WM308", "unreachable-expected-result", "warning",
    "A byExpression's expected result can never equal what the expression yields.",
    why="The runtime compares `(<expression>) | tostring` with expectedResult; when the expression yields a "
    "boolean and the expected result is \"True\", or a string whose enum excludes the expected value, the "
    "status never matches.",
    bad=job_with('expectedResult: "true"', 'expectedResult: "True"'),
    good=JOB,
    fix="Write the expected result as the expression's value prints (`true`, `false`, a number, an enum "
    "value).",
)


@reports(RULE, UnreachableExpectedResult)
def message(finding: UnreachableExpectedResult) -> str:
    return (f"expectedResult {finding.expected!r} can never match: the expression yields "
            f"{', '.join(finding.possible)}")
