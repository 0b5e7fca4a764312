"""WM421 unknown-phase-value: a phase a matcher compares with that the phase field never takes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.paths import normalise_path
from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.examples import POD
from wmaplint.source import ScalarNode
from wmaplint.source.edits import replace_scalar
from wmaplint.spelling import closest
from wmaplint.status.conjunctions import expression_requirement
from wmaplint.status.knowledge import phase_values
from wmaplint.status.mappings import matchers, runtime_status

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM421",
    "unknown-phase-value",
    "warning",
    "A byPhase value (or phase compared in an expression) that the phase field never takes.",
    why="Phases are compared as exact strings; a value outside the controller's set (or the CRD's enum) "
    "never matches, so the status is never reported.",
    bad=POD.replace("byPhase: Succeeded", "byPhase: Succeded"),
    good=POD,
    fix="Use one of the values the message lists (case matters).",
)


@definition_check(RULE)
def unknown_phases(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = runtime_status(ctx.definition)
    if found is None:
        return
    root, status = found
    if status.phase_path is None:
        return
    phase_path = status.phase_path.text
    model = ctx.root_model
    known, source = phase_values(model, phase_path, ctx.root_schema_types, whole=True)
    if not known:
        return  # no list of every value the field takes: a value outside what is known may be right
    setter = model.gvk() if model else (str(root.kind) if root.kind else "")
    values = ", ".join(repr(k) for k in known) + (f"; from {source}" if source else "")
    never_sets = f"{setter or 'the workload'} never sets (values: {values})"
    for key, matcher in matchers(status):
        if matcher.by_phase is not None and matcher.by_phase.value not in known:
            yield _unknown(ctx, matcher.by_phase, matcher.by_phase.value, key, known, never_sets)
        if matcher.expression is None or matcher.expected_result is None:
            continue
        expected = matcher.expected_result
        compared = expression_requirement(matcher.expression.text, expected.value, normalise_path(phase_path))
        if compared.kind == "phase" and compared.value and compared.value not in known:
            # the value stands in expectedResult (fixable) or inside the expression (not)
            node = expected if compared.value == expected.value else matcher.expression.node
            yield _unknown(ctx, node, compared.value, key, known, never_sets, fixable=node is expected)


def _unknown(ctx: DefinitionContext, node: ScalarNode, value: str, key: str, known: tuple[str, ...],
             never_sets: str, fixable: bool = True) -> Diagnostic:
    suggestion = closest(value, [k for k in known if k])
    message = f"{key!r} compares the phase with {value!r}, which {never_sets}"
    if suggestion:
        message += f"; did you mean {suggestion!r}?"
    if not (suggestion and fixable):
        return ctx.diag(RULE, node, message)
    return ctx.diag(RULE, node, message,
                    fixes=fix(f"replace with {suggestion}", replace_scalar(node, suggestion)))
