"""WM739 pod-not-grouped: KAI's Karta grouper fails for a pod before it has a PodGroup: no gang member takes
it, no component describes it, or its instance is not found."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.resolve.findings import PodNotGrouped
from wmaplint.rules import reports
from wmaplint.rules.examples import PYFLOW_GANG, pyflow_tree
from wmaplint.rules.resolution import consumer, pods_shown

_FILTERED = "{componentName: pyflow, filters: ['.metadata.labels.role == \"master\"']}"

RULE = define(
    "WM739",
    "pod-not-grouped",
    "error",
    "KAI's Karta grouper fails for a pod before it has a PodGroup: no gang member, component or instance.",
    why="For every pod, KAI's Karta grouper infers its component (the one with a pod definition, else the "
    "first whose componentTypeSelector matches) and takes the first member among that component and its "
    "ancestors whose filters all give true, and where that member is the pod's own component with instance "
    "ids, the instance its componentInstanceSelector names, which must be one of them "
    "(kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/plugins/karta/grouper.go "
    "getPodGroupMetadataAlpha; the library's `InferPodComponent`, `GetPodGroupingEffectiveComponent`, "
    "`InferPodComponentInstance`). A pod no member takes, a pod the controller makes that no component "
    "describes, and a pod whose instance is not found get no PodGroup: KAI's pod grouper fails for them and "
    "retries, and the scheduler never places them. A filter does not leave a pod to a default gang. Checked "
    "on the pods `tree` synthesizes for the manifest (only where the labels read are known) or lists with "
    "`--pods`; a pod whose own component's selector misses it, or whose instance selector another rule "
    "already finds naming another entry, is that rule's finding (pod-unattributed, selector-claims-no-pod, "
    "instance-selector-mismatch).",
    bad=pyflow_tree(PYFLOW_GANG.replace("{componentName: pyflow}", _FILTERED)),
    good=pyflow_tree(),
    fix="Make every pod's component, or an ancestor of it, a member whose filters the pod passes (often the "
    "root), and describe every pod the controller makes by a component; use filters only to choose between "
    "members.",
    example_mode="tree",
)


@reports(RULE, PodNotGrouped)
def not_grouped(finding: PodNotGrouped) -> Diagnostic:
    message = (f"KAI's Karta grouper fails for {pods_shown(finding.pods, finding.count)}: {finding.error} "
               "(grouper.go getPodGroupMetadataAlpha)")
    return consumer(RULE, finding, message)
