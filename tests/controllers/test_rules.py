"""The rules that read the controller model, on the catalog's real definitions: each fault written into
definitions of two frameworks is found at its token with a message saying what the controller does instead,
and the correct definitions give nothing."""

from __future__ import annotations

import pytest

from wmaplint.diagnostics import Diagnostic
from wmaplint.engine import lint_text

from .helpers import CATALOG, catalog, findings, vary


def token(text: str, d: Diagnostic) -> str:
    line = text.splitlines()[d.span.start_line - 1]
    return line[d.span.start_col - 1 : d.span.end_col - 1]


PYTORCH = catalog("kubeflow-org-pytorchjob-v1.yaml")
RAYJOB = catalog("ray-io-rayjob-v1.yaml")
RAYCLUSTER = catalog("ray-io-raycluster-v1.yaml")
JOBSET = catalog("jobset-x-k8s-io-jobset-v1alpha2.yaml")
JOB = catalog("batch-job-v1.yaml")
CRONJOB = catalog("batch-cronjob-v1.yaml")
SANDBOX = catalog("agents-x-k8s-io-sandbox-v1beta1.yaml")
MPI_V1 = catalog("kubeflow-org-mpijob-v1.yaml")
MPI_V2 = catalog("kubeflow-org-mpijob-v2beta1.yaml")
DEPLOYMENT = catalog("apps-deployment-v1.yaml")
ISVC = catalog("serving-kserve-io-inferenceservice-v1beta1.yaml")
DYNAMO = catalog("nvidia-com-dynamographdeployment-v1beta1.yaml")

WORKER_KEY = 'keyPath: .metadata.labels["training.kubeflow.org/replica-type"]'
RULES = ("WM530", "WM532", "WM533", "WM534", "WM535", "WM536", "WM440", "WM441")


@pytest.mark.parametrize("name", sorted(p.name for p in CATALOG.glob("*.yaml")))
def test_the_catalog_gives_none_of_them(name: str) -> None:
    text = catalog(name)
    assert [d.message for d in lint_text(text, name) if d.rule in RULES] == []


# -- WM530 selector-label-not-written


def test_a_selector_key_the_training_operator_never_writes() -> None:
    text = vary(PYTORCH, f"{WORKER_KEY}\n            value: worker",
                f"{WORKER_KEY.replace('replica-type', 'replica-role')}\n            value: worker")
    [d] = findings(text, "WM530")
    assert token(text, d) == "training.kubeflow.org/replica-role"
    assert "never writes on the pods of a PyTorchJob" in d.message
    assert "training.kubeflow.org/replica-type" in d.message and "kubeflow/training-operator" in d.message


def test_a_label_of_the_submitter_read_by_the_head() -> None:
    text = vary(RAYJOB, 'keyPath: .metadata.labels["ray.io/node-type"]\n            value: head',
                'keyPath: .metadata.labels["batch.kubernetes.io/job-name"]\n            value: head')
    [d] = findings(text, "WM530")
    assert token(text, d) == "batch.kubernetes.io/job-name"
    assert "writes on the submitter pods only, not on the head pods of a RayJob" in d.message
    assert "ray.io/node-type" in d.message


def test_a_misspelt_ray_key() -> None:
    text = vary(RAYCLUSTER, 'idPath: .metadata.labels["ray.io/group"]',
                'idPath: .metadata.labels["ray.io/groups"]')
    [d] = findings(text, "WM530")
    assert "instance selector reads label 'ray.io/groups'" in d.message and "ray.io/group," in d.message


def test_a_label_the_pod_template_may_set_is_not_reported() -> None:
    text = vary(PYTORCH, f"{WORKER_KEY}\n            value: worker",
                'keyPath: .metadata.labels["example.com/role"]\n            value: worker')
    assert findings(text, "WM530") == []


# -- WM532 instance-selector-not-entry


def test_a_jobset_instance_selector_reading_the_jobset_name() -> None:
    text = vary(JOBSET, 'idPath: .metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]',
                'idPath: .metadata.labels["jobset.sigs.k8s.io/jobset-name"]')
    [d] = findings(text, "WM532")
    assert token(text, d) == "jobset.sigs.k8s.io/jobset-name"
    assert "the workload's name" in d.message and "jobset.sigs.k8s.io/replicatedjob-name" in d.message


def test_a_ray_worker_instance_selector_reading_the_cluster() -> None:
    text = vary(RAYCLUSTER, 'idPath: .metadata.labels["ray.io/group"]',
                'idPath: .metadata.labels["ray.io/cluster"]')
    [d] = findings(text, "WM532")
    assert "the label naming those entries is ray.io/group" in d.message


