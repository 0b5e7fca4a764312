"""WM709 invalid-quantity: a pod template asks for a resource amount that is not a Kubernetes quantity, or
one outside its bounds."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import InvalidQuantity, InvalidReferencedQuantity
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_MANIFEST, jobset_tree

_LEADER = "containers: [{name: main, image: trainer}]}}}}\n  - name: workers"


def _leader_asks(amount: str) -> str:
    """The JobSet example whose leader asks for ``amount`` GPUs."""
    limits = "{limits: {nvidia.com/gpu: " + amount + "}}"
    asks = "containers: [{name: main, image: trainer, resources: " + limits + "}]}}}}"
    return jobset_tree(manifest=JOBSET_MANIFEST.replace(_LEADER, asks + "\n  - name: workers"))


RULE = define(
    "WM709",
    "invalid-quantity",
    "warning",
    "A pod template asks for a resource amount that is not a Kubernetes quantity, or one outside its bounds.",
    why="The API server rejects the pod (or, above 2^63-1, caps the amount, as Kubernetes' Quantity type "
    "documents), and GPU totals cannot count it. Negative amounts and amounts above 2^63-1 are reported the "
    "same way and left out of the totals.",
    bad=_leader_asks("four"),
    good=_leader_asks("4"),
    fix="Write quantities as numbers with an optional suffix: `4`, `500m`, `16Gi`.",
    example_mode="tree",
)


@reports(RULE, InvalidQuantity)
def in_a_pod(finding: InvalidQuantity) -> str:
    return f"{finding.component} instance {finding.instance}: {finding.problem}"


@reports(RULE, InvalidReferencedQuantity)
def in_a_named_object(finding: InvalidReferencedQuantity) -> str:
    return f"{finding.component}, from the object it names: {finding.problem}"
