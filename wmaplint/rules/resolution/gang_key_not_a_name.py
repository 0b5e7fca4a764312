"""WM738 gang-key-not-a-name: a groupByKeyPaths entry gives a pod no value, several, an empty one, or one that
makes no valid PodGroup name."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.resolve.findings import GangKeyNotAName
from wmaplint.rules import reports
from wmaplint.rules.examples import PYFLOW_GANG, pyflow_tree
from wmaplint.rules.resolution import consumer, pods_shown

_KEYED = "{componentName: pyflow, groupByKeyPaths: ['.metadata.labels[\"job-name\"]%s']}"

RULE = define(
    "WM738",
    "gang-key-not-a-name",
    "error",
    "A groupByKeyPaths entry gives a pod no value, several, an empty one, or one that makes no valid "
    "PodGroup name.",
    why="KAI's Karta grouper takes exactly one value of each groupByKeyPaths entry, neither null nor empty "
    "(the library's `ExtractGroupKeys`), appends the values to `pg-<uid>` and requires the result to be a "
    "DNS-1123 subdomain (kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/plugins/karta/"
    "grouper.go, grouping_instruction_validation.go validatePodGroupNameFromGroupingKeys). Otherwise it "
    "fails for the pod, which then has no PodGroup and is not scheduled. Checked on the pods `tree` "
    "synthesizes (only where the labels a key reads are known) or lists with `--pods`.",
    bad=pyflow_tree(PYFLOW_GANG.replace("{componentName: pyflow}", _KEYED % " | ascii_upcase")),
    good=pyflow_tree(PYFLOW_GANG.replace("{componentName: pyflow}", _KEYED % "")),
    fix="Read a label every pod carries with one lowercase value of letters, digits, '-' and '.'.",
    example_mode="tree",
)


@reports(RULE, GangKeyNotAName)
def not_a_name(finding: GangKeyNotAName) -> Diagnostic:
    message = (f"KAI's Karta grouper fails for {pods_shown(finding.pods, finding.count)}: {finding.error} "
               "(grouper.go getPodGroupMetadataAlpha)")
    return consumer(RULE, finding, message)
