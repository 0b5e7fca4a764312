"""WM740 pod-group-rejected: KAI's Karta grouper refuses the podGroup (v2) gang for every pod."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.resolve.findings import PodGroupRejected
from wmaplint.rules import reports
from wmaplint.rules.examples import pyflow_tree
from wmaplint.rules.resolution import consumer

_V2 = """\
      podGroup:
        name: training
        subGroups: [{componentName: master}, {componentName: worker}]
"""

RULE = define(
    "WM740",
    "pod-group-rejected",
    "error",
    "KAI's Karta grouper refuses the podGroup (v2) gang: a sub-group without scale, a topology without name "
    "or level.",
    why="For a podGroup (v2) gang KAI's Karta grouper builds one sub-group per subGroups entry, sized by the "
    "subtree scale of its component, and refuses a sub-group whose scale is 0 (`component %s must expose a "
    "replica scale definition`), an empty or unknown component, and a topology without its name or without "
    "a preferred or required level (kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/plugins/"
    "karta/grouper.go getPodGroupMetadataV2, constructSubgroup; grouping_instruction_validation.go). Every "
    "pod of the workload computes the same podGroup, so none of them gets a PodGroup.",
    bad=pyflow_tree(_V2, ".spec.master.replicas}", ".spec.master.minReplicas}"),
    good=pyflow_tree(_V2),
    fix="Give each sub-group's component a scale that is positive on the manifest, and a topology its name "
    "and a level.",
    example_mode="tree",
)


@reports(RULE, PodGroupRejected)
def rejected(finding: PodGroupRejected) -> Diagnostic:
    message = (f"KAI's Karta grouper refuses the podGroup for every pod of the workload: {finding.error} "
               "(grouper.go getPodGroupMetadataV2)")
    return consumer(RULE, finding, message)
