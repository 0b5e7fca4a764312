"""WM115 status-in-input: the file carries a status block, which the operator writes."""

from __future__ import annotations

from wmaplint.definition.structure import StatusBlock
from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB

RULE = define(
    "WM115", "status-in-input", "info",
    "The file carries a status block, which the operator writes.",
    why="status is written by the Karta operator; a status copied from a cluster into a definition file is "
    "ignored on apply and goes stale.",
    bad=JOB + "status:\n  conditions: []\n",
    good=JOB,
    fix="Remove the status block from the definition file.",
)


@reports(RULE, StatusBlock)
def message(finding: StatusBlock) -> str:
    return "the status block is written by the operator and ignored on apply"
