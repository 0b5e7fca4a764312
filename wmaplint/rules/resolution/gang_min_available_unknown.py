"""WM714 gang-min-available-unknown: the gang scheduler gets no positive min-available for a pod group on
this manifest."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.facts import GangScaleZero, PodGroupEmpty
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree_with_gang

RULE = define(
    "WM714",
    "gang-min-available-unknown",
    "warning",
    "The gang scheduler gets no positive min-available for a pod group on this manifest.",
    why="KAI sizes a gang from the members' subtree scale (minReplicas if positive, else replicas if "
    "positive, else 0; upstream `CalculateSubtreeScale`). A podGroup sub-group of scale 0 is refused "
    "(`component %s must expose a replica scale definition`), and a podGroups group whose members add up to "
    "0 gets a min-available of 0.",
    bad=jobset_tree_with_gang("replicatedjob", ".spec.replicatedJobs[] | 0"),
    good=jobset_tree_with_gang("replicatedjob"),
    fix="Give every gang member a scaleDefinition whose replicasPath or minReplicasPath is positive.",
    example_mode="tree",
)


@reports(RULE, GangScaleZero)
def member(fact: GangScaleZero) -> str:
    return (
        f"min-available of '{fact.component}' cannot be computed on this manifest: component "
        f"{fact.component} must expose a replica scale definition (its subtree scale is 0)"
    )


@reports(RULE, PodGroupEmpty)
def group(fact: PodGroupEmpty) -> str:
    return (
        f"pod group '{fact.group}' gets a min-available of 0 on this manifest: its members' replica scale "
        "adds up to 0"
    )
