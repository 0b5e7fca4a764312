"""WM205 jq-unknown-format: an `@format` that gojq does not have."""

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
    "WM205",
    "jq-unknown-format",
    "error",
    "An `@format` that gojq does not have (`@base32` included).",
    why="gojq parses and compiles any `@name` and fails only when the expression runs: `format not defined`.",
    bad=job_with("'(.status.active // 0) > 0'", "'(.status.active // 0 | @base32) != \"\"'"),
    good=job_with("'(.status.active // 0) > 0'", "'(.status.active // 0 | @base64) != \"\"'"),
    fix="Use one of @text @json @html @uri @urid @csv @tsv @sh @base64 @base64d.",
    tags=("jq",),
)


@expression_check(RULE)
def unknown_formats(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    for use in resolve(tree).formats:
        if use.name in B.FORMATS:
            continue
        suggestions = [f"@{s}" for s in spelling.suggestions(use.name, sorted(B.FORMATS))]
        message = (f"format `@{use.name}` does not exist in gojq (it fails at run time: format not defined: "
                   f"@{use.name})")
        yield ExpressionDiagnostic(RULE.id, message + did_you_mean(suggestions), use.start, use.end,
                        data={"suggestions": suggestions} if suggestions else None)
