"""WM114 empty-value: a list, map or string that must not be empty is empty."""

from __future__ import annotations

from wmaplint.definition.structure import EmptyValue
from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB

RULE = define(
    "WM114", "empty-value", "error",
    "A list, map or string that must not be empty is empty.",
    why="The API server enforces minimum sizes: suspend and resume need at least one action, a type "
    "selector's keyPath and matchLabels must not be empty.",
    bad=JOB.replace(
        "      statusDefinition:",
        "      suspendDefinition:\n        suspendActions: []\n        resumeActions: [{path: .spec.suspend, "
        "value: \"false\"}]\n      statusDefinition:",
    ),
    good=JOB,
    fix="Add an entry, or remove the field.",
)


@reports(RULE, EmptyValue)
def message(finding: EmptyValue) -> str:
    if finding.kind == "string":
        return f"{finding.where} must not be empty"
    if finding.kind == "map":
        return f"{finding.where} must have at least one entry"
    return f"{finding.where} needs at least {finding.least} entry"
