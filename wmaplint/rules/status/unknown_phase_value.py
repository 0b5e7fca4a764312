"""WM421 unknown-phase-value: a phase a matcher compares with that the phase field never takes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.paths import normalise_path
from wmaplint.diagnostics import Diagnostic, Severity, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.examples import POD
from wmaplint.source import ScalarNode
from wmaplint.source.edits import replace_scalar
from wmaplint.spelling import closest
from wmaplint.status.conjunctions import expression_requirement
from wmaplint.status.knowledge import phase_values
from wmaplint.status.mappings import matchers, runtime_status

if TYPE_CHECKING:
    from wmaplint.definition.model import Matcher
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM421",
    "unknown-phase-value",
    "warning",
    "A byPhase value (or phase compared in an expression) that the phase field never takes.",
    why="Phases are compared as exact strings; a value outside the controller's set (or the CRD's enum) "
    "never matches. Where no other matcher of that status can match, the status is never reported: a "
    "warning. Where another one can (NIMService's `Pending` beside `NotReady` under initializing; "
    "NVIDIA/k8s-nim-operator@f63f74d declares NIMServiceStatusPending and never assigns it), the matcher is "
    "a dead alternative and the workload is still read right: an info.",
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
    unknown = [(key, matcher, found) for key, matcher in matchers(status)
               for found in _never_taken(matcher, normalise_path(phase_path), known)]
    dead = {id(matcher) for _, matcher, _ in unknown}
    for key, _, (node, value, fixable) in unknown:
        alive = any(id(other) not in dead for other in status.mappings.get(key, ()))
        yield _unknown(ctx, node, value, key, known, never_sets, fixable=fixable, alternative=alive)


def _never_taken(matcher: Matcher, phase_path: str, known: tuple[str, ...]
                 ) -> Iterator[tuple[ScalarNode, str, bool]]:
    """Where ``matcher`` compares the phase with a value outside ``known``: the node, the value, and whether
    the node is the value itself (which a fix can replace)."""
    if matcher.by_phase is not None and matcher.by_phase.value not in known:
        yield matcher.by_phase, matcher.by_phase.value, True
    if matcher.expression is None or matcher.expected_result is None:
        return
    expected = matcher.expected_result
    compared = expression_requirement(matcher.expression.text, expected.value, phase_path)
    if compared.kind == "phase" and compared.value and compared.value not in known:
        # the value stands in expectedResult (fixable) or inside the expression (not)
        node = expected if compared.value == expected.value else matcher.expression.node
        yield node, compared.value, node is expected


def _unknown(ctx: DefinitionContext, node: ScalarNode, value: str, key: str, known: tuple[str, ...],
             never_sets: str, *, fixable: bool, alternative: bool) -> Diagnostic:
    """The finding on one value; ``alternative``: another matcher of the same status can still match, so
    this one is only dead (an info)."""
    suggestion = closest(value, [k for k in known if k])
    message = f"{key!r} compares the phase with {value!r}, which {never_sets}"
    if alternative:
        message += f"; a dead alternative: {key!r} is still reported by its other matchers"
    if suggestion:
        message += f"; did you mean {suggestion!r}?"
    severity = Severity.INFO if alternative else None
    if not (suggestion and fixable):
        return ctx.diag(RULE, node, message, severity=severity)
    return ctx.diag(RULE, node, message, severity=severity,
                    fixes=fix(f"replace with {suggestion}", replace_scalar(node, suggestion)))
