"""WM730 selector-claims-no-pod: a type selector claims none of the pods the controller creates for it."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import SelectorClaimsNoPod
from wmaplint.rules import reports
from wmaplint.rules.examples import mpijob_tree

RULE = define(
    "WM730",
    "selector-claims-no-pod",
    "warning",
    "A component's componentTypeSelector claims none of the pods the controller creates for it.",
    why="`tree` synthesizes the pods the workload's controller creates for the manifest, with the labels it "
    "writes (the pod template's, and those the controller model knows how to derive), and runs the "
    "definition's selectors on them. A component whose selector claims none of its own pods shows no pods, "
    "no status and no gang on the platform. Nothing is said where a label the selector reads is not known "
    "on the pod.",
    bad=mpijob_tree("value: worker}", "value: Worker}"),
    good=mpijob_tree(),
    fix="Compare with the labels the message lists: the controller writes those on the component's pods.",
    example_mode="tree",
)


@reports(RULE, SelectorClaimsNoPod)
def claims_no_pod(finding: SelectorClaimsNoPod) -> str:
    # the wording runs only when there is a finding to word; every check imports the rules, not decimal
    from wmaplint.resolve.quantities import counted

    carry = "it carries" if finding.pods == 1 else "they carry"
    return (
        f"componentTypeSelector of {finding.component} claims none of the {counted(finding.pods, 'pod')} the "
        f"controller creates for it: {carry} {finding.carried} (labels written per {finding.source})"
    )
