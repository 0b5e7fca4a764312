"""WM732 instance-selector-mismatch: an instance selector does not give the pods' own instance id."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import InstanceSelectorMismatch
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_SELECTOR, jobset_tree_with_pods

RULE = define(
    "WM732",
    "instance-selector-mismatch",
    "warning",
    "componentInstanceSelector gives the pods of one instance another id, or none.",
    why="On the pods `tree` synthesizes for the manifest (with the labels the controller writes), the "
    "instance selector must give each pod the id instanceIdPath gives its entry; otherwise the platform "
    "files the pods under the wrong instance, or under none.",
    bad=jobset_tree_with_pods(
        JOBSET_SELECTOR.replace("jobset.sigs.k8s.io/replicatedjob-name", "jobset.sigs.k8s.io/jobset-name"),
        pod="",
    ),
    good=jobset_tree_with_pods(pod=""),
    fix="Read the label whose value is the entry's id (for a list of named entries, its name).",
    example_mode="tree",
)


@reports(RULE, InstanceSelectorMismatch)
def instance_mismatch(finding: InstanceSelectorMismatch) -> str:
    given = repr(finding.given) if finding.given is not None else "no single value"
    return (
        f"componentInstanceSelector of {finding.component} gives {given} on the pods the controller creates "
        f"for instance {finding.instance!r} (such as {finding.pod}; labels written per {finding.source})"
    )
