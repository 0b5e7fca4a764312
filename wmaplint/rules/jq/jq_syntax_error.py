"""WM201 jq-syntax-error: a jq expression does not parse in the gojq dialect the runtime uses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.jq.parser import JqSyntaxError, line_col
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM201",
    "jq-syntax-error",
    "error",
    "A jq expression does not parse in the gojq dialect the runtime uses.",
    why="The runtime parses every expression with gojq; an expression that does not parse makes the upstream "
    "validator reject the whole definition, with `failed to parse JQ expression '...' at '<field>': "
    "unexpected token ...`, which names the field but not the position (gojq keeps the byte offset in the "
    "error value, not in its text: GOJQ.md §5.1).",
    bad=job_with("'(.status.active // 0) > 0'", "'(.status.active // 0 > 0'"),
    good=JOB,
    fix="Correct the expression at the reported position (unbalanced brackets, `?//` written "
    "without a space, single-quoted strings and `&&` are common causes).",
    tags=("jq",),
)


@expression_check(RULE, unparsed=True)
def syntax_error(
    text: str, tree: jqast.Node | JqSyntaxError, role: ExprRole
) -> Iterator[ExpressionDiagnostic]:
    if isinstance(tree, JqSyntaxError):
        line, col = line_col(text, tree.start)
        where = f"{line}:{col}"
        # A message about an unclosed bracket already names the bracket, which is where it is placed.
        named = re.search(rf"\bat {where}(?!\d)", tree.message) is not None
        message = tree.message if named else f"{tree.message} (at {where})"
        yield ExpressionDiagnostic(RULE.id, message, tree.start, tree.end)
        return
    last = tree
    while isinstance(last, (jqast.FuncDef, jqast.Import)) and last.rest is not None:
        last = last.rest
    if isinstance(last, jqast.FuncDef):
        yield ExpressionDiagnostic(
            RULE.id, "the expression has only definitions and no query (gojq: missing query)", 0, len(text))
