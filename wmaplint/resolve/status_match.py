"""The workload status a platform shows, evaluated from the root's statusDefinition as the runtime does.

byPhase compares the first output of ``phaseDefinition.path``; byConditions looks conditions up by type
(a later duplicate wins) and compares status/reason as strings; byExpression compares the first output of
``(<expression>) | tostring`` with ``expectedResult``. Fields of one matcher are ANDed, list entries ORed,
and an empty matcher always matches. All matching statuses are listed in the runtime's evaluation order, as
upstream reports them all; the single status given is the first match, else Undefined. Where the runtime's
status extraction fails (an expression errs, a phase that is not a string, conditions that are not lists of
objects) a finding says so; tests/resolve/test_status_gojq.py holds this against gojq on recorded objects.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from wmaplint.resolve.findings import EvaluationFailed
from wmaplint.resolve.model import StatusResult
from wmaplint.source import SequenceNode, to_python

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr, Matcher, StatusDefinition
    from wmaplint.resolve.evaluate import Evaluator
    from wmaplint.source.plain import Json

EVALUATION_ORDER = (
    ("resuming", "Resuming"),
    ("suspending", "Suspending"),
    ("suspended", "Suspended"),
    ("running", "Running"),
    ("failed", "Failed"),
    ("completed", "Completed"),
    ("initializing", "Initializing"),
    ("degraded", "Degraded"),
)
UNDEFINED = "Undefined"


def _text(value: Json) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))


class _Observed:
    """The phase and conditions the definition reads from the manifest."""

    def __init__(self, definition: StatusDefinition, evaluator: Evaluator):
        self.evaluator = evaluator
        self.definition = definition
        self.phase: Any = None
        self.conditions: list[dict[str, Any]] = []
        self.by_type: dict[str, dict[str, Any]] = {}
        phase_path, conditions_path = definition.phase_path, definition.conditions_path
        if phase_path is not None:
            result = evaluator.run(phase_path, "phase path")
            self.phase = result.first if result else None
            outputs = [o for o in (result.outputs if result else ()) if o is not None]
            wrong = next((o for o in outputs if not isinstance(o, str)), None)
            if wrong is not None:
                self._unreadable(phase_path, "phase path", f"output {_text(wrong)} is not a string")
        if definition.conditions_node is None:
            return
        if conditions_path is not None:
            result = evaluator.run(conditions_path, "conditions path")
            for output in result.outputs if result else ():
                items = output if isinstance(output, list) else [output]
                self.conditions.extend(item for item in items if isinstance(item, dict))
            shapes = [o for o in (result.outputs if result else ()) if o is not None]
            if any(not isinstance(o, list) for o in shapes):
                self._unreadable(conditions_path, "conditions path", "an output is not a list")
            elif any(i is not None and not isinstance(i, dict) for o in shapes for i in o):
                self._unreadable(conditions_path, "conditions path", "a condition is not an object")
        type_key = definition.type_field
        for condition in self.conditions:
            kind = condition.get(type_key) if type_key else None
            if isinstance(kind, str):
                self.by_type[kind] = condition  # the last duplicate wins

    def _unreadable(self, expr: Expr, what: str, why: str) -> None:
        """The runtime reads the phase as a string and the conditions as lists of objects; any other output
        fails its whole status extraction (dsx-ai-factory/workload-map pkg/resource/accessor.go@17a7919,
        ExtractStatus), so the workload shows no status."""
        self.evaluator.findings.append(EvaluationFailed(
            self.evaluator.path, expr.node.span, what, expr.text,
            f"{why}: the runtime cannot read it and reports no status for the workload",
        ))

    def conditions_match(self, matcher: Matcher) -> bool:
        listed = matcher.by_conditions_node
        if not isinstance(listed, SequenceNode) or len(matcher.conditions) != len(listed.items):
            return False  # not a list of condition matchers: nothing matches it
        fields = (self.definition.status_field, self.definition.reason_field)
        for wanted in matcher.conditions:
            condition = self.by_type.get(wanted.type) if wanted.type is not None else None
            if condition is None:
                return False
            for expected, key in zip((wanted.status, wanted.reason), fields, strict=True):
                if expected is None:
                    continue
                actual = condition.get(key) if key else None
                if not isinstance(actual, str) or actual != expected:
                    return False
        return True

    def expression_matches(self, matcher: Matcher) -> bool:
        expression = matcher.expression
        if expression is None:
            return False
        result = self.evaluator.run(expression, "status expression", f"({expression.text}) | tostring")
        if result is None or not result.outputs:
            return False
        return _text(result.first) == _text(to_python(matcher.expected_result_node))

    def matches(self, matcher: Matcher) -> bool:
        if matcher.by_phase_node is not None and (
            self.phase is None or _text(self.phase) != _text(to_python(matcher.by_phase_node))
        ):
            return False
        if matcher.by_conditions_node is not None and not self.conditions_match(matcher):
            return False
        if matcher.by_expression_node is not None and not self.expression_matches(matcher):
            return False
        return True


def evaluate_status(definition: StatusDefinition | None, evaluator: Evaluator) -> StatusResult:
    """Every matching status, the shown one, and the native phase and conditions."""
    if definition is None:
        return StatusResult(status=UNDEFINED, matches=[])
    observed = _Observed(definition, evaluator)
    matched: list[str] = []
    for key, status in EVALUATION_ORDER:
        matchers = definition.mappings.get(key)
        if matchers is not None and any(observed.matches(m) for m in matchers):
            matched.append(status)
    return StatusResult(
        status=matched[0] if matched else UNDEFINED,
        matches=matched,
        phase=observed.phase,
        conditions=observed.conditions,
    )
