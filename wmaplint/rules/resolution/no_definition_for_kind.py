"""WM710 no-definition-for-kind: no definition describes the kind of this manifest."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import NoDefinition
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_MANIFEST, jobset_tree

RULE = define(
    "WM710",
    "no-definition-for-kind",
    "warning",
    "No definition describes the kind of this manifest.",
    why="Without a definition the manifest cannot be resolved into a workload tree.",
    bad=JOBSET_MANIFEST + "---\napiVersion: example.com/v1\nkind: Unknown\nmetadata: {name: x}\n",
    good=jobset_tree(),
    fix="Pass the definition with --definition FILE or add it to the catalog.",
    example_mode="tree",
)


@reports(RULE, NoDefinition)
def message(finding: NoDefinition) -> str:
    return f"no definition for {finding.gvk}; pass one with --definition FILE"
