"""WM703 replicas-not-a-number: a replicas path yields something that is neither a number nor a numeric
string."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import NotACount
from wmaplint.resolve.values import show
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM703",
    "replicas-not-a-number",
    "error",
    "A replicas path yields something that is neither a number nor a numeric string.",
    why="The runtime reads each output as an optional int32: null means not set; integral numbers and, in "
    "newer releases, base-10 numeric strings are accepted; a name, an object, a fraction, `\"2.0\"` or a "
    "number beyond int32 fails the whole component. A negative number passes the runtime but is reported "
    "too: it is never a replica count.",
    bad=jobset_tree(".spec.replicatedJobs[] | .name"),
    good=jobset_tree(),
    fix="Point replicasPath at the replica count, not at a name or an object.",
    example_mode="tree",
)

_WHY = {
    "infinite": "is infinite (jq's `infinite`), not a replica count",
    "nan": "is NaN, not a replica count",
    "range": "is not a non-negative integer within int32",
    "type": "is not a number",
}


@reports(RULE, NotACount)
def message(finding: NotACount) -> str:
    value = show(finding.value)
    return (f"{finding.field} of {finding.component}: replicas value {value} at index {finding.index} "
            f"{_WHY[finding.reason]}")