def test_a_dynamo_instance_selector_is_right() -> None:
    assert findings(DYNAMO, "WM532") == []


def test_a_rayjob_instance_selector_under_a_misplaced_id_path_is_not_blamed() -> None:
    # ray.io/group is the worker group's groupName on a RayJob's cluster pods (ray-project/kuberay v1.4.2
    # ray-operator/controllers/ray/common/pod.go labelPod): with the ids read from a list the spec does not
    # have, the path is what is wrong (WM301), not the label
    text = vary(RAYJOB, "instanceIdPath: .spec.rayClusterSpec.workerGroupSpecs[]?.groupName",
                "instanceIdPath: .spec.workerGroupSpecs[]?.groupName")
    assert findings(text, "WM532") == []
    assert [d.rule for d in lint_text(text, "rayjob.yaml") if d.rule == "WM301"] == ["WM301"]


# -- WM533 child-kind-not-created


def test_a_pytorchjob_worker_as_a_job() -> None:
    text = vary(PYTORCH, '''      - name: worker
        ownerRef: pytorchjob
        kind: {group: "", version: v1, kind: Pod}''', '''      - name: worker
        ownerRef: pytorchjob
        kind: {group: batch, version: v1, kind: Job}''')
    [d] = findings(text, "WM533")
    assert "'worker' is a batch/v1/Job, which the kubeflow.org/v1/PyTorchJob controller never" in d.message
    assert "v1/Pod" in d.message


def test_the_mpi_launcher_is_a_pod_in_v1_and_a_job_in_v2beta1() -> None:
    launcher_v1 = ('kind: {group: "", version: v1, kind: Pod}\n        specDefinition:\n'
                   "          podTemplateSpecPath: .spec.mpiReplicaSpecs.Launcher.template")
    assert launcher_v1 in MPI_V1
    text = vary(MPI_V1, launcher_v1, launcher_v1.replace('{group: "", version: v1, kind: Pod}',
                                                         "{group: batch, version: v1, kind: Job}"))
    [d] = findings(text, "WM533")
    assert "kubeflow.org/v1/MPIJob controller never creates" in d.message
    assert findings(MPI_V2, "WM533") == []  # the v2 operator runs the launcher as a Job


# -- WM534 sibling-template-path


def test_a_pytorch_worker_counting_the_master() -> None:
    worker = PYTORCH.split("- name: worker", 1)[1]
    replicas = worker.split("replicasPath:", 1)[1].split("minReplicasPath:", 1)[0]
    text = PYTORCH.replace(replicas, replicas.replace("Worker", "Master"), 1)
    [d] = findings(text, "WM534")
    assert "replicasPath of 'worker' reads .spec.pytorchReplicaSpecs.Master" in d.message
    assert "its sibling 'master'" in d.message
    template = vary(PYTORCH, "podTemplateSpecPath: .spec.pytorchReplicaSpecs.Worker.template",
                    "podTemplateSpecPath: .spec.pytorchReplicaSpecs.Master.template")
    [d] = findings(template, "WM534")
    assert "podTemplateSpecPath of 'worker' is the one of its sibling 'master'" in d.message


def test_a_kserve_transformer_reading_the_predictor() -> None:
    own = "(.spec.transformer.minReplicas // 1)"
    minimum = f"minReplicasPath: if .spec.transformer == null then 0 else {own} end"
    text = vary(ISVC, minimum, minimum.replace(own, "(.spec.predictor.minReplicas // 1)"))
    [d] = findings(text, "WM534")
    assert token(text, d) == ".spec.predictor.minReplicas"
    assert "minReplicasPath of 'transformer' reads .spec.predictor" in d.message


# -- WM535 suspend-writes-resume-value


def test_a_job_suspended_with_false() -> None:
    text = vary(JOB, '- {path: .spec.suspend, value: "true"}', '- {path: .spec.suspend, value: "false"}')
    [d] = findings(text, "WM535")
    assert token(text, d) == '"false"'
    assert "resumes a Job: the controller suspends on true and resumes on false" in d.message


def test_a_sandbox_suspended_with_running() -> None:
    text = vary(SANDBOX, """- {path: .spec.operatingMode, value: '"Suspended"'}""",
                """- {path: .spec.operatingMode, value: '"Running"'}""")
    [d] = findings(text, "WM535")
    assert 'writes "Running" to .spec.operatingMode, which resumes a Sandbox' in d.message


# -- WM536 replicas-path-not-a-count


