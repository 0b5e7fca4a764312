"""Facts of the controller model corrected against the upstream releases the files name (Kubeflow Trainer
v2.3.0, training operator v1.9.0, MPI operator v0.8.0, KubeRay v1.7.0), each shown on a real catalog
definition, example or recorded object: the outcome that changed with the fact."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from wmaplint.controllers import load_model, model_for
from wmaplint.jq.runtime import JqInput, JqRuntime

from .helpers import (
    RECORDINGS,
    catalog,
    example,
    findings,
    pods_of,
    recorded_objects,
    vary,
)


def pods_by_component(manifest: dict[str, Any]) -> Counter[str]:
    return Counter(pod.created for pod in pods_of(manifest))


def created_count(manifest: dict[str, Any], name: str) -> list[Any]:
    """What the model's ``count`` of the created object ``name`` gives, one value an entry of its ``each``."""
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    [created] = [c for c in model.creates if c.name == name]
    runtime = JqRuntime()
    entries = list(runtime.evaluate(created.each, JqInput(manifest)).outputs) if created.each else [manifest]
    return [value for entry in entries for value in runtime.evaluate(created.count, JqInput(entry)).outputs]


needs_recordings = pytest.mark.skipif(not RECORDINGS.is_dir(), reason="needs ../shared/recordings")

# -- Kubeflow Trainer: no release writes Created; Complete and Failed carry the JobSet's reasons


