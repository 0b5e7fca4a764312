"""WM550 draft-placeholder: an expression still holds a placeholder `wmaplint new` left for the author."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.rules import expression_check
from wmaplint.rules.examples import job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

# a string of words in angle brackets: no label key, field name or value a controller writes looks like it
PLACEHOLDER = re.compile(r'"(<[a-z][^"<>]* [^"<>]*>)"')

RULE = define(
    "WM550",
    "draft-placeholder",
    "error",
    "An expression still holds a placeholder that `wmaplint new` left where it could not decide.",
    why="`wmaplint new` writes a placeholder such as `.metadata.labels[\"<label naming the entry>\"]` where "
    "neither the schema nor the controller model says what to read, with a TODO comment beside it. The "
    "placeholder is valid jq and reads nothing on a real pod, so the definition would run and silently "
    "attribute no pods.",
    bad=job_with("'(.status.active // 0) > 0'", """'.metadata.labels["<label naming the run>"] != null'"""),
    good=job_with("'(.status.active // 0) > 0'", """'.metadata.labels["job-name"] != null'"""),
    fix="Replace the placeholder with what the TODO comment beside it asks for (the label the controller "
    "writes, from its documentation or code).",
)


@expression_check(RULE)
def placeholders(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    for found in PLACEHOLDER.finditer(text):
        message = f"placeholder {found.group(1)!r} left by `wmaplint new`: replace it as its TODO says"
        yield ExpressionDiagnostic(RULE.id, message, found.start(), found.end())
