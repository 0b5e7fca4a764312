"""WM736 pod-group-min-available-differs: the pods of one PodGroup compute different min-available."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.resolve.findings import PodGroupMinAvailableDiffers
from wmaplint.rules import reports
from wmaplint.rules.examples import pyflow_tree
from wmaplint.rules.resolution import consumer

_BY_PART = """\
      podGroups:
      - name: job
        members:
        - {componentName: master}
        - {componentName: worker}
"""

RULE = define(
    "WM736",
    "pod-group-min-available-differs",
    "error",
    "The pods of one PodGroup compute different min-available.",
    why="KAI's Karta grouper runs once for every pod and computes the PodGroup's name and min-available from "
    "that pod alone: the subtree scale of the member the pod takes, of the pod's own instance where the "
    "member is the pod's own component (kai-scheduler/KAI-Scheduler@d5bc503 "
    "pkg/podgrouper/podgrouper/plugins/karta/grouper.go getPodGroupMetadataAlpha; the library's "
    "`CalculateSubtreeScale`). The PodGroup handler writes each pod's computation over the PodGroup's spec "
    "(pkg/podgrouper/podgroup/handler.go ApplyToCluster, updater.go updatePodGroup), so where the pods of "
    "one PodGroup compute different values, its minMember is whichever pod KAI reconciled last. That happens "
    "when several members (or the instances of one member) share a PodGroup name: no groupByKeyPaths, or "
    "keys with the same value on the pods of each. Checked on the pods `tree` synthesizes for the manifest, "
    "or on the pods `--pods` lists.",
    bad=pyflow_tree(_BY_PART),
    good=pyflow_tree(),
    fix="Name the common ancestor (often the root) as the one member, so every pod computes the whole "
    "subtree; or give each member or instance a PodGroup of its own with a key whose value differs between "
    "them.",
    example_mode="tree",
)


@reports(RULE, PodGroupMinAvailableDiffers)
def differs(finding: PodGroupMinAvailableDiffers) -> Diagnostic:
    computed = "; ".join(finding.computed)
    message = (f"the {finding.pods} pods of PodGroup {finding.group} ({finding.workload}) compute different "
               f"min-available, each the subtree scale of the member it takes: {computed}; KAI's PodGroup "
               "handler keeps the last pod's (grouper.go getPodGroupMetadataAlpha, CalculateSubtreeScale; "
               "podgroup/updater.go updatePodGroup)")
    return consumer(RULE, finding, message)
