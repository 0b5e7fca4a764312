"""WM306 wrong-target-type: a definition path reaches a value of the wrong shape for its field."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.jq.inference.findings import with_article
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.typecheck.expectations import ConditionsNotAList, ConditionsWithoutFields, WrongShape

RULE = define(
    "WM306", "wrong-target-type", "error",
    "A definition path reaches a value of the wrong shape for its field.",
    why="Each definition field expects a specific Kubernetes type (a PodTemplateSpec, a PodSpec, a list of "
    "containers, an integer...), and the runtime converts every output to it through JSON (upstream "
    "`safeConvertSlice`): a value of another type fails the conversion, and the component with it, while an "
    "object of the wrong kind converts without a word into an empty or partial one (a PodSpec read as a "
    "PodTemplateSpec has no containers).",
    bad=job_with("{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: .spec.template.spec}"),
    good=JOB,
    fix="Point the path at a value of the expected type.",
)


@reports(RULE, WrongShape)
@reports(RULE, ConditionsNotAList)
@reports(RULE, ConditionsWithoutFields)
def message(finding: WrongShape | ConditionsNotAList | ConditionsWithoutFields) -> str:
    if isinstance(finding, WrongShape):
        return f"{finding.field} must reach {finding.needed}, but this reaches {with_article(finding.found)}"
    if isinstance(finding, ConditionsNotAList):
        return f"the conditions path must reach a list of conditions, not a {finding.found}"
    named = ", ".join(repr(m) for m in finding.missing)
    return f"the conditions do not have the field(s) {named} named by the conditions definition"
