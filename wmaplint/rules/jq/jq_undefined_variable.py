"""WM203 jq-undefined-variable: a jq expression reads a `$variable` that is not bound at that point."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint import spelling
from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import builtins as B
from wmaplint.jq.names import resolve
from wmaplint.jq.wording import did_you_mean
from wmaplint.rules import expression_check
from wmaplint.rules.examples import job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM203",
    "jq-undefined-variable",
    "error",
    "A jq expression reads a `$variable` that is not bound at that point.",
    why="gojq rejects unbound variables when it compiles the expression, so the field never yields a value; "
    "`$__loc__` and `$ARGS` do not exist in embedded gojq.",
    bad=job_with("'(.status.active // 0) > 0'", "'.status.active as $a | ($b // 0) > 0'"),
    good=job_with("'(.status.active // 0) > 0'", "'.status.active as $a | ($a // 0) > 0'"),
    fix="Bind the variable with `... as $name |` before using it, or fix its spelling.",
    tags=("jq",),
)


@expression_check(RULE)
def undefined_variables(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    for unbound in resolve(tree).unbound_variables:
        name = unbound.ref.name
        message = f"variable `${name}` is not defined here (gojq: variable not defined: ${name})"
        note = B.UNDEFINED_VARIABLE_NOTES.get(name)
        if note:
            message += f"; {note}"
        suggestions = [f"${s}" for s in spelling.suggestions(name, unbound.bound)]
        yield ExpressionDiagnostic(
            RULE.id, message + did_you_mean(suggestions), unbound.ref.start, unbound.ref.end,
            data={"suggestions": suggestions} if suggestions else None)
