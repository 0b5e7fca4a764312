"""The runtime reads the phase as a string and the conditions as lists of objects; other outputs fail its
status extraction (dsx-ai-factory/workload-map pkg/resource/accessor.go@17a7919), and wmaplint says so."""

from wmaplint.jq.runtime import default_runtime
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.findings import EvaluationFailed
from wmaplint.resolve.loading import definitions_of, load_file
from wmaplint.resolve.status_match import evaluate_status

DEFINITION = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: pods}
spec:
  structureDefinition:
    rootComponent:
      name: pod
      kind: {group: "", version: v1, kind: Pod}
      specDefinition: {podTemplateSpecPath: .}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        conditionsDefinition: {path: .status.conditions}
        statusMappings:
          running: [{byPhase: Running}]
"""


def _findings(tmp_path, status):
    path = tmp_path / "d.yaml"
    path.write_text(DEFINITION)
    [entry] = definitions_of(load_file(str(path)).documents)
    findings: list = []
    obj = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "status": status}
    evaluate_status(entry.definition.root.status, Evaluator(default_runtime(), obj, findings, str(path)))
    return [(f.what, f.error) for f in findings if isinstance(f, EvaluationFailed)]


def test_a_phase_that_is_not_a_string_is_an_evaluation_failure(tmp_path):
    assert _findings(tmp_path, {"phase": 3}) == [
        ("phase path", "output 3 is not a string: the runtime cannot read it and reports no status for the "
         "workload")
    ]


def test_conditions_that_are_not_lists_of_objects_are_an_evaluation_failure(tmp_path):
    assert [what for what, _ in _findings(tmp_path, {"conditions": {"type": "Ready"}})] == ["conditions path"]
    assert [e.split(":")[0] for _, e in _findings(tmp_path, {"conditions": ["Ready"]})] == [
        "a condition is not an object"
    ]


def test_null_phase_and_conditions_are_read_as_absent(tmp_path):
    assert _findings(tmp_path, {"phase": None, "conditions": None}) == []
    assert _findings(tmp_path, {"phase": "Running", "conditions": [None, {"type": "Ready"}]}) == []
