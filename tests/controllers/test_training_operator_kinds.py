"""The training operator's other kinds (TFJob, XGBoostJob, JAXJob, PaddleJob) run the PyTorchJob's status
code: kubeflow/training-operator v1.9.0 pkg/util/status.go sets Running False once Succeeded or Failed is
set and sets nothing once Failed, and each kind's UpdateJobStatus and pkg/controller.v1/common give the
kind's own reasons. A definition's matchers are judged by that, as the PyTorchJob's are: the run-ai/karta
v0.2 samples of these kinds (docs/samples/tfjob.yaml and beside it, @dd051aa) map running, completed and
failed by one condition each, which the controller never sets together."""

from __future__ import annotations

import pytest

from wmaplint.engine import lint_text

HEAD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {{name: {name}}}
spec:
  structureDefinition:
    rootComponent:
      name: job
      kind: {{group: kubeflow.org, version: v1, kind: {kind}}}
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: type
          statusFieldName: status
          reasonFieldName: reason
        statusMappings:
          initializing: [{{byConditions: [{{type: Created, status: "True"}}]}}]
          running: [{{byConditions: [{{type: Running, status: "True"}}]}}]
          completed: [{{byConditions: [{{type: {completed}, status: "True"}}]}}]
          failed: [{{byConditions: [{{type: Failed, status: "True"}}]}}]
"""
KINDS = ["TFJob", "XGBoostJob", "JAXJob", "PaddleJob"]


def rules(kind: str, completed: str = "Succeeded") -> list[str]:
    text = HEAD.format(name=kind.lower(), kind=kind, completed=completed)
    return sorted(d.rule for d in lint_text(text, "def.yaml") if d.rule.startswith("WM4"))


@pytest.mark.parametrize("kind", KINDS)
def test_one_condition_per_status_overlaps_nowhere(kind: str) -> None:
    assert "WM431" not in rules(kind)


@pytest.mark.parametrize("kind", KINDS)
def test_a_condition_the_kind_never_sets_is_found(kind: str) -> None:
    """JobConditionType has no Complete: the Job's name for it, never set on these kinds."""
    assert "WM420" in rules(kind, completed="Complete")


def test_a_kind_no_model_covers_keeps_the_overlap() -> None:
    """Without the controller's facts any two conditions may hold together: the overlap is said."""
    text = HEAD.format(name="widget", kind="Widget", completed="Succeeded")
    text = text.replace("kubeflow.org", "example.com")
    assert "WM431" in [d.rule for d in lint_text(text, "def.yaml")]
