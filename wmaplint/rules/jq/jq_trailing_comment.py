"""WM236 jq-trailing-comment: an expression ends in a comment that swallows the text the runtime adds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import parser
from wmaplint.jq.wording import clip
from wmaplint.rules import expression_check
from wmaplint.rules.examples import job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM236",
    "jq-trailing-comment",
    "error",
    "A byExpression, a componentTypeSelector keyPath compared with a value, or a spec or suspend path ends "
    "in a comment that swallows the text the runtime adds after it.",
    why="The runtime evaluates a byExpression as `(<expression>) | tostring` and a keyPath with a value as "
    "`<keyPath> == <value as JSON>`, and it writes through spec and suspend paths as `(<path>) = $val`, or "
    "`[path(<path>)] as $paths | ...` for a component with instances (upstream accessor and runner "
    "`Assign`, `AssignZip`). A comment on the last line runs to the end of that text: the byExpression "
    "query no longer parses, so the status of every workload fails to evaluate; the keyPath loses its "
    "comparison, so no pod matches; and the write does not parse, so suspending the workload or updating "
    "its pod template fails, although reading the path still works.",
    bad=job_with("'(.status.active // 0) > 0'", "'(.status.active // 0) > 0  # pods are running'"),
    good=job_with("'(.status.active // 0) > 0'", "\"(.status.active // 0) > 0  # pods are running\\n\""),
    fix="End the expression with a line break after the comment (a `|` block scalar does), or drop the "
    "comment.",
    tags=("jq",),
)


def _appended_to(role: ExprRole) -> bool:
    """Whether the runtime puts text after the expression: it wraps a byExpression (`(<e>) | tostring`),
    compares a keyPath with its value (`<k> == <v>`, FORMAT.md §2.5 and §2.7) and writes through a path
    (`(<p>) = $val`, `[path(<p>)] as $paths | ...`, upstream runner.go)."""
    return role.selector_value is not None or role.field == "expression" or role.writable


@expression_check(RULE, _appended_to)
def trailing_comment(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    start = parser.trailing_comment(text, tree.end)
    if start is None:
        return
    if role.writable:
        consequence = (
            "the `) = $val` the runtime appends to write through it (`(<path>) = $val`, or "
            "`[path(<path>)] as $paths | ...` for several instances): the write does not parse, so updating "
            "the workload through this path fails (reading it still works)"
        )
    elif role.selector_value is not None:
        encoded = clip(json.dumps(role.selector_value, ensure_ascii=False), 30)
        consequence = (
            f"the ` == {encoded}` the runtime appends: the query yields the keyPath's own values, never "
            "`true`, so no pod matches"
        )
    else:
        consequence = (
            "the `) | tostring` the runtime wraps it in: `(<expression>) | tostring` does not parse, so the "
            "status of every workload fails to evaluate"
        )
    message = (
        f"the expression ends in a comment, which swallows {consequence}; end the comment with a line break"
    )
    yield ExpressionDiagnostic(
        RULE.id, message, start, len(text.rstrip()), replacement=text.rstrip(" \t") + " \n")
