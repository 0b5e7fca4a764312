"""WM305 optional-without-default: a replicasPath reads an optional field that has no default."""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.controllers.reading import counted_field
from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import define
from wmaplint.findings import ExpressionFinding
from wmaplint.rules import reports
from wmaplint.rules.controllers import source_of
from wmaplint.rules.examples import MPIJOB, mpijob_with
from wmaplint.typecheck.expectations import ReplicasWithoutDefault, with_default

if TYPE_CHECKING:
    from wmaplint.controllers import Admitted
    from wmaplint.rules.context import DefinitionContext
    from wmaplint.typecheck.paths import TypedPath

RULE = define(
    "WM305", "optional-without-default", "warning",
    "A replicasPath reads an optional field that has no default.",
    why="When the field is omitted the path yields null, which the runtime takes as \"replicas not set\", "
    "not as the value the controller defaults to: replica totals fall back to minReplicas or 1 and gang "
    "sizing to minReplicas or 0. A null from minReplicasPath or maxReplicasPath is normal and not reported, "
    "nor are fields of built-in kinds, whose API server fills defaults the OpenAPI does not declare. A "
    "default outside an iteration breaks the instance alignment, so it belongs inside it. Where the "
    "operator's admission sets the field on every object it stores (the controller model's `admission`, "
    "holds `set`), the schema's optional is not what the cluster holds: a field set always is never "
    "reported; one set wherever the operator runs the component is absent only where the component does not "
    "run, and there the runtime's totals still count 1 (dsx-ai-factory/workload-map@6379f20 "
    "`cli/pkg/workload/describe.go` `replicasOf`), so the default to give is 0 (Milvus's operator sets "
    "`replicas` of every component it runs, zilliztech/milvus-operator@31b2ec5 "
    "`apis/milvus.io/v1beta1/milvus_webhook.go` `defaultComponentsReplicas`, and calls the same defaulting "
    "in its controller, `pkg/controllers/milvus_controller.go`).",
    bad=mpijob_with(
        "'.spec.mpiReplicaSpecs.Worker.replicas // 1'", "'.spec.mpiReplicaSpecs.Worker.replicas'"
    ),
    good=MPIJOB,
    fix="Give the controller's default next to the field, inside any iteration: "
    "`.items[] | (.replicas // 1)`; 0 where the operator's admission sets the field wherever the component "
    "runs.",
)


@dataclass(frozen=True, slots=True, eq=False)
class ReplicasUnsetWhereNotRun(ExpressionFinding):
    """The replicas path of ``field`` reads ``read``, which the operator's admission sets on every stored
    object that runs the component (``where``, ``source``): absent, the component runs no pod."""

    field: str
    read: str
    kind: str
    where: str
    source: str
    replacement: str | None = None


def _set_always(admitted: Admitted) -> bool:
    """Whether admission sets the field on every object (the model's ``when`` says `always`, or nothing)."""
    return not admitted.when or admitted.when.split()[0] == "always"


def _as_admitted(ctx: DefinitionContext, path: TypedPath) -> ExpressionFinding | None:
    """The finding as the workload's admission makes it: none where the field read is set on every object, the
    component's own default (0) where it is set wherever the component runs."""
    model, finding = ctx.root_model, path.finding
    counted = counted_field(path.expr.text) if model is not None and model.admission else None
    if model is None or counted is None or not isinstance(finding, ReplicasWithoutDefault):
        return finding
    admitted = [a for a in model.admitted(counted[0]) if a.holds == "set"]
    if not admitted:
        return finding
    if any(_set_always(a) for a in admitted):
        return None
    first = admitted[0]
    source, fix = source_of(model, first.source), with_default(path.expr.text, "0")
    return ReplicasUnsetWhereNotRun(finding.start, finding.end, finding.field, counted[0], model.kind,
                                    first.when, source, fix)


@reports(RULE, ReplicasWithoutDefault, refine=_as_admitted)
def message(finding: ReplicasWithoutDefault) -> str:
    return (f"{finding.field} reads an optional field without a default: an object without it yields null, "
            "which the runtime takes as replicas not set, not as the controller's default: totals fall back "
            "to minReplicas or 1, gang sizing to minReplicas or 0; give the default inside any iteration")


@reports(RULE, ReplicasUnsetWhereNotRun)
def unset_where_not_run(finding: ReplicasUnsetWhereNotRun) -> str:
    return (f"{finding.field} reads {finding.read}, which admission sets on a {finding.kind} {finding.where} "
            f"({finding.source}): a stored {finding.kind} lacks it only where the component does not run, "
            "and there the path yields null, which the runtime's totals count as 1 (minReplicas or 1) for a "
            "component with no pod; give 0 as its default")
