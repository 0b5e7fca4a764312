"""Type-check ``groupByExpressions`` (CEL evaluated against a Pod) with the Pod type from the Kubernetes
OpenAPI."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wmaplint.cel import types as t
from wmaplint.cel.issues import CelIssue, GroupByExpressionError, Pointer

POD_VARIABLES = ("self", "pod")


def check_pod_expression(
    text: str, pod_schema: Mapping[str, Any], resolve_ref: t.RefResolver | None, pointer: Pointer = ()
) -> list[CelIssue]:
    """Issues for one groupByExpressions entry; ``self`` and ``pod`` both name the Pod.

    Any result type is accepted (the value is used as a group key); the type must not be a map or object.
    """
    from wmaplint.cel.checker import check_expression, describe

    pod_type = t.SchemaTypes(resolve_ref).type_of(pod_schema, "Pod") or t.DYN
    result = check_expression(text, {name: pod_type for name in POD_VARIABLES}, None)
    issues = [
        CelIssue(
            GroupByExpressionError,
            f"compilation failed: {describe(p, text)}",
            pointer,
            offset=p.offset,
            expression=text,
        )
        for p in result.problems
    ]
    if not issues and result.output.kind in ("object", "map"):
        issues.append(
            CelIssue(
                GroupByExpressionError,
                f"groupByExpressions must yield a scalar value, not {result.output.render()}",
                pointer,
                expression=text,
            )
        )
    return issues


def openapi_resolver(document: Mapping[str, Any]) -> t.RefResolver:
    """A ``resolve_ref`` for ``#/components/schemas/<name>`` references inside one OpenAPI v3 document."""
    schemas = document.get("components", {}).get("schemas", {}) if isinstance(document, Mapping) else {}

    def resolve(ref: str) -> Mapping[str, Any] | None:
        prefix = "#/components/schemas/"
        if isinstance(ref, str) and ref.startswith(prefix):
            found = schemas.get(ref[len(prefix) :])
            return found if isinstance(found, Mapping) else None
        return None

    return resolve
