"""WM715 gang-member-not-resolved: a pod group member or sub-group names a component that the definition does
not have."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import GangMemberUnknown
from wmaplint.rules import reports
from wmaplint.rules.examples import PYFLOW_GANG, pyflow_tree

RULE = define(
    "WM715",
    "gang-member-not-resolved",
    "error",
    "A pod group member or sub-group names a component that the definition does not have.",
    why="Upstream's validator rejects a podGroups member that names no component, and KAI skips a Karta "
    "that fails it and groups the workload's pods with its default grouper (FORMAT.md §3.2, §6; "
    "kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/plugins/karta/hub.go getKartaForGvk); a "
    "podGroup sub-group is checked only by KAI when it groups a pod, which then fails (`component %s not "
    "found`, grouping_instruction_validation.go validateSubGroupMapping).",
    bad=pyflow_tree(PYFLOW_GANG.replace("componentName: pyflow", "componentName: pyflows")),
    good=pyflow_tree(),
    fix="Use the name of a root or child component.",
    example_mode="tree",
)


@reports(RULE, GangMemberUnknown)
def message(finding: GangMemberUnknown) -> str:
    return f"gang member component '{finding.component}' is not defined (should be a root or child component)"
