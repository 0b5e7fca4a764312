"""WM704 invalid-instance-id: instanceIdPath yields a null, empty or non-scalar id."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import InvalidInstanceId
from wmaplint.resolve.values import show
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM704",
    "invalid-instance-id",
    "error",
    "instanceIdPath yields a null, empty or non-scalar id.",
    why="An instance id is matched against a label of each pod. The runtime reads the ids as strings "
    "(upstream `ExtractInstanceIds`): a null reads as empty, and an empty id fails the component (`instance "
    "id path contained empty string values`); a number, boolean, object or list fails the conversion to a "
    "string.",
    bad=jobset_tree().replace(
        "instanceIdPath: .spec.replicatedJobs[].name", "instanceIdPath: .spec.replicatedJobs[].id"
    ),
    good=jobset_tree(),
    fix="Use a field that every element has and that is unique, such as `.name`.",
    example_mode="tree",
)


@reports(RULE, InvalidInstanceId)
def message(finding: InvalidInstanceId) -> str:
    return (
        f"instanceIdPath of {finding.component} gave {show(finding.value)} at index {finding.index}; an "
        "instance id must be a non-empty string"
    )
