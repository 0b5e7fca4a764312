"""WM202 jq-unknown-function: a call of a function gojq does not define with that number of arguments."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint import spelling
from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import builtins as B
from wmaplint.jq.names import Names, UnresolvedCall, resolve
from wmaplint.jq.parser import line_col
from wmaplint.jq.wording import did_you_mean
from wmaplint.rules import expression_check
from wmaplint.rules.examples import job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM202",
    "jq-unknown-function",
    "error",
    "A jq expression calls a function that gojq does not define with that number of arguments.",
    why="Upstream only parses expressions, so `keys_unsorted`, a misspelled name or a wrong arity passes "
    "validation and fails every evaluation with `function not defined: NAME/ARITY`.",
    bad=job_with("'(.status.active // 0) > 0'",
                 "'(.status.active // 0) > 0 and (.status.conditions | lenght) > 0'"),
    good=job_with("'(.status.active // 0) > 0'",
                  "'(.status.active // 0) > 0 and (.status.conditions | length) > 0'"),
    fix="Use the suggested gojq builtin, or define the function before the query that uses it.",
    tags=("jq",),
)


@expression_check(RULE)
def unknown_functions(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    names = resolve(tree)
    for unresolved in names.unresolved_calls:
        yield _finding(text, unresolved, names)


def _finding(text: str, unresolved: UnresolvedCall, names: Names) -> ExpressionDiagnostic:
    """Why the call is not defined: a definition it cannot see, another arity, or a name nothing has (and
    the names it may have meant)."""
    node, visible = unresolved.call, unresolved.visible
    key = (node.name, node.arity)
    signature = f"{node.name}/{node.arity}"
    suggestions: list[str] = []
    elsewhere = names.definitions.get(key)
    if elsewhere is not None:
        line, col = line_col(text, elsewhere.start)
        message = (
            f"function `{signature}` is defined at {line}:{col} but is not visible here (a definition is "
            "visible only after it and inside the query it opens)"
        )
    else:
        message = f"function `{signature}` is not defined (gojq: function not defined: {signature})"
        if B.arities(node.name) or any(n == node.name for (n, _a) in visible):
            known = sorted(set(B.arities(node.name)) | {a for (n, a) in visible if n == node.name})
            message += f"; `{node.name}` takes {' or '.join(str(a) for a in known)} argument(s)"
        else:
            note = B.C_JQ_ONLY.get(key) or B.NOWHERE.get(node.name)
            if note:
                message += f"; {note}"
            callable_names = B.public_names() + sorted({n for (n, _a) in visible})
            suggestions = spelling.suggestions(node.name, callable_names)
            message += did_you_mean(suggestions)
    return ExpressionDiagnostic(RULE.id, message, node.start, node.name_end,
                     data={"suggestions": suggestions} if suggestions else None)
