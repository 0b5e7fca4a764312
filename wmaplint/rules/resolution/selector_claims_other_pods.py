"""WM731 selector-claims-other-pods: a component's type selector claims pods made for another component."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import SelectorClaimsOtherPods
from wmaplint.rules import reports
from wmaplint.rules.examples import mpijob_tree

RULE = define(
    "WM731",
    "selector-claims-other-pods",
    "warning",
    "A component's componentTypeSelector claims pods the controller creates for another component.",
    why="On the pods `tree` synthesizes for the manifest (with the labels the controller writes), the "
    "selector matches pods of another component. The runtime gives a pod to the first leaf whose selector "
    "matches, so those pods are counted, shown and gang-scheduled as the wrong component.",
    bad=mpijob_tree("value: launcher}", "value: worker}"),
    good=mpijob_tree(),
    fix="Select on a label whose value tells this component's pods from the others'.",
    example_mode="tree",
)


@reports(RULE, SelectorClaimsOtherPods)
def claims_other_pods(finding: SelectorClaimsOtherPods) -> str:
    return (
        f"componentTypeSelector of {finding.component} also claims the pods the controller creates for "
        f"{finding.other} (such as {finding.pod}; labels written per {finding.source})"
    )
