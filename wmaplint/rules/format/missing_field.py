"""WM111 missing-field: a required field is missing."""

from __future__ import annotations

from wmaplint.definition.structure import MissingField
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM111", "missing-field", "error",
    "A required field is missing.",
    why="The API server rejects definitions without their required fields (for example a component's name, "
    "byExpression's expectedResult or a condition's type).",
    bad=job_with("      name: job\n", ""),
    good=JOB,
    fix="Add the field.",
)


@reports(RULE, MissingField)
def diagnostic(finding: MissingField) -> Diagnostic:
    found = finding.diagnostic(RULE, f"{finding.where} is missing the required field {finding.field!r}")
    found.data = {"field": finding.field}
    return found
