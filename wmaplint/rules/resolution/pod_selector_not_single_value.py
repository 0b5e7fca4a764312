"""WM716 pod-selector-not-single-value: an instance idPath, replica keyPath or groupByKeyPath gives no value
or several values on a pod."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import SelectorNotSingle
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_SELECTOR, jobset_tree_with_pods

RULE = define(
    "WM716",
    "pod-selector-not-single-value",
    "warning",
    "An instance idPath, replica keyPath or groupByKeyPath gives no value or several values on a pod.",
    why="The runtime needs exactly one non-empty value per pod to place it in an instance, replica or gang.",
    bad=jobset_tree_with_pods(
        JOBSET_SELECTOR.replace('.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]',
                                ".metadata.labels[]")
    ),
    good=jobset_tree_with_pods(),
    fix="Read one label or field per pod.",
    example_mode="tree",
)


@reports(RULE, SelectorNotSingle)
def message(finding: SelectorNotSingle) -> str:
    return (
        f"{finding.selector} of {finding.component} gives {finding.count} non-empty value(s) on pod "
        f"{finding.pod}; exactly one is needed"
    )
