"""WM711 ambiguous-definition: two definitions describe the same root kind (group, version, kind)."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import AmbiguousDefinition
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_MANIFEST, JOBSET_TREE_HEAD, jobset_tree

RULE = define(
    "WM711",
    "ambiguous-definition",
    "error",
    "Two definitions describe the same root kind (group, version, kind).",
    why="The operator's admission webhook admits one Karta per root kind (FORMAT.md §3.4), and `kli` asks to "
    "remove one. KAI's Karta hub takes the definitions of the pods' top owner's exact kind that have gang "
    "instructions and pass the validator; where two such meet, that is an error and it groups the pods with "
    "neither (kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/plugins/karta/hub.go "
    "getKartaForGvk). The message says which KAI takes.",
    bad=JOBSET_TREE_HEAD
    + "---\n"
    + JOBSET_TREE_HEAD.replace("jobset-x-k8s-io-jobset-v1alpha2", "jobset-copy")
    + JOBSET_MANIFEST,
    good=jobset_tree(),
    fix="Keep one definition per root kind.",
    example_mode="tree",
)


@reports(RULE, AmbiguousDefinition)
def message(finding: AmbiguousDefinition) -> str:
    kai = f"; {finding.kai}" if finding.kai else ""
    names = ", ".join(finding.names)
    return f"{len(finding.names)} definitions describe {finding.gvk} ({names}); keep one{kai}"
