"""WM302 not-iterable: a jq path iterates or indexes a value that is not a list or an object."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.jq.inference.findings import (
    FieldOfNonObject,
    IndexOfScalar,
    IterationOfNonContainer,
    with_article,
)
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM302", "not-iterable", "error",
    "A jq path iterates or indexes a value that is not a list or an object.",
    why="`.[]` and `.name` on a string or number, and `.[n]` on a number, are runtime errors in gojq "
    "(`cannot iterate over: ...`, `expected an object but got: ...`, GOJQ.md §5.3; gojq indexes a string by "
    "character): the runtime gets the error instead of a value, and the workload cannot be resolved.",
    bad=job_with("'.spec.parallelism // 1'", "'.spec.parallelism[] // 1'"),
    good=JOB,
    fix="Remove the iteration or point the path at the list it was meant to walk.",
)


@reports(RULE, FieldOfNonObject)
@reports(RULE, IndexOfScalar)
@reports(RULE, IterationOfNonContainer)
def message(finding: FieldOfNonObject | IndexOfScalar | IterationOfNonContainer) -> str:
    if isinstance(finding, FieldOfNonObject):
        return f"cannot read field {finding.name!r} of {with_article(' or '.join(finding.kinds))}"
    if isinstance(finding, IndexOfScalar):
        return f"cannot index {with_article(finding.kind)}"
    return f"cannot iterate over {with_article(' or '.join(finding.kinds))}"
