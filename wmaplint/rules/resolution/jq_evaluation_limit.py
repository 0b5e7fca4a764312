"""WM706 jq-evaluation-limit: a definition expression exceeds the runtime's limits (1000 outputs or the time
bound)."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import LimitExceeded
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM706",
    "jq-evaluation-limit",
    "error",
    "A definition expression exceeds the runtime's limits (1000 outputs or the time bound).",
    why="The runtime's jq runner stops an evaluation at 1000 outputs or after 10 seconds with an error "
    "(FORMAT.md §3.3), so the workload never resolves.",
    bad=jobset_tree(".spec.replicatedJobs[] | until(false; .) | 1"),
    good=jobset_tree(),
    fix="Remove unbounded loops and generators; navigate to the values directly.",
    example_mode="tree",
)


@reports(RULE, LimitExceeded)
def message(finding: LimitExceeded) -> str:
    return f"{finding.what} `{finding.program}` failed: {finding.error}"
