"""WM533 child-kind-not-created: a child component of a kind the parent's controller never creates."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, Severity, define
from wmaplint.rules import definition_check
from wmaplint.rules.controllers import source_of
from wmaplint.rules.examples import PYTORCHJOB

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel, Model
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM533", "child-kind-not-created", "error",
    "A child component has a kind that the workload's controller never creates.",
    why="A component's kind says which objects stand for it in the cluster: pods are attributed through "
    "their owners, and a platform lists the component's objects by kind. A kind the controller never "
    "creates (a Job where the operator creates its pods directly) has no objects, so the component is "
    "empty. What each controller creates is the controller model's (schemas/controllers/, `creates`, e.g. "
    "the training operator creates a PyTorchJob's pods directly, kubeflow/training-operator "
    "pkg/controller.v1/common/pod.go). A kind the controller makes, but without an owner reference to the "
    "workload (`owned: false`), is a warning: the component's objects are real, but the pods are attributed "
    "to a workload by their owner chain only (dsx-ai-factory/workload-map@00e77e4 "
    "`cli/pkg/workload/pods.go` `PodAttributor.Filter`), so its pods are never listed under it. Milvus's "
    "operator installs its dependencies (etcd, MinIO, Pulsar, Kafka) as Helm releases whose StatefulSets "
    "reach the Milvus by no owner (zilliztech/milvus-operator@31b2ec5 `pkg/controllers/dependencies.go`). "
    "Only kinds that run pods are compared, and only for kinds whose model lists every kind they create as "
    "their own (`creates.exhaustive`, with the source where every create call was read).",
    bad=PYTORCHJOB.replace('kind: {group: "", version: v1, kind: Pod}',
                           "kind: {group: batch, version: v1, kind: Job}"),
    good=PYTORCHJOB,
    fix="Give the component the kind the controller creates (the message lists them), or leave the kind out "
    "for a logical component.",
)

# Kinds that run pods: a child of another kind (a Service, a ConfigMap) is not compared.
POD_RUNNERS = {("", "Pod"), ("batch", "Job"), ("apps", "Deployment"), ("apps", "ReplicaSet"),
               ("apps", "StatefulSet"), ("apps", "DaemonSet")}


def _created(model: Model, kind: KindModel, depth: int = 3) -> tuple[set[tuple[str, str]], bool]:
    """(group, kind) of everything ``kind``'s controllers create as the workload's own (with an owner
    reference), and what those objects' controllers do; and whether that is every kind so made (each list
    it comes from marked exhaustive)."""
    found = set(kind.created_kinds())
    whole = kind.creates_exhaustive is True
    if depth:
        for created in kind.creates:
            if not created.owned:
                continue
            group, name = created.group_kind
            version = created.kind.split("/")[-2]
            inner = model.model_for(group, name, version)
            if inner is not None and (inner.group, inner.kind) != (kind.group, kind.kind):
                more, inner_whole = _created(model, inner, depth - 1)
                found |= more
                whole = whole and (inner_whole or not inner.creates)
    return found, whole


@definition_check(RULE)
def child_kind_not_created(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    model = ctx.root_model
    root = ctx.definition.root
    if model is None or not model.creates or root is None or root.kind is None:
        return
    everything = ctx.controller_model
    runners = POD_RUNNERS | {(k.group, k.kind) for k in everything.kinds}
    created, whole = _created(everything, model)
    if not whole:
        return  # the model does not list every kind the controllers make as the workload's own
    gvk = model.gvk(root.kind.version)
    for child in ctx.definition.children:
        kind = child.kind
        if kind is None or (kind.group, kind.kind) not in runners or (kind.group, kind.kind) in created:
            continue
        makes = sorted({c.kind for c in model.creates if c.owned})
        sources = model.creates_source or "; ".join(sorted({c.source for c in model.creates if c.is_pod})[:2])
        message = (f"component {child.name!r} is a {kind}, which the {gvk} "
                   f"controller never creates: it creates {', '.join(makes)} ({source_of(model, sources)})")
        unowned = [c for c in model.creates if not c.owned and c.group_kind == (kind.group, kind.kind)]
        if not unowned:
            yield ctx.diag(RULE, kind.node, message)
            continue
        made = ", ".join(c.name for c in unowned)
        yield ctx.diag(RULE, kind.node, (
            f"component {child.name!r} is a {kind}: the {gvk} controller makes such objects ({made}), but "
            f"without an owner reference to the {model.kind}, so its pods, attributed to a workload by their "
            f"owner chain only, are never listed under this component; it creates {', '.join(makes)} as its "
            f"own ({source_of(model, sources)})"),
            severity=Severity.WARNING)
