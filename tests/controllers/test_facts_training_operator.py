"""Facts of the training operator controller model (schemas/controllers/training-operator.yaml), each shown on
a real catalog definition, example or recorded object: the outcome that changed with the fact. Training
operator v1: each kind's own reasons; worker 0 is master without a Master; a Service an index."""

from __future__ import annotations

from collections import Counter

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
