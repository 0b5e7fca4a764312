"""Definitions written in tests as plain values, read as the typed model resolution works on."""

from __future__ import annotations

from typing import Any

import yaml

from wmaplint.definition.model import Definition, build
from wmaplint.diagnostics import Diagnostic, Span
from wmaplint.resolve.model import Workload
from wmaplint.resolve.run import workload_diagnostics
from wmaplint.resolve.tree import resolve_workload
from wmaplint.source import find_node, load_text


def typed(value: Any) -> Definition:
    """A definition given as plain values (a Karta, its apiVersion and kind optional), as the typed model
    read from its YAML text."""
    if isinstance(value, Definition):
        return value
    if isinstance(value, dict) and "kind" not in value:
        value = {"apiVersion": "run.ai/v1alpha1", "kind": "Karta", **value}
    [document] = load_text(yaml.safe_dump(value, sort_keys=False), "definition.yaml").documents
    definition = build(document.root)
    assert definition is not None, value
    return definition


def resolve(definition: Any, manifest: Any, **options: Any) -> Workload:
    """``resolve_workload`` with a definition given as plain values."""
    return resolve_workload(typed(definition), manifest, **options)


def findings(workload: Workload) -> list[Diagnostic]:
    """What resolving the workload found, as diagnostics."""
    return workload_diagnostics(workload)


def span_at(definition: Definition, *pointer: str | int) -> Span:
    """The span of the value at ``pointer`` in the definition's document."""
    node = find_node(definition.document_node, pointer)
    assert node is not None, pointer
    return node.span
