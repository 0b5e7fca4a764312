"""WM307 suspend-value-type: a suspend or resume action writes a value the target field does not accept."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.jq.inference.findings import with_article
from wmaplint.rules import reports
from wmaplint.rules.examples import job_with
from wmaplint.typecheck.expectations import SuspendValueOfWrongType, SuspendValueOutsideEnum

RULE = define(
    "WM307", "suspend-value-type", "error",
    "A suspend or resume action writes a value the target field's type does not accept.",
    why="The value is decoded as JSON and written into the object; the API server rejects the update "
    "(for example the string \"yes\" into a boolean), so the workload can never be suspended.",
    bad=job_with("      statusDefinition:",
                 "      suspendDefinition:\n"
                 "        suspendActions: [{path: .spec.suspend, value: '\"yes\"'}]\n"
                 "        resumeActions: [{path: .spec.suspend, value: 'false'}]\n      statusDefinition:"),
    good=job_with("      statusDefinition:",
                  "      suspendDefinition:\n"
                  "        suspendActions: [{path: .spec.suspend, value: 'true'}]\n"
                  "        resumeActions: [{path: .spec.suspend, value: 'false'}]\n      statusDefinition:"),
    fix="Write a JSON value of the field's type (`true`, `0`, `\"Paused\"`, `null`).",
)


@reports(RULE, SuspendValueOutsideEnum)
@reports(RULE, SuspendValueOfWrongType)
def message(finding: SuspendValueOutsideEnum | SuspendValueOfWrongType) -> str:
    if isinstance(finding, SuspendValueOutsideEnum):
        return f"value {finding.value} is not one of {', '.join(map(str, finding.allowed))}"
    return (f"value {finding.value} is {with_article(finding.kind)} but the field is "
            f"{with_article(finding.field_type)}")
