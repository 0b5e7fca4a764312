"""Runs the jq analyses on every expression of a definition and places their findings in the file."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.checks import Context, check
from wmaplint.diagnostics import Diagnostic
from wmaplint.rules.context import role_of
from wmaplint.rules.placement import place


@check
def jq_expressions(ctx: Context) -> Iterator[Diagnostic]:
    from wmaplint.jq.analysis import analyze

    for expr in ctx.definition.expressions():
        for finding in analyze(expr.text, role_of(expr)):
            yield place(ctx, expr, finding)
