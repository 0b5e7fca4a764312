"""WM235 jq-selector-precedence: a keyPath that changes meaning when the runtime appends `== <value>`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.jq.selector_query import comparison_fault
from wmaplint.jq.wording import clip
from wmaplint.rules import expression_check
from wmaplint.rules.examples import mpijob_with
from wmaplint.rules.jq.jq_trailing_comment import RULE as TRAILING_COMMENT

if TYPE_CHECKING:
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM235",
    "jq-selector-precedence",
    "error",
    "A componentTypeSelector keyPath that changes meaning when the runtime appends `== <value>` to it: a "
    "top-level `//`, `,`, `and`, `or` or comparison.",
    why="The runtime matches a pod when the text `<keyPath> == <value as JSON>` yields `true`. "
    '`.a // .b == "x"` means `.a // (.b == "x")`: a pod with `.a` set yields that text, never `true`, so '
    'it never matches; `.a == "y" == "x"` does not parse. A top-level pipe, `as` binding, `def` or `label` '
    "keeps its meaning: the comparison applies to the last part, whose outputs are the keyPath's (a trailing "
    f"comment is {TRAILING_COMMENT.id}).",
    bad=mpijob_with(
        "'.metadata.labels[\"training.kubeflow.org/replica-type\"]'",
        "'.metadata.labels[\"training.kubeflow.org/replica-type\"] // .metadata.labels.role'",
    ),
    good=mpijob_with(
        "'.metadata.labels[\"training.kubeflow.org/replica-type\"]'",
        "'(.metadata.labels[\"training.kubeflow.org/replica-type\"] // .metadata.labels.role)'",
    ),
    fix="Wrap the keyPath in parentheses; keep a comparison's path in keyPath and its value in value.",
    tags=("jq",),
)


@expression_check(RULE, lambda role: role.selector_value is not None)
def selector_precedence(text: str, tree: jqast.Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    encoded = json.dumps(role.selector_value, ensure_ascii=False)
    fault = comparison_fault(text, encoded)
    if fault is None:
        return
    compared = f"`<keyPath> == {clip(encoded, 30)}`"
    wrapped = None
    if not isinstance(fault, jqast.Node):
        message = (
            f"the runtime's query {compared} does not parse ({fault.message}): a keyPath that is itself a "
            "comparison yields a boolean; keep the path in keyPath and the compared value in value"
        )
    else:
        message = (
            f"the runtime compares {compared}, and the top-level {_operator(fault)} of this keyPath binds "
            "looser than `==`, so only its last part is compared"
        )
        if isinstance(fault, jqast.Binary) and fault.op in ("and", "or"):  # a boolean never equals a string
            message += "; keep only the path in keyPath"
        else:
            stripped = text.strip()
            wrapped = f"({stripped}{_closing(stripped)}"
            message += f"; wrap it: `{clip(wrapped, 80)}`"
    yield ExpressionDiagnostic(RULE.id, message, 0, len(text), replacement=wrapped)


def _operator(node: jqast.Node) -> str:
    """How to name an operator that binds looser than `==` (GOJQ.md §2.2)."""
    if isinstance(node, jqast.Comma):
        return "`,`"
    if isinstance(node, (jqast.Binary, jqast.Assign)):
        return f"`{node.op}`"
    return "operator"


def _closing(text: str) -> str:
    """The `)` that closes a wrapped expression: on its own line when a comment could swallow it, after a
    space when the text ends in a backslash (which would continue the comment onto that line)."""
    if "#" not in text:
        return ")"
    return " \n)" if text.endswith("\\") else "\n)"
