"""WM530 selector-label-not-written: a pod selector or gang key reads a label the controller never writes on
those pods."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.reading import LabelRead, carried_pods_of, label_reads, pod_label_reads
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.controllers import a, source_of, written
from wmaplint.rules.examples import PYTORCHJOB

if TYPE_CHECKING:
    from wmaplint.controllers import CreatedObject, KindModel
    from wmaplint.controllers.model import WrittenLabel
    from wmaplint.definition.model import Component, Expr, GangMember
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM530", "selector-label-not-written", "error",
    "A pod selector or gang key reads a label the workload's controller never writes on those pods.",
    why="A selector is evaluated on each running pod; a label the controller does not write there is absent, "
    "so the component claims no pod (or the gang key yields nothing and the pod joins no gang). The facts "
    "are the pods' labels of the controller model (schemas/controllers/, `pods.labels`, each with its "
    "upstream source, e.g. kubeflow/training-operator pkg/controller.v1/common/pod.go for the training "
    "operator's `training.kubeflow.org/replica-type`). Only keys under a prefix the controller owns, or keys "
    "it writes on other pods only, are reported; a key the pod template may set itself is not.",
    bad=PYTORCHJOB.replace("training.kubeflow.org/replica-type", "training.kubeflow.org/replica-role"),
    good=PYTORCHJOB,
    fix="Read a key the message lists: the controller writes those on the component's pods.",
)


@definition_check(RULE)
def selector_label_not_written(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    model = ctx.root_model
    if model is None or model.pods is None:
        return
    components = {c.name: c for c in ctx.definition.components if c.name}
    for component in ctx.definition.components:
        reads = list(pod_label_reads(component))
        if reads:
            yield from _check(ctx, model, component, reads)
    for member in ctx.definition.gang_members:
        owner = components.get(member.component or "")
        if owner is None:
            continue
        exprs = [e for e in ctx.definition.gang_expressions if _under(e, member)]
        reads = [r for e in exprs for r in label_reads(e, "gang key")]
        if reads:
            yield from _check(ctx, model, owner, reads)


def _under(expr: Expr, member: GangMember) -> bool:
    return tuple(expr.pointer[: len(member.pointer)]) == tuple(member.pointer)


def _check(ctx: DefinitionContext, model: KindModel, component: Component,
           reads: list[LabelRead]) -> Iterator[Diagnostic]:
    carried = carried_pods_of(model, ctx.definition, component)
    if carried is None:
        return  # the model cannot tell which of the controller's pods these are
    # the keys written on any of the pods (a logical component's selector is read on all its children's)
    on_pods = {k: v for created in carried for k, v in model.pod_labels(created.name).items()}
    for read in reads:
        if read.key in on_pods:
            continue
        message = _message(model, carried, read, on_pods)
        if message is not None:
            yield ctx.diag(RULE, read.expr.node.span_of(read.start, read.end), message)


def _message(
    model: KindModel, carried: tuple[CreatedObject, ...], read: LabelRead, on_pods: dict[str, WrittenLabel]
) -> str | None:
    assert model.pods is not None
    known = model.pods.labels.get(read.key)
    names = [c.name for c in carried]
    what = (f"the pods of {a(model.kind)}" if names == ["pod"]
            else f"the {' and '.join(names)} pods of {a(model.kind)}")
    if known is not None and known.on:
        others = ", ".join(known.on)
        return (f"{read.where} reads label {read.key!r}, which the controller writes on the {others} pods "
                f"only, not on {what}; on these it writes {written(on_pods)} "
                f"({source_of(model, known.source)})")
    if known is None and model.pods.exhaustive and model.pods.in_domain(read.key):
        return (f"{read.where} reads label {read.key!r}, which the controller never writes on {what}; "
                f"it writes {written(on_pods)} ({source_of(model, model.pods.source)})")
    return None
