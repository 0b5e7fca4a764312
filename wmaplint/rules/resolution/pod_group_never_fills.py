"""WM737 pod-group-never-fills: a PodGroup's min-available is more than the pods that ever join it."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.resolve.findings import PodGroupNeverFills
from wmaplint.rules import reports
from wmaplint.rules.examples import PYFLOW_GANG, pyflow_tree
from wmaplint.rules.resolution import consumer

RULE = define(
    "WM737",
    "pod-group-never-fills",
    "error",
    "A PodGroup's min-available is more than the pods that ever join it.",
    why="KAI's Karta grouper names a pod's PodGroup by the workload's uid and the pod's groupByKeyPaths "
    "values, and sizes it by the subtree scale of the member the pod takes (kai-scheduler/KAI-Scheduler"
    "@d5bc503 pkg/podgrouper/podgrouper/plugins/karta/grouper.go calcPodGroupName, "
    "getPodGroupMetadataAlpha). A key whose value differs between pods that one member's scale counts "
    "together (a role, a replica index, a pod's own name) splits them into PodGroups that each ask for the "
    "whole member: the scheduler waits for pods that are in other PodGroups, and none of them starts. "
    "Checked where every pod of the workload is known: synthesized for the manifest, or listed with "
    "`--pods`.",
    bad=pyflow_tree(PYFLOW_GANG.replace("{componentName: pyflow}",
                                        "{componentName: pyflow, groupByKeyPaths: [.metadata.labels.role]}")),
    good=pyflow_tree(),
    fix="Group by a key every pod of the member's subtree shares, or name as the member the part the key "
    "selects.",
    example_mode="tree",
)


@reports(RULE, PodGroupNeverFills)
def never_fills(finding: PodGroupNeverFills) -> Diagnostic:
    count = finding.count
    pods = "1 pod of the workload takes" if count == 1 else f"{count} pods of the workload take"
    message = (f"PodGroup {finding.group} ({finding.workload}) asks for min-available "
               f"{finding.min_available}, the subtree scale of member {finding.member}, but only {pods} it: "
               f"{finding.split} (grouper.go calcPodGroupName, getPodGroupMetadataAlpha)")
    return consumer(RULE, finding, message)
