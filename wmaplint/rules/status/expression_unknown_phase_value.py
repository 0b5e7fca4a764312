"""WM441 expression-unknown-phase-value: a byExpression compares the phase with a value it never takes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.paths import normalise_path
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import POD
from wmaplint.spelling import closest
from wmaplint.status.compared import string_comparisons
from wmaplint.status.conjunctions import expression_requirement
from wmaplint.status.knowledge import phase_values
from wmaplint.status.mappings import matchers, runtime_status

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

_EXPR = """'.status.phase == "Failed" or .status.phase == "Unknown"'"""

RULE = define(
    "WM441", "expression-unknown-phase-value", "warning",
    "A byExpression compares the phase with a value the phase field never takes.",
    why="Phases are compared as exact strings; a value the controller never sets (or the CRD's enum lacks) "
    "inside a larger expression makes that comparison always false. A plain `phase == value` expression and "
    "byPhase are checked by unknown-phase-value; an expression that reads another phase field whole "
    "(`.status.jobStatus // \"\"`) is checked against its expectedResult here. Known values are the "
    "controller model's lists that name every value (`exhaustive`) "
    "(schemas/controllers/, `status.phases`, e.g. core/v1 PodPhase) and the CRD's enum.",
    bad=POD.replace("failed: [{byPhase: Failed}]",
                    "failed: [{byExpression: {expression: " + _EXPR.replace("Unknown", "Unknwon")
                    + ", expectedResult: \"true\"}}]"),
    good=POD.replace("failed: [{byPhase: Failed}]",
                     "failed: [{byExpression: {expression: " + _EXPR + ", expectedResult: \"true\"}}]"),
    fix="Compare with a value the message lists (case matters).",
)


@definition_check(RULE)
def expression_unknown_phase_value(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = runtime_status(ctx.definition)
    if found is None:
        return
    _, status = found
    model = ctx.root_model
    paths = set(model.status.phases) if model is not None and model.status is not None else set()
    if status.phase_path is not None:
        paths.add(normalise_path(status.phase_path.text))
    trees = {id(p.expr): p.tree for p in ctx.expressions}
    for key, matcher in matchers(status):
        expr = matcher.expression
        tree = trees.get(id(expr)) if expr is not None else None
        if expr is None or tree is None:
            continue
        if matcher.expected_result is not None and status.phase_path is not None:
            plain = expression_requirement(expr.text, matcher.expected_result.value,
                                           normalise_path(status.phase_path.text))
            if plain.kind == "phase":
                continue  # a plain phase comparison: unknown-phase-value's
        expected = matcher.expected_result
        path = normalise_path(expr.text)
        if expected is not None and path in paths and isinstance(expected.value, str) and expected.value:
            # the expression reads another phase field whole (`.status.jobStatus // ""`): its result is
            # compared with expectedResult
            known, source = phase_values(model, path, ctx.root_schema_types, whole=True)
            if known and expected.value not in known:
                yield ctx.diag(RULE, expected, _message(key, path, expected.value, known, source))
            continue
        for compared in string_comparisons(tree, expr.text):
            path = normalise_path(compared.other_text)
            if path not in paths or compared.value == "":
                continue  # an empty phase is what an absent field reads as (`// ""`)
            known, source = phase_values(model, path, ctx.root_schema_types, whole=True)
            if not known or compared.value in known:
                continue
            yield ctx.diag(RULE, expr.node.span_of(compared.start, compared.end),
                           _message(key, path, compared.value, known, source))


def _message(key: str, path: str, value: str, known: tuple[str, ...], source: str) -> str:
    message = (f"{key!r} compares {path} with {value!r}, a value it never takes (values: "
               f"{', '.join(repr(k) for k in known)}; from {source})")
    suggestion = closest(value, [k for k in known if k])
    return message + (f"; did you mean {suggestion!r}?" if suggestion else "")