def test_a_trainjob_expression_waiting_for_a_created_condition() -> None:
    text = vary(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"),
                "and ((.status.jobsStatus // []) | length > 0)",
                'and any(.status.conditions[]?; .type == "Created" and .status == "True")')
    [d] = findings(text, "WM440")
    assert "'Created'" in d.message and "Complete, Failed, Suspended" in d.message
    assert findings(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"), "WM440") == []


def test_a_trainjob_mapping_the_created_condition() -> None:
    text = vary(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"),
                '- byConditions: [{type: Complete, status: "True"}]',
                '- byConditions: [{type: Complete, status: "True"}]\n'
                '            - byConditions: [{type: Created, status: "True"}]')
    [d] = findings(text, "WM420")
    assert "'Created'" in d.message and "kubeflow/trainer v2.3.0" in d.message


def test_trainjob_failed_reasons_include_the_deadline() -> None:
    failed = '- byConditions: [{type: Failed, status: "True"}]'
    text = catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml")
    [d] = findings(vary(text, failed, failed.replace('"True"}', '"True", reason: DeadlineExceded}')), "WM423")
    assert "did you mean 'DeadlineExceeded'?" in d.message
    for reason in ("DeadlineExceeded", "FailedJobs", "ReachedMaxRestarts", "TrainingRuntimeNotSupported"):
        variant = vary(text, failed, failed.replace('"True"}', f'"True", reason: {reason}}}'))
        assert findings(variant, "WM423") == []


def test_a_trainjob_creates_one_jobset_and_runtime_dependent_objects() -> None:
    manifest = example("trainer-kubeflow-org-trainjob-v1alpha1/torch-multi-node-gpu.yaml")
    assert created_count(manifest, "jobset") == [1]
    model = model_for("trainer.kubeflow.org", "TrainJob", "v1alpha1")
    assert model is not None
    counts = {c.name: c.count for c in model.creates}
    assert counts["podgroup"] == counts["mpi-secret"] == counts["configmap"] == counts["pod"] == "unknown"


def test_a_trainjob_counting_processes_per_node_as_nodes() -> None:
    text = vary(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"),
                "replicasPath: .spec.trainer.numNodes // 1",
                "replicasPath: .spec.trainer.numProcPerNode // 1")
    [d] = findings(text, "WM536")
    assert ".spec.trainer.numProcPerNode" in d.message and ".spec.trainer.numNodes" in d.message


# -- Training operator v1: each kind's own reasons; worker 0 is master without a Master; a Service an index


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


# -- MPI operator v2: its own reasons, the launcher Job's among them; Restarting is never set


def test_an_mpijob_v2_mapping_restarting() -> None:
    text = vary(catalog("kubeflow-org-mpijob-v2beta1.yaml"), "          initializing:\n",
                '          degraded:\n            - byConditions: [{type: Restarting, status: "True"}]\n'
                "          initializing:\n")
    [d] = findings(text, "WM420")
    assert "'Restarting'" in d.message and "kubeflow/mpi-operator v0.8.0" in d.message


def test_an_mpijob_v2_failed_reason_of_its_launcher_job() -> None:
    failed = '- byConditions: [{type: Failed, status: "True"}]'
    text = catalog("kubeflow-org-mpijob-v2beta1.yaml")
    misspelt = vary(text, failed, failed.replace('"True"}', '"True", reason: BackoffLimitExeeded}'))
    [d] = findings(misspelt, "WM423")
    assert "did you mean 'BackoffLimitExceeded'?" in d.message
    ok = vary(text, failed, failed.replace('"True"}', '"True", reason: BackoffLimitExceeded}'))
    assert findings(ok, "WM423") == []


@needs_recordings
@pytest.mark.parametrize(("folder", "version"), [("kubeflow-org-mpijob-v2beta1", "v2beta1"),
                                                  ("kubeflow-org-pytorchjob-v1", "v1")])
def test_every_recorded_condition_and_reason_is_in_the_model(folder: str, version: str) -> None:
    objects = recorded_objects(folder)
    model = model_for("kubeflow.org", objects[0]["kind"], version)
    assert objects and model is not None
    seen = {(c["type"], c.get("reason", ""))
            for obj in objects for c in obj.get("status", {}).get("conditions") or []}
    assert seen and all(reason in model.status.conditions[ctype].reasons for ctype, reason in seen)


INDEX = "training.kubeflow.org/replica-index"


def test_mpijob_v2_worker_indexes_shift_with_the_launcher_as_a_worker() -> None:
    manifest = example("kubeflow-org-mpijob-v2beta1/launcher-as-worker-succeeded.yaml")
    assert manifest["spec"]["runLauncherAsWorker"] is True
    specs = manifest["spec"]["mpiReplicaSpecs"]
    specs["Worker"] = {"replicas": 2, "template": specs["Launcher"]["template"]}
    workers = [p.labels[INDEX] for p in pods_of(manifest) if p.created == "worker"]
    assert workers == ["1", "2"]
    manifest["spec"]["runLauncherAsWorker"] = False
    workers = [p.labels[INDEX] for p in pods_of(manifest) if p.created == "worker"]
    assert workers == ["0", "1"]


# -- KubeRay v1.7.0: replicas clamped to [minReplicas, maxReplicas]; RayService suspends; RayJob's values


def test_ray_worker_replicas_are_clamped_to_min_and_max() -> None:
    manifest = example("ray-io-raycluster-v1/gpu-cluster-ready.yaml")
    group = manifest["spec"]["workerGroupSpecs"][0]
    group.update({"replicas": 0, "minReplicas": 2, "maxReplicas": 4})
    group.pop("numOfHosts", None)
    assert created_count(manifest, "worker")[0] == 2
    group["replicas"] = 9
    assert created_count(manifest, "worker")[0] == 4


def test_a_rayservice_resume_action_that_suspends() -> None:
    text = catalog("ray-io-rayservice-v1.yaml")
    resume = '        resumeActions:\n          - {path: .spec.suspend, value: "false"}'
    [d] = findings(vary(text, resume, resume.replace('"false"', '"true"')), "WM535")
    assert "ray-project/kuberay v1.7.0" in d.message
    assert findings(text, "WM535") == []


def test_a_rayservice_reason_of_its_suspend() -> None:
    text = vary(catalog("ray-io-rayservice-v1.yaml"), "reason: ZeroServeEndpoints}]",
                'reason: ZeroServeEndpoints}]\n'
                '            - byConditions: [{type: Ready, status: "False", reason: SuspendInProgres}]')
    [d] = findings(text, "WM423")
    assert "did you mean 'SuspendInProgress'?" in d.message


def test_a_rayjob_expression_on_a_job_status_never_taken() -> None:
    text = vary(catalog("ray-io-rayjob-v1.yaml"),
                'byExpression: {expression: .status.jobStatus // "", expectedResult: RUNNING}',
                'byExpression: {expression: .status.jobStatus == "RUNNNG", expectedResult: "true"}')
    [d] = findings(text, "WM441")
    assert "did you mean 'RUNNING'?" in d.message


def test_a_rayjob_expression_on_a_failure_reason_never_taken() -> None:
    text = vary(catalog("ray-io-rayjob-v1.yaml"), "          failed:\n            - byPhase: Failed\n",
                "          failed:\n            - byPhase: Failed\n"
                "              byExpression:\n"
                '                {expression: .status.reason == "DeadlineExceded", expectedResult: "true"}\n')
    [d] = findings(text, "WM441")
    assert ".status.reason" in d.message and "did you mean 'DeadlineExceeded'?" in d.message


@needs_recordings
def test_every_recorded_raycluster_reason_is_in_the_model() -> None:
    # the head pod's Ready reasons are copied: Unknown before it has one, ContainerCreating while it starts
    model = model_for("ray.io", "RayCluster", "v1")
    assert model is not None
    seen = {(c["type"], c.get("reason", "")) for obj in recorded_objects("ray-io-raycluster-v1")
            for c in obj.get("status", {}).get("conditions") or []}
    assert {("HeadPodReady", "Unknown"), ("HeadPodReady", "ContainerCreating")} <= seen
    assert all(reason in model.status.conditions[ctype].reasons for ctype, reason in seen)


@needs_recordings
def test_every_recorded_rayjob_phase_is_in_the_model() -> None:
    model = model_for("ray.io", "RayJob", "v1")
    assert model is not None
    fields = ((".status.jobStatus", "jobStatus"), (".status.jobDeploymentStatus", "jobDeploymentStatus"),
              (".status.reason", "reason"))
    for path, field in fields:
        phase = model.phase(path)
        assert phase is not None
        seen = {obj.get("status", {}).get(field, "") for obj in recorded_objects("ray-io-rayjob-v1")}
        assert seen <= set(phase.values), (path, seen - set(phase.values))


def test_the_default_submitter_has_limits() -> None:
    manifest = example("ray-io-rayjob-v1/pytorch-training-running.yaml")
    manifest["spec"].pop("submitterPodTemplate", None)
    [submitter] = [pod for pod in pods_of(manifest) if pod.created == "submitter"]
    [container] = submitter.template["spec"]["containers"]
    assert container["resources"] == {"limits": {"cpu": "1", "memory": "1Gi"},
                                      "requests": {"cpu": "500m", "memory": "200Mi"}}


def test_multi_host_indexing_labels_are_known_on_worker_pods() -> None:
    for kind in ("RayCluster", "RayService"):
        model = model_for("ray.io", kind, "v1")
        assert model is not None
        keys = set(model.pod_labels("worker"))
        assert {"ray.io/worker-group-replica-index", "ray.io/worker-group-replica-name",
                "ray.io/replica-host-index"} <= keys
        assert "ray.io/worker-group-replica-index" not in model.pod_labels("head")
