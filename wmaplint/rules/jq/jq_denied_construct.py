"""WM210 jq-denied-construct: a construct the upstream validator refuses."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM210",
    "jq-denied-construct",
    "error",
    "A construct the upstream validator refuses: `del`, `range`, `paths`, `recurse`, `walk`, `repeat`, `..` "
    "or an assignment operator.",
    why="Definitions are read-only navigation; the upstream validator rejects these (it may miss them inside "
    "`as` bindings or `label` bodies, where the runtime would still run them).",
    bad=job_with("'.spec.parallelism // 1'", "'[.. | .parallelism? // empty] | first // 1'"),
    good=JOB,
    fix="Navigate to the field explicitly instead of searching or modifying the object.",
    tags=("jq",),
)

# Functions that may yield without bound, refused by name wherever they are defined.
_UNBOUNDED = ("range", "paths", "recurse", "walk", "repeat")


@expression_check(RULE)
def denied_constructs(text: str, tree: jqast.Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    for node in jqast.nodes(tree):
        if isinstance(node, jqast.FuncCall):
            if node.name == "del":
                yield ExpressionDiagnostic(
                    RULE.id, "del function is not allowed (definitions only read the object)",
                    node.start, node.name_end)
            elif node.name in _UNBOUNDED:
                yield ExpressionDiagnostic(
                    RULE.id, f"function '{node.name}' may produce excessive output and is not allowed",
                    node.start, node.name_end)
        elif isinstance(node, jqast.RecurseDefault):
            yield ExpressionDiagnostic(
                RULE.id, "recursive descent operator '..' is not allowed", node.start, node.end)
        elif isinstance(node, jqast.Assign):
            yield ExpressionDiagnostic(
                RULE.id, f"modifying operator '{node.op}' is not allowed (definitions only read the object)",
                node.op_start, node.op_start + len(node.op))
