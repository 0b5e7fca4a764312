"""WM702 instance-count-mismatch: a spec or scale path yields a different number of outputs than the
component has instances."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import FragmentCountMismatch, OutputCountMismatch
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM702",
    "instance-count-mismatch",
    "error",
    "A spec or scale path yields a different number of outputs than the component has instances.",
    why="Output i of every spec/scale path belongs to instance i (the zip rule); the runtime rejects the "
    "component when the counts differ. `.a[].x // 1` is the usual cause: `//` applies to the whole stream.",
    bad=jobset_tree(".spec.replicatedJobs[].replicas // 1"),
    good=jobset_tree(".spec.replicatedJobs[] | (.replicas // 1)"),
    fix="Apply defaults per element: `.a[] | (.x // 1)`.",
    example_mode="tree",
)


@reports(RULE, OutputCountMismatch)
def outputs(finding: OutputCountMismatch) -> str:
    return (
        f"{finding.field} of {finding.component} gave {finding.outputs} output(s) but the component has "
        f"{finding.instances} instance(s) (instance ids count ({finding.instances}) does not match results "
        f"count ({finding.outputs}))"
    )


@reports(RULE, FragmentCountMismatch)
def fragments(finding: FragmentCountMismatch) -> str:
    head = f"the fragments of {finding.component} give {finding.pods} pod definition(s)"
    if finding.ids is None:
        return f"{head}; a component without instanceIdPath has exactly one"
    return f"{head} but instanceIdPath gives {finding.ids} id(s)"
