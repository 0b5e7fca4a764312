"""WM717 definition-file-without-definition: a file passed with --definition holds no Karta or
ResourceInterface document with a root kind."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import NoDefinitionInFile
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM717",
    "definition-file-without-definition",
    "error",
    "A file passed with --definition holds no Karta or ResourceInterface document with a root kind.",
    why="Without a root kind the definition matches no manifest, so nothing is resolved with it.",
    bad="""\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: incomplete}
spec:
  structureDefinition:
    rootComponent: {name: job}
""",
    good=jobset_tree(manifest=""),
    fix="Give rootComponent a kind with group, version and kind.",
    example_mode="definition-file",
)


@reports(RULE, NoDefinitionInFile)
def message(finding: NoDefinitionInFile) -> str:
    return "no Karta or ResourceInterface document with a root kind"  # the position names the file
