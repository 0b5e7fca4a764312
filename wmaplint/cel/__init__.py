"""CEL for wmaplint: the Kubernetes CEL environment, schema -> CEL types, validation rule checks and
evaluation.

Public API (imported lazily so ``import wmaplint.cel`` never loads cel-expr-python):
``check_crd(doc)``, ``check_schema(schema, pointer, resolve_ref=...)``, ``validate_object(schema, obj,
resolve_ref)``, ``check_pod_expression(text, pod_schema, resolve_ref)``, ``schema_type(schema, resolve_ref,
root=...)``, ``CelIssue``, ``CelViolation`` (what they find: ``wmaplint.cel.issues``).
"""

from __future__ import annotations

from typing import Any

from wmaplint.cel.issues import CelIssue, CelViolation

__all__ = [
    "CelIssue",
    "CelViolation",
    "check_crd",
    "check_schema",
    "check_pod_expression",
    "schema_type",
    "validate_object",
]

_LAZY = {
    "check_crd": "wmaplint.cel.crd",
    "check_schema": "wmaplint.cel.crd",
    "validate_object": "wmaplint.cel.evaluate",
    "check_pod_expression": "wmaplint.cel.pod",
    "schema_type": "wmaplint.cel.types",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'wmaplint.cel' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
