"""WM105 api-version-mismatch: the apiVersion does not belong to the definition's kind."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.model import DEFINITION_KINDS
from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import JOB
from wmaplint.source import ScalarNode
from wmaplint.source.edits import replace_scalar

RULE = define(
    "WM105", "api-version-mismatch", "error",
    "The apiVersion does not belong to the definition's kind.",
    why="Karta objects are served only as run.ai/v1alpha1 (ResourceInterface as "
    "optimization.nvidia.com/v1alpha1); kubectl rejects any other pairing and consumers never see the "
    "definition.",
    bad=JOB.replace("apiVersion: run.ai/v1alpha1", "apiVersion: run.ai/v1"),
    good=JOB,
    fix="Use apiVersion run.ai/v1alpha1 with kind Karta.",
)


@definition_check(RULE)
def api_version_mismatch(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    d = ctx.definition
    api_node = d.document_node.get("apiVersion")
    expected = DEFINITION_KINDS[d.kind]
    if isinstance(api_node, ScalarNode) and api_node.value != expected:
        yield ctx.diag(
            RULE, api_node,
            f"kind {d.kind} is served as apiVersion {expected}, not {api_node.text!r}",
            fixes=fix(f"use {expected}", replace_scalar(api_node, expected)),
        )
