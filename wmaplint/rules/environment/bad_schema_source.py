"""WM902 bad-schema-source: a schema source is missing, unreadable, broken or not structural."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check, reports
from wmaplint.rules.context import DefinitionContext
from wmaplint.schema.errors import SkippedSource

RULE = define(
    "WM902", "bad-schema-source", "warning",
    "A schema source is missing, unreadable, broken or not structural.",
    why="A broken CRD file is skipped, so the kinds it serves are not checked; a missing --crds directory is "
    "usually a typo in CI configuration.",
    bad="apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: "
    "widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Job, plural: jobs}\n  versions: [\n",
    good="apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: "
    "widgets.example.com}\nspec:\n  group: example.com\n  names: {kind: Widget, plural: widgets}\n  scope: "
    "Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      "
    "openAPIV3Schema:\n        type: object\n",
    fix="Fix or remove the schema source; the message names the file and line.",
    example_mode="schema-source",
    tags=("schema",),
    strict_error=True,
)


@definition_check(RULE)
def skipped_sources(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    # after the definition's schemas were looked up: the store finds a broken source when it first reads it
    root = ctx.definition.root
    store = ctx.store
    if ctx.schemas is None or store is None or root is None or root.kind is None:
        return
    for error in store.errors:
        message = f"a schema source was skipped, its kinds are not checked: {error}"
        yield ctx.diag(RULE, root.kind.node, message)


@reports(RULE, SkippedSource)
def skipped_in_validation(finding: SkippedSource) -> str:
    return f"a schema source was skipped, manifests of its kinds are not validated: {finding.error}"
