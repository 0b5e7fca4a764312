"""WM901 missing-schema: no schema source serves a GVK the definition names, so its paths are not checked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB, job_with
from wmaplint.schema.loader import format_gvk
from wmaplint.typecheck.paths import POD

if TYPE_CHECKING:
    from wmaplint.schema.store import Schemas

RULE = define(
    "WM901", "missing-schema", "warning",
    "No schema source serves a GVK the definition refers to, so its paths are not checked.",
    why="Without the CRD, wmaplint cannot tell whether paths exist or types line up; the definition is only "
    "checked for syntax. Under --strict this is an error so CI cannot pass unchecked.",
    bad=job_with("{group: batch, version: v1, kind: Job}", "{group: example.com, version: v1, kind: Widget}"),
    good=JOB,
    fix="Point --crds or WMAPLINT_SCHEMA_PATH at the CRD, or run `wmaplint schemas add <crd.yaml>` "
    "(`kubectl get crd NAME -o yaml | wmaplint schemas add -`) or `wmaplint schemas pull`.",
    tags=("schema",),
    strict_error=True,
)


@definition_check(RULE)
def missing_schemas(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    schemas, store = ctx.schemas, ctx.store
    root = ctx.definition.root
    if schemas is None or store is None or root is None or root.kind is None:
        return
    gvk = root.kind
    if not schemas.roots:
        message, data = missing_schema(store, gvk.group, gvk.version, gvk.kind)
        yield ctx.diag(RULE, gvk.node, message, data=data)
    pod_exprs = [e for e in ctx.definition.expressions() if e.context == "pod"]
    if not schemas.pods and pod_exprs:
        _, data = missing_schema(store, *POD)
        message = ("no schema for the Kubernetes core API (v1/Pod): pod selectors and gang paths are not "
                   "checked; run `wmaplint schemas pull` (it includes the core OpenAPI documents) or pass "
                   "their directory with --crds")
        yield ctx.diag(RULE, pod_exprs[0].node, message, data=data)


def missing_schema(store: Schemas, group: str, version: str, kind: str) -> tuple[str, dict[str, Any]]:
    """The message and data of a GVK no source serves: the versions of its kind the sources do have, and the
    fix."""
    others = sorted({v for v, _ in store.versions_of(group, kind)} - {version})
    known = f" (the schema sources have {kind} versions {', '.join(others)})" if others else ""
    message = (
        f"no schema for {format_gvk((group, version, kind))}{known}; its paths are not checked. Provide the "
        "CRD with --crds or WMAPLINT_SCHEMA_PATH, or run `wmaplint schemas add <crd.yaml>` / "
        "`wmaplint schemas pull`"
    )
    return message, {"gvk": {"group": group, "version": version, "kind": kind}, "versions": others}
