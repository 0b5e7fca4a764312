"""Type-check ``groupByExpressions`` (CEL evaluated against a Pod) with the Pod type from the Kubernetes
OpenAPI."""

from __future__ import annotations

from wmaplint.cel import types as t
from wmaplint.cel.issues import CelIssue, GroupByExpressionError, Pointer
from wmaplint.schema.raw import RawSchema, RefResolver

POD_VARIABLES = ("self", "pod")


def check_pod_expression(
    text: str, pod_schema: RawSchema, resolve_ref: RefResolver | None, pointer: Pointer = ()
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
