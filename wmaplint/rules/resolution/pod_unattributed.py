"""WM712 pod-unattributed: a pod of the workload is claimed by no component."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import PodInstanceUnknown, PodUnattributed
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_PODS, jobset_tree_with_pods

RULE = define(
    "WM712",
    "pod-unattributed",
    "warning",
    "A pod of the workload is claimed by no component.",
    why="The platform cannot show, count or gang-schedule pods that no component selector claims.",
    bad=jobset_tree_with_pods(
        pod=JOBSET_PODS.replace("replicatedjob-name: workers", "replicatedjob-name: evaluators")
    ),
    good=jobset_tree_with_pods(),
    fix="Make the componentTypeSelector and instance idPath read labels that the pods carry.",
    example_mode="tree",
)


@reports(RULE, PodUnattributed)
def unclaimed(finding: PodUnattributed) -> str:
    return f"pod {finding.pod} is claimed by no component of {finding.kind} {finding.name}"


@reports(RULE, PodInstanceUnknown)
def unknown_instance(finding: PodInstanceUnknown) -> str:
    return (
        f"pod {finding.pod} names instance {finding.instance!r} of {finding.component}, which the manifest "
        f"does not have ({', '.join(finding.known) or 'no instances'})"
    )
