"""WM707 spec-not-object: a spec path yields a value that is not a pod template or pod spec object."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import SpecNotObject
from wmaplint.resolve.values import show
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM707",
    "spec-not-object",
    "warning",
    "A spec path yields a value that is not a pod template or pod spec object.",
    why="The runtime converts each output into a PodTemplateSpec or PodSpec through JSON (upstream "
    "`safeConvertSlice`): a string, number or list fails the conversion, and with it the component and the "
    "workload tree.",
    bad=jobset_tree().replace(
        "podTemplateSpecPath: '.spec.replicatedJobs[].template.spec.template'",
        "podTemplateSpecPath: '.spec.replicatedJobs[].name'",
    ),
    good=jobset_tree(),
    fix="Point the spec path at the PodTemplateSpec (`{metadata, spec}`), or podSpecPath at the PodSpec.",
    example_mode="tree",
)


@reports(RULE, SpecNotObject)
def message(finding: SpecNotObject) -> str:
    shown = show(finding.value)
    return f"the pod definition of {finding.component} instance {finding.index} is {shown}, not an object"
