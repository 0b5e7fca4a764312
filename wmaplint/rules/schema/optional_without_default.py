"""WM305 optional-without-default: a replicasPath reads an optional field that has no default."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import MPIJOB, mpijob_with
from wmaplint.typecheck.expectations import ReplicasWithoutDefault

RULE = define(
    "WM305", "optional-without-default", "warning",
    "A replicasPath reads an optional field that has no default.",
    why="When the field is omitted the path yields null, which the runtime takes as \"replicas not set\", "
    "not as the value the controller defaults to: replica totals fall back to minReplicas or 1 and gang "
    "sizing to minReplicas or 0. A null from minReplicasPath or maxReplicasPath is normal and not reported, "
    "nor are fields of built-in kinds, whose API server fills defaults the OpenAPI does not declare. A "
    "default outside an iteration breaks the instance alignment, so it belongs inside it.",
    bad=mpijob_with(
        "'.spec.mpiReplicaSpecs.Worker.replicas // 1'", "'.spec.mpiReplicaSpecs.Worker.replicas'"
    ),
    good=MPIJOB,
    fix="Give the controller's default next to the field, inside any iteration: "
    "`.items[] | (.replicas // 1)`.",
)


@reports(RULE, ReplicasWithoutDefault)
def message(fact: ReplicasWithoutDefault) -> str:
    return (f"{fact.field} reads an optional field without a default: an object without it yields null, "
            "which the runtime takes as replicas not set, not as the controller's default: totals fall back "
            "to minReplicas or 1, gang sizing to minReplicas or 0; give the default inside any iteration")
