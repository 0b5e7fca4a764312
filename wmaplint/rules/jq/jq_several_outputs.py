"""WM222 jq-several-outputs: an expression that must yield exactly one value can yield several."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq.names import resolve
from wmaplint.jq.streams import leak_description, leak_span, output_leaks
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM222",
    "jq-several-outputs",
    "warning",
    "An expression that must yield exactly one value can yield several (an iteration or `,`).",
    why="Pod selector id and replica paths, gang keys and filters must give exactly one value per pod (the "
    "runtime fails with `expected single query result`), and each spec or scale path of a component without "
    "`instanceIdPath` exactly one per object (`instance ids count (1) does not match results count`).",
    bad=job_with(
        "{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: '.spec.template, .spec.template'}"
    ),
    good=JOB,
    fix="Select one element (`[0]`, `first(...)`), or add `instanceIdPath` if the component really has "
    "several instances.",
    tags=("jq", "cardinality"),
)


def _one_value(role: ExprRole) -> bool:
    """Whether the role takes exactly one output: a field of one value, or a per-instance path of a component
    with one instance (no instanceIdPath)."""
    return role.cardinality == "one" or (role.cardinality == "per-instance" and not role.has_instances)


@expression_check(RULE, _one_value)
def several_outputs(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    leaks = output_leaks(tree, resolve(tree).definition_of)
    if not leaks:
        return
    first = leaks[0]
    desc = leak_description(first, text)
    if role.cardinality == "per-instance":
        message = (
            f"{desc} can yield several outputs, but this component has no instanceIdPath, so exactly one is "
            "expected (the runtime reports `instance ids count (1) does not match results count`)"
        )
    else:
        message = f"{desc} can yield several outputs, but `{role.field}` must yield exactly one value"
    yield ExpressionDiagnostic(RULE.id, message, *leak_span(first))
