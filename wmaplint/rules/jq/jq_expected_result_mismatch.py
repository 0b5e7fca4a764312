"""WM240 jq-expected-result-mismatch: a byExpression expectedResult can never equal the expression's text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq.names import resolve
from wmaplint.jq.result_kinds import infer_result_kind
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM240",
    "jq-expected-result-mismatch",
    "error",
    "A byExpression expectedResult can never equal `(<expression>) | tostring`.",
    why="The runtime compares text: a boolean prints as `true`/`false`, a number in shortest form (`1`, not "
    '`1.0`), so `expectedResult: "True"` never matches and the status is never reported.',
    bad=job_with('expectedResult: "true"', 'expectedResult: "True"'),
    good=JOB,
    fix="Write the value exactly as gojq prints it (the message suggests it).",
    tags=("jq", "status"),
)

_TRUE_WORDS = {"true", "yes", "y", "on", "1", "t"}
_FALSE_WORDS = {"false", "no", "n", "off", "0", "f"}
_CANONICAL_NUMBER = re.compile(r"-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?(e[+-][1-9][0-9]*)?")


@expression_check(RULE, lambda role: role.expected_result is not None)
def expected_result_mismatch(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    expected = role.expected_result
    assert expected is not None
    kind = infer_result_kind(tree, resolve(tree).definition_of)
    problem, suggestion = _mismatch(kind, expected)
    if problem is None:
        return
    message = f"expectedResult {json.dumps(expected)} can never match: {problem}"
    if suggestion is not None:
        message += f"; did you mean {json.dumps(suggestion)}?"
    yield ExpressionDiagnostic(RULE.id, message, 0, len(text),
                    data={"suggestions": [suggestion]} if suggestion is not None else {"kind": kind})


def _mismatch(kind: str, expected: str) -> tuple[str | None, str | None]:
    """Why ``expected`` can never be the text of a value of ``kind`` (and a suggestion), or
    ``(None, None)``."""
    if kind == "boolean":
        if expected in ("true", "false"):
            return None, None
        low = expected.strip().lower()
        suggestion = "true" if low in _TRUE_WORDS else "false" if low in _FALSE_WORDS else None
        return "the expression yields a boolean, which prints as `true` or `false`", suggestion
    if kind == "number":
        if _CANONICAL_NUMBER.fullmatch(expected):
            return None, None
        try:
            value = float(expected)
        except ValueError:
            return "the expression yields a number", None
        return "the expression yields a number, and gojq prints numbers in shortest form", _number_text(value)
    if kind == "null":
        if expected == "null":
            return None, None
        return "the expression yields null, which prints as `null`", "null"
    if kind in ("array", "object"):
        try:
            value = json.loads(expected)
        except ValueError:
            return f"the expression yields an {kind}, which prints as compact JSON", None
        wanted = list if kind == "array" else dict
        if not isinstance(value, wanted):
            return f"the expression yields an {kind}, which prints as compact JSON", None
        canonical = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        if canonical != expected:
            return f"the expression yields an {kind}; gojq prints it compact with sorted keys", canonical
    return None, None


def _number_text(value: float) -> str | None:
    """How gojq prints a number, in shortest form (None for the values JSON has no text for)."""
    if value != value or value in (float("inf"), float("-inf")):
        return None
    if value == int(value) and abs(value) < 1e17:
        return str(int(value))
    return repr(value)
