"""WM711 ambiguous-definition: two definitions describe the same root kind (group, version, kind)."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.facts import AmbiguousDefinition
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_MANIFEST, JOBSET_TREE_HEAD, jobset_tree

RULE = define(
    "WM711",
    "ambiguous-definition",
    "error",
    "Two definitions describe the same root kind (group, version, kind).",
    why="The operator's admission webhook admits one Karta per root kind (FORMAT.md §3.4). Where two meet "
    "anyway, KAI refuses to group the workload's pods (more than one match is an error, FORMAT.md §6) and "
    "`kli` asks to remove one.",
    bad=JOBSET_TREE_HEAD
    + "---\n"
    + JOBSET_TREE_HEAD.replace("jobset-x-k8s-io-jobset-v1alpha2", "jobset-copy")
    + JOBSET_MANIFEST,
    good=jobset_tree(),
    fix="Keep one definition per root kind.",
    example_mode="tree",
)


@reports(RULE, AmbiguousDefinition)
def message(fact: AmbiguousDefinition) -> str:
    return f"{len(fact.names)} definitions describe {fact.gvk} ({', '.join(fact.names)}); keep one"
