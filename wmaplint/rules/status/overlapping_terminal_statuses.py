"""WM431 overlapping-terminal-statuses: two of completed, failed and running can match the same object."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, RelatedLocation, define
from wmaplint.rules import reports
from wmaplint.rules.examples import CUSTOM
from wmaplint.source import content_span
from wmaplint.status.consistency import TerminalOverlap

RULE = define(
    "WM431",
    "overlapping-terminal-statuses",
    "warning",
    "Two of completed, failed and running can match the same object.",
    why="A workload cannot have succeeded and failed, or be running and failed, yet every status whose "
    "matchers hold is reported: upstream `matchStatus` returns them all in evaluation order, and `kli get` "
    "and `kli describe` print them together (`Running,Failed`). A consumer that keeps one status keeps the "
    "one evaluated first. Success or failure is misreported either way.",
    bad=CUSTOM.replace(
        '[{type: Finished, status: "True"}, {type: Succeeded, status: "False"}]',
        '[{type: Failed, status: "True"}]',
    ),
    good=CUSTOM,
    fix="Make the matchers exclusive: add the distinguishing condition (e.g. Succeeded=False to failed).",
)


@reports(RULE, TerminalOverlap)
def diagnostic(finding: TerminalOverlap) -> Diagnostic:
    a, b = finding.first, finding.second
    found = finding.diagnostic(
        RULE,
        f"an object with {finding.example} matches both {a.label} and {b.label}: a workload cannot be "
        f"{a.key} and {b.key} at once, yet it is reported as both "
        f"({a.key.capitalize()},{b.key.capitalize()}), and a consumer that keeps one status keeps {a.key}, "
        "evaluated first",
    )
    found.related = (RelatedLocation(finding.path, content_span(a.matcher.node), f"{a.label} also matches"),)
    return found
