"""WM101 yaml-syntax: the file does not parse as YAML (or JSON)."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB
from wmaplint.source.faults import YamlSyntax

RULE = define(
    "WM101", "yaml-syntax", "error",
    "The file is not valid YAML (or JSON).",
    why="A definition that does not parse is rejected by kubectl and by every consumer; the parser stops at "
    "the first fault, so nothing after it is checked.",
    bad=JOB.replace("kind: Karta", "kind: Karta\n  broken: [", 1),
    good=JOB,
    fix="Correct the YAML at the reported position (unclosed brackets, bad indentation, tabs).",
    tags=("yaml",),
)


@reports(RULE, YamlSyntax)
def message(finding: YamlSyntax) -> str:
    return f"YAML syntax error: {finding.problem}"
