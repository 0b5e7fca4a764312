from tests.resolve.typed import typed
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.status_match import evaluate_status


def status(definition, obj, runtime):
    """The status ``definition`` (a root's statusDefinition) gives on ``obj``."""
    kind = {"group": "g", "version": "v1", "kind": "K"}
    root = {"name": "root", "kind": kind, "statusDefinition": definition}
    karta = typed({"spec": {"structureDefinition": {"rootComponent": root}}})
    return evaluate_status(karta.root.status, Evaluator(runtime, obj, [], ""))


CONDITIONS = {"path": ".status.conditions"}


def test_by_conditions_last_duplicate_wins_and_strings_compare(runtime):
    definition = {
        "conditionsDefinition": CONDITIONS,
        "statusMappings": {
            "failed": [{"byConditions": [{"type": "Failed", "status": "True"}]}],
            "running": [{"byConditions": [{"type": "Ready", "status": "True"}]}],
        },
    }
    obj = {
        "status": {
            "conditions": [
                {"type": "Failed", "status": "True"},
                {"type": "Failed", "status": "False"},
                {"type": "Ready", "status": True},
            ]
        }
    }
    result = status(definition, obj, runtime)
    # Failed: the later duplicate says False; Ready's status is a boolean, not the string "True"
    assert result.matches == [] and result.status == "Undefined"


def test_all_matches_in_runtime_order_and_the_first_is_shown(runtime):
    definition = {
        "phaseDefinition": {"path": ".status.phase"},
        "statusMappings": {
            "initializing": [{}],
            "running": [{"byPhase": "Running"}],
            "suspended": [{"byExpression": {"expression": ".spec.suspend", "expectedResult": "true"}}],
        },
    }
    obj = {"spec": {"suspend": True}, "status": {"phase": "Running"}}
    result = status(definition, obj, runtime)
    assert result.matches == ["Suspended", "Running", "Initializing"]
    assert result.status == "Suspended" and result.phase == "Running"


def test_by_expression_uses_only_the_first_output_as_a_string(runtime):
    definition = {
        "statusMappings": {
            "running": [{"byExpression": {"expression": ".a[]", "expectedResult": "1"}}],
            "failed": [{"byExpression": {"expression": ".a[]", "expectedResult": "2"}}],
        }
    }
    assert status(definition, {"a": [1, 2]}, runtime).matches == ["Running"]


def test_matcher_fields_and_entries_or(runtime):
    definition = {
        "phaseDefinition": {"path": ".status.phase"},
        "conditionsDefinition": CONDITIONS,
        "statusMappings": {
            "running": [
                {"byPhase": "Running", "byConditions": [{"type": "Ready", "status": "True"}]},
                {"byPhase": "Degraded"},
            ]
        },
    }
    running_not_ready = {"status": {"phase": "Running", "conditions": [{"type": "Ready", "status": "False"}]}}
    assert status(definition, running_not_ready, runtime).matches == []
    assert status(definition, {"status": {"phase": "Degraded"}}, runtime).matches == ["Running"]


def test_reason_needs_a_reason_field_name(runtime):
    matcher = {"byConditions": [{"type": "Done", "reason": "OK"}]}
    obj = {"status": {"conditions": [{"type": "Done", "status": "True", "reason": "OK"}]}}
    defaulted = {"conditionsDefinition": CONDITIONS, "statusMappings": {"completed": [matcher]}}
    assert status(defaulted, obj, runtime).matches == ["Completed"]
    explicit_null = {
        "conditionsDefinition": {**CONDITIONS, "reasonFieldName": None},
        "statusMappings": {"completed": [matcher]},
    }
    assert status(explicit_null, obj, runtime).matches == []
