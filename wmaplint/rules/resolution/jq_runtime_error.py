"""WM701 jq-runtime-error: a definition expression fails when evaluated on a manifest of its kind."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import EvaluationFailed, NoRootComponent
from wmaplint.rules import reports
from wmaplint.rules.examples import jobset_tree

RULE = define(
    "WM701",
    "jq-runtime-error",
    "error",
    "A definition expression fails when evaluated on a manifest of its kind.",
    why="The runtime evaluates the same expression on every workload of the kind and returns the error "
    "instead of a value: building the workload tree stops there (upstream `pkg/tree/builder.go`), so `kli "
    "get` and `kli describe` cannot resolve the workload, and KAI cannot size its pod group from a scale or "
    "instance-id path that fails.",
    bad=jobset_tree(".spec.replicatedJobs[] | .replicas * .template.spec.parallelism.count"),
    good=jobset_tree(),
    fix="Guard optional fields (`.x // default`, `.[]?`) and index only values of the right type.",
    example_mode="tree",
)


@reports(RULE, EvaluationFailed)
def failed(finding: EvaluationFailed) -> str:
    return f"{finding.what} `{finding.program}` failed: {finding.error}"


@reports(RULE, NoRootComponent)
def no_root(finding: NoRootComponent) -> str:
    return "the definition has no rootComponent"
