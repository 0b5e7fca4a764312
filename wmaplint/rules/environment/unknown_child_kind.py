"""WM903 unknown-child-kind: no schema source knows the kind a child component names."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import job_with

# API groups served by Kubernetes itself: a child kind there is real even when no schema source has it.
BUILT_IN_GROUPS = frozenset({
    "", "apps", "batch", "autoscaling", "policy", "networking.k8s.io", "rbac.authorization.k8s.io",
    "storage.k8s.io", "scheduling.k8s.io", "node.k8s.io", "coordination.k8s.io", "discovery.k8s.io",
    "resource.k8s.io",
})


CHILD = """\
    childComponents:
    - name: pods
      ownerRef: job
      kind: {{group: "", version: v1, kind: {kind}}}
    rootComponent:"""


def _with_child(kind: str) -> str:
    """The Job example with a child component of core kind ``kind``."""
    return job_with("    rootComponent:", CHILD.format(kind=kind))


RULE = define(
    "WM903", "unknown-child-kind", "warning",
    "No schema source knows the kind a child component names.",
    why="A child's kind names the Kubernetes objects the component stands for, and consumers report the "
    "component as that kind (the upstream workload tree carries it; kli describe prints it). A kind with a "
    "typo, or of an operator release you do not run, names objects that never exist.",
    bad=_with_child("Pods"),
    good=_with_child("Pod"),
    fix="Correct the group, version or kind, or provide the CRD with --crds.",
    tags=("schema",),
    strict_error=True,
)


@definition_check(RULE)
def unknown_child_kinds(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    schemas, store = ctx.schemas, ctx.store
    if schemas is None or store is None:
        return
    for child in ctx.definition.children:
        k = child.kind
        if k is None or not k.kind or not k.version or store.lookup(k.group, k.version, k.kind):
            continue
        if k.group in BUILT_IN_GROUPS and not schemas.pods:
            continue  # a real Kubernetes kind; the missing core schemas are reported once (missing-schema)
        yield ctx.diag(RULE, k.node,
                       f"no schema source knows {k} (child component {child.label!r}); check the spelling or "
                       "provide its CRD with --crds",
                       data={"gvk": {"group": k.group, "version": k.version, "kind": k.kind}})
