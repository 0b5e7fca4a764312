"""Facts of the Kubernetes controller model (schemas/controllers/kubernetes.yaml), each shown on a real
catalog definition, example or recorded object: the outcome that changed with the fact. Kubernetes: API
facts at kubernetes/api v0.36.3 (Kubernetes v1.36.3); the Deployment controller's ReplicaSetCreateError."""

from __future__ import annotations

from wmaplint.controllers import load_model

from .helpers import (
    catalog,
    findings,
    vary,
)

POD = "core-pod-v1.yaml"
RUNNING_POD = "          running:\n            - byPhase: Running\n"


def test_a_pod_expression_on_the_all_containers_restarting_condition() -> None:
    old = 'expression: (.status.phase // "") == ""'
    restarting = 'expression: any(.status.conditions[]?; .type == "AllContainersRestarting")'
    assert findings(vary(catalog(POD), old, restarting), "WM440") == []
    misspelled = restarting.replace("AllContainersRestarting", "AllContainersRestart")
    [d] = findings(vary(catalog(POD), old, misspelled), "WM440")
    assert "AllContainersRestart" in d.message


def test_a_misspelled_scheduler_error_reason() -> None:
    matcher = '            - byConditions: [{type: PodScheduled, status: "False", reason: SchedulerEror}]\n'
    text = vary(catalog(POD), RUNNING_POD, RUNNING_POD + matcher)
    [d] = findings(text, "WM423")
    assert "'SchedulerError'" in d.message


def test_a_misspelled_replica_set_create_error_reason() -> None:
    deployment = catalog("apps-deployment-v1.yaml")
    old = '- {type: Progressing, status: "False", reason: ProgressDeadlineExceeded}'
    misspelled = old.replace("ProgressDeadlineExceeded", "ReplicaSetCreateEror")
    [d] = findings(vary(deployment, old, misspelled), "WM423")
    assert "'ReplicaSetCreateError'" in d.message


def test_job_pods_carry_the_per_index_failure_counts() -> None:
    model = load_model().of("batch/v1", "Job")
    assert model is not None and model.pods is not None
    annotations = model.pods.annotations
    failures = "batch.kubernetes.io/job-index-failure-count"
    ignored = "batch.kubernetes.io/job-index-ignored-failure-count"
    assert {failures, ignored, "batch.kubernetes.io/job-completion-index"} <= set(annotations)
    assert "JobIndexFailureCountAnnotation" in annotations[failures].source