def test_a_deployment_counting_its_name_is_an_error_without_a_fix() -> None:
    text = vary(DEPLOYMENT, "replicasPath: .spec.replicas // 1", "replicasPath: .metadata.name")
    [d] = findings(text, "WM536")
    assert d.severity.label == "error" and d.fixes == ()
    assert "a string field, never a replica count" in d.message and ".spec.replicas" in d.message


def test_a_crd_counting_its_name_gets_no_default_fix() -> None:
    worker = 'else (.spec.mpiReplicaSpecs.Worker.replicas // 0) end'
    guard = "if .spec.mpiReplicaSpecs.Worker == null then 0\n            "
    text = vary(MPI_V2, guard + worker, ".metadata.name")
    all_findings = lint_text(text, "definition.yaml")
    [d] = [f for f in all_findings if f.rule == "WM536"]
    assert d.fixes == ()
    assert not any("// 1" in fix.title for f in all_findings for fix in f.fixes)
    assert [f.rule for f in all_findings if f.rule == "WM305"] == []


def test_limits_and_seconds_are_not_counts() -> None:
    text = vary(MPI_V2, "(.spec.mpiReplicaSpecs.Worker.replicas // 0)", "(.spec.runPolicy.backoffLimit // 6)")
    [d] = findings(text, "WM536")
    assert token(text, d) == ".spec.runPolicy.backoffLimit" and "a retry limit of an MPIJob" in d.message
    counted = ("[(.spec.jobTemplate.spec.parallelism // 1), (.spec.jobTemplate.spec.completions // empty)]"
               " | min")
    cron = vary(CRONJOB, counted, ".spec.successfulJobsHistoryLimit // 3")
    [d] = findings(cron, "WM536")
    assert "a history limit of a CronJob" in d.message


# -- WM440 expression-unknown-condition-type, WM441 expression-unknown-phase-value


def test_a_condition_type_misspelt_inside_an_expression() -> None:
    text = vary(PYTORCH, 'any(. == "Running" or . == "Restarting"', 'any(. == "Runing" or . == "Restarting"')
    [d] = findings(text, "WM440")
    assert token(text, d) == "Runing" and "did you mean 'Running'?" in d.message
    job = vary(JOB, '| any(. == "Complete" or . == "Failed" or . == "Suspended"\n                         or',
               '| any(. == "Completed" or . == "Failed" or . == "Suspended"\n                         or')
    [d] = findings(job, "WM440")
    assert "batch/v1/Job never sets" in d.message and "did you mean 'Complete'?" in d.message


def test_a_phase_value_misspelt_inside_an_expression() -> None:
    text = vary(RAYCLUSTER, 'expression: .spec.suspend == true, expectedResult: "true"',
                'expression: .spec.suspend == true or .status.state == "provisoning", expectedResult: "true"')
    [d] = findings(text, "WM441")
    assert token(text, d) == "provisoning" and "'ready', 'suspended', 'failed'" in d.message
    pod = catalog("core-pod-v1.yaml")
    assert findings(pod, "WM441") == []


RAY_HEAD = ('      - name: head\n        ownerRef: raycluster\n'
            '        kind: {group: "", version: v1, kind: Pod}')


def test_a_ray_head_as_a_statefulset() -> None:
    text = vary(RAYCLUSTER, RAY_HEAD, RAY_HEAD.replace('{group: "", version: v1, kind: Pod}',
                                                       "{group: apps, version: v1, kind: StatefulSet}"))
    [d] = findings(text, "WM533")
    assert "ray.io/v1/RayCluster controller never creates: it creates batch/v1/Job, v1/Pod" in d.message


def test_a_ray_child_job_is_the_redis_cleanup_job_the_controller_makes() -> None:
    # ray-project/kuberay v1.7.0 ray-operator/controllers/ray/raycluster_controller.go (buildRedisCleanupJob)
    text = vary(RAYCLUSTER, RAY_HEAD, RAY_HEAD.replace('{group: "", version: v1, kind: Pod}',
                                                       "{group: batch, version: v1, kind: Job}"))
    assert findings(text, "WM533") == []


def test_a_job_status_misspelt_inside_a_rayjob_expression() -> None:
    text = vary(RAYJOB, '{expression: .status.jobStatus // "", expectedResult: PENDING}',
                '{expression: (.status.jobStatus // "") == "STOPED", expectedResult: "true"}')
    [d] = findings(text, "WM441")
    assert token(text, d) == "STOPED" and "did you mean 'STOPPED'?" in d.message
    assert ".status.jobStatus" in d.message
