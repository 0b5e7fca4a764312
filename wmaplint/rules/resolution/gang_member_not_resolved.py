"""WM715 gang-member-not-resolved: a pod group member or sub-group names a component that the definition does
not have."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.facts import GangMemberUnknown
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree_with_gang

RULE = define(
    "WM715",
    "gang-member-not-resolved",
    "error",
    "A pod group member or sub-group names a component that the definition does not have.",
    why="Upstream's validator rejects a podGroups member that names no component, and KAI skips a Karta "
    "that fails it (FORMAT.md §3.2, §6); a podGroup sub-group is checked only by KAI when it groups a pod, "
    "which then fails.",
    bad=jobset_tree_with_gang("replicatedjobs"),
    good=jobset_tree_with_gang("replicatedjob"),
    fix="Use the name of a root or child component.",
    example_mode="tree",
)


@reports(RULE, GangMemberUnknown)
def message(fact: GangMemberUnknown) -> str:
    return f"gang member component '{fact.component}' is not defined (should be a root or child component)"
