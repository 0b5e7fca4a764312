"""Facts of the training operator controller model (schemas/controllers/training-operator.yaml), each shown on
a real catalog definition, example or recorded object: the outcome that changed with the fact. Training
operator v1: each kind's own reasons; worker 0 is master without a Master; a Service an index; TFJob,
XGBoostJob, JAXJob and PaddleJob run the PyTorchJob's status code."""

from __future__ import annotations

from collections import Counter

import pytest

from wmaplint.engine import lint_text

from .helpers import (
    catalog,
    created_count,
    example,
    findings,
    pods_by_component,
    pods_of,
    vary,
)


def test_a_pytorchjob_mapping_an_mpijob_reason() -> None:
    failed = '- byConditions: [{type: Failed, status: "True"}]'
    text = vary(catalog("kubeflow-org-pytorchjob-v1.yaml"), failed,
                failed.replace('"True"}', '"True", reason: MPIJobFailed}'))
    [d] = findings(text, "WM423")
    assert "did you mean 'PyTorchJobFailed'?" in d.message


def test_pytorch_worker_zero_is_the_master_without_a_master_replica() -> None:
    manifest = example("kubeflow-org-pytorchjob-v1/elastic-workers.yaml")
    assert list(manifest["spec"]["pytorchReplicaSpecs"]) == ["Worker"]
    roles = {pod.index: pod.labels.get("training.kubeflow.org/job-role") for pod in pods_of(manifest)}
    assert roles[0] == "master" and all(role is None for index, role in roles.items() if index > 0)
    with_master = example("kubeflow-org-pytorchjob-v1/ddp-master-workers.yaml")
    masters = [(pod.labels["training.kubeflow.org/replica-type"], pod.index) for pod in pods_of(with_master)
               if pod.labels.get("training.kubeflow.org/job-role") == "master"]
    assert masters == [("master", 0)]


def test_a_pytorchjob_has_one_service_a_replica() -> None:
    manifest = example("kubeflow-org-pytorchjob-v1/ddp-master-workers.yaml")
    replicas = [spec.get("replicas", 1) for spec in manifest["spec"]["pytorchReplicaSpecs"].values()]
    assert created_count(manifest, "service") == replicas and sum(replicas) > 2


def test_mpijob_v1_pods_carry_the_operator_name_and_the_launcher_the_master_role() -> None:
    pods = pods_of(example("kubeflow-org-mpijob-v1/horovod-gpu-running.yaml"))
    [launcher] = [pod for pod in pods if pod.created == "launcher"]
    assert launcher.labels["training.kubeflow.org/job-role"] == "master"
    assert "training.kubeflow.org/replica-index" not in launcher.labels
    workers = [pod for pod in pods if pod.created == "worker"]
    assert [pod.labels["training.kubeflow.org/replica-index"] for pod in workers] == ["0", "1", "2"]
    assert {pod.labels["training.kubeflow.org/operator-name"] for pod in pods} == {"mpijob-controller"}


def test_an_mpijob_v1_without_worker_replicas_runs_no_worker() -> None:
    manifest = example("kubeflow-org-mpijob-v1/suspended-default-workers.yaml")
    assert "replicas" not in manifest["spec"]["mpiReplicaSpecs"]["Worker"]
    assert pods_by_component(manifest) == Counter({"launcher": 1})
    assert "Worker.replicas // 0" in catalog("kubeflow-org-mpijob-v1.yaml")


def test_mpijob_v1_slots_are_not_pods() -> None:
    text = vary(catalog("kubeflow-org-mpijob-v1.yaml"),
                "else (.spec.mpiReplicaSpecs.Worker.replicas // 0) end",
                "else (.spec.slotsPerWorker // 1) end")
    [d] = findings(text, "WM536")
    assert ".spec.slotsPerWorker" in d.message


# The training operator's other kinds (TFJob, XGBoostJob, JAXJob, PaddleJob) run the PyTorchJob's status
# code: kubeflow/training-operator v1.9.0 pkg/util/status.go sets Running False once Succeeded or Failed is
# set and sets nothing once Failed, and each kind's UpdateJobStatus and pkg/controller.v1/common give the
# kind's own reasons. A definition's matchers are judged by that, as the PyTorchJob's are: the run-ai/karta
# v0.2 samples of these kinds (docs/samples/tfjob.yaml and beside it, @dd051aa) map running, completed and
# failed by one condition each, which the controller never sets together.

OTHER_KIND = """\
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
OTHER_KINDS = ["TFJob", "XGBoostJob", "JAXJob", "PaddleJob"]


def rules(kind: str, completed: str = "Succeeded") -> list[str]:
    text = OTHER_KIND.format(name=kind.lower(), kind=kind, completed=completed)
    return sorted(d.rule for d in lint_text(text, "def.yaml") if d.rule.startswith("WM4"))


@pytest.mark.parametrize("kind", OTHER_KINDS)
def test_one_condition_per_status_overlaps_nowhere(kind: str) -> None:
    assert "WM431" not in rules(kind)


@pytest.mark.parametrize("kind", OTHER_KINDS)
def test_a_condition_the_kind_never_sets_is_found(kind: str) -> None:
    """JobConditionType has no Complete: the Job's name for it, never set on these kinds."""
    assert "WM420" in rules(kind, completed="Complete")


def test_a_kind_no_model_covers_keeps_the_overlap() -> None:
    """Without the controller's facts any two conditions may hold together: the overlap is said."""
    text = OTHER_KIND.format(name="widget", kind="Widget", completed="Succeeded")
    text = text.replace("kubeflow.org", "example.com")
    assert "WM431" in [d.rule for d in lint_text(text, "def.yaml")]
