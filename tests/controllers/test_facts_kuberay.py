"""Facts of the KubeRay controller model (schemas/controllers/kuberay.yaml), each shown on a real catalog
definition, example or recorded object: the outcome that changed with the fact. KubeRay v1.7.0: replicas
clamped to [minReplicas, maxReplicas]; RayService suspends; RayJob's values."""

from __future__ import annotations

from wmaplint.controllers import model_for

from .helpers import (
    catalog,
    created_count,
    example,
    findings,
    needs_recordings,
    pods_of,
    recorded_objects,
    vary,
)


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
