"""The workload status a platform shows, evaluated from the root's statusDefinition as the runtime does.

byPhase compares the first output of ``phaseDefinition.path``; byConditions looks conditions up by type
(a later duplicate wins) and compares status/reason as strings; byExpression compares the first output of
``(<expression>) | tostring`` with ``expectedResult``. Fields of one matcher are ANDed, list entries ORed,
and an empty matcher always matches. All matching statuses are listed in the runtime's evaluation order, as
upstream reports them all; the single status given is the first match, else Undefined.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from wmaplint.resolve.model import Pointer, StatusResult

if TYPE_CHECKING:
    from wmaplint.resolve.tree import Evaluator

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
# Defaults the API server applies to conditionsDefinition when the keys are omitted.
FIELD_DEFAULTS = {
    "typeFieldName": "type",
    "statusFieldName": "status",
    "reasonFieldName": "reason",
    "messageFieldName": "message",
}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))


def _field_name(definition: Mapping[str, Any], key: str) -> str | None:
    if key not in definition:
        return FIELD_DEFAULTS[key]
    value = definition[key]
    return value if isinstance(value, str) else None  # explicit null: never read


class _Facts:
    def __init__(self, definition: Mapping[str, Any], pointer: Pointer, evaluator: Evaluator):
        self.evaluator = evaluator
        self.pointer = pointer
        self.phase: Any = None
        self.conditions: list[dict[str, Any]] = []
        self.by_type: dict[str, dict[str, Any]] = {}
        phase_def = definition.get("phaseDefinition")
        if isinstance(phase_def, Mapping):
            result = evaluator.run(phase_def.get("path"), (*pointer, "phaseDefinition", "path"), "phase path")
            self.phase = result.first if result else None
        cond_def = definition.get("conditionsDefinition")
        if isinstance(cond_def, Mapping):
            result = evaluator.run(
                cond_def.get("path"), (*pointer, "conditionsDefinition", "path"), "conditions path"
            )
            for output in result.outputs if result else ():
                items = output if isinstance(output, list) else [output]
                self.conditions.extend(item for item in items if isinstance(item, dict))
            self.type_key = _field_name(cond_def, "typeFieldName")
            self.status_key = _field_name(cond_def, "statusFieldName")
            self.reason_key = _field_name(cond_def, "reasonFieldName")
            for condition in self.conditions:
                kind = condition.get(self.type_key) if self.type_key else None
                if isinstance(kind, str):
                    self.by_type[kind] = condition  # the last duplicate wins
        else:
            self.type_key = self.status_key = self.reason_key = None

    def conditions_match(self, wanted: Any) -> bool:
        if not isinstance(wanted, list):
            return False
        for item in wanted:
            if not isinstance(item, Mapping):
                return False
            condition = self.by_type.get(str(item.get("type")))
            if condition is None:
                return False
            for key, field in (("status", self.status_key), ("reason", self.reason_key)):
                if item.get(key) is None:
                    continue
                actual = condition.get(field) if field else None
                if not isinstance(actual, str) or actual != str(item[key]):
                    return False
        return True

    def expression_matches(self, spec: Any, pointer: Pointer) -> bool:
        if not isinstance(spec, Mapping) or not isinstance(spec.get("expression"), str):
            return False
        result = self.evaluator.run(
            f"({spec['expression']}) | tostring", (*pointer, "expression"), "status expression"
        )
        if result is None or not result.outputs:
            return False
        return _text(result.first) == _text(spec.get("expectedResult"))

    def matches(self, matcher: Any, pointer: Pointer) -> bool:
        if not isinstance(matcher, Mapping):
            return False
        if "byPhase" in matcher and (self.phase is None or _text(self.phase) != _text(matcher["byPhase"])):
            return False
        if "byConditions" in matcher and not self.conditions_match(matcher["byConditions"]):
            return False
        if "byExpression" in matcher and not self.expression_matches(
            matcher["byExpression"], (*pointer, "byExpression")
        ):
            return False
        return True


def evaluate_status(definition: Any, pointer: Pointer, evaluator: Evaluator) -> StatusResult:
    """Every matching status, the shown one, and the native phase and conditions."""
    if not isinstance(definition, Mapping):
        return StatusResult(status=UNDEFINED, matches=[])
    facts = _Facts(definition, pointer, evaluator)
    mappings = definition.get("statusMappings")
    matched: list[str] = []
    if isinstance(mappings, Mapping):
        for key, status in EVALUATION_ORDER:
            matchers = mappings.get(key)
            if not isinstance(matchers, list):
                continue
            where = (*pointer, "statusMappings", key)
            if any(facts.matches(m, (*where, i)) for i, m in enumerate(matchers)):
                matched.append(status)
    return StatusResult(
        status=matched[0] if matched else UNDEFINED,
        matches=matched,
        phase=facts.phase,
        conditions=facts.conditions,
    )
