"""WM714 gang-min-available-unknown: every pod of a PodGroup computes min-available 0 on this manifest."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.resolve.findings import PodGroupEmpty
from wmaplint.rules import reports
from wmaplint.rules.examples import pyflow_tree
from wmaplint.rules.resolution import consumer

RULE = define(
    "WM714",
    "gang-min-available-unknown",
    "warning",
    "Every pod of a PodGroup computes min-available 0 on this manifest.",
    why="KAI's Karta grouper sizes a podGroups PodGroup by the subtree scale of the member a pod takes "
    "(minReplicas if positive, else replicas if positive, else 0, the library's `CalculateSubtreeScale`), "
    "and writes it as the PodGroup's minMember (kai-scheduler/KAI-Scheduler@d5bc503 "
    "pkg/podgrouper/podgrouper/plugins/karta/grouper.go getPodGroupMetadataAlpha, podgroup/handler.go): a "
    "member without a scale on the manifest gives 0, which asks the scheduler for no pod at all. A podGroup "
    "(v2) sub-group of scale 0 is refused instead (pod-group-rejected).",
    bad=pyflow_tree(old=".spec.master.replicas}", new=".spec.master.minReplicas}").replace(
        ".spec.worker.replicas}", ".spec.worker.minReplicas}"),
    good=pyflow_tree(),
    fix="Give the member a scaleDefinition whose replicasPath or minReplicasPath is positive on the "
    "manifest.",
    example_mode="tree",
)


@reports(RULE, PodGroupEmpty)
def group(finding: PodGroupEmpty) -> Diagnostic:
    message = (f"every pod of PodGroup {finding.group} computes min-available 0: member {finding.member} has "
               "no positive scale on this manifest (KAI grouper.go getPodGroupMetadataAlpha, "
               "CalculateSubtreeScale)")
    return consumer(RULE, finding, message)
