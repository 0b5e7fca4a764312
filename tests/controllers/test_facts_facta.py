"""Facts of the controller model read at the upstream releases the files name (JobSet v0.12.0, LeaderWorkerSet
v0.10.0, Kueue v0.19.2, Kubernetes), each shown on a real catalog definition or example: the outcome that
changed with the fact."""

from __future__ import annotations

from pathlib import Path

from wmaplint.controllers import load_model
from wmaplint.engine import lint_text
from wmaplint.jq.runtime import JqInput, JqRuntime

from .helpers import catalog, example, findings, pods_of, vary

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


# -- JobSet v0.12.0: labelAndAnnotateObject writes the global and group indexes; RestartingJobSet and the
# StartupPolicy conditions with their reasons


def test_jobset_pods_carry_the_global_and_group_job_indexes() -> None:
    manifest = example("jobset-x-k8s-io-jobset-v1alpha2/leader-workers-gpu.yaml")
    entries = manifest["spec"]["replicatedJobs"]
    pods = [p for p in pods_of(manifest) if p.created == "pod"]
    total = sum(e.get("replicas", 1) for e in entries)
    first = entries[0].get("replicas", 1)
    for pod in pods:
        assert pod.labels["jobset.sigs.k8s.io/global-replicas"] == str(total)
        assert pod.labels["jobset.sigs.k8s.io/group-name"] == "default"
        offset = 0 if pod.entry == 0 else first
        assert pod.labels["jobset.sigs.k8s.io/job-global-index"] == str(offset + pod.group)
        # with no groupName every replicated job is in the group default: the group index is the global one
        assert pod.labels["jobset.sigs.k8s.io/job-group-index"] == str(offset + pod.group)
    assert {p.labels["jobset.sigs.k8s.io/job-global-index"] for p in pods} == {str(i) for i in range(total)}


def test_jobset_group_labels_follow_group_name() -> None:
    manifest = example("jobset-x-k8s-io-jobset-v1alpha2/leader-workers-gpu.yaml")
    for entry, group in zip(manifest["spec"]["replicatedJobs"], ("a", "b"), strict=False):
        entry["groupName"] = group
    pods = [p for p in pods_of(manifest) if p.created == "pod" and p.entry == 1]
    replicas = manifest["spec"]["replicatedJobs"][1].get("replicas", 1)
    assert {p.labels["jobset.sigs.k8s.io/group-name"] for p in pods} == {"b"}
    assert {p.labels["jobset.sigs.k8s.io/group-replicas"] for p in pods} == {str(replicas)}
    assert {p.labels["jobset.sigs.k8s.io/job-group-index"] for p in pods} == {str(i) for i in range(replicas)}


def test_a_jobset_expression_reading_the_restarting_condition() -> None:
    jobset = catalog("jobset-x-k8s-io-jobset-v1alpha2.yaml")
    old = '.type == "StartupPolicyInProgress" and .status == "True")\n                       | not)'
    # the controller sets RestartingJobSet while a failure policy recreates the Jobs
    restarting = vary(jobset, old, old.replace("StartupPolicyInProgress", "RestartingJobSet"))
    assert findings(restarting, "WM440") == []
    [d] = findings(vary(jobset, old, old.replace("StartupPolicyInProgress", "Restarting")), "WM440")
    assert "Restarting" in d.message


def test_a_misspelled_startup_policy_reason() -> None:
    jobset = catalog("jobset-x-k8s-io-jobset-v1alpha2.yaml")
    text = vary(jobset, '            - byConditions: [{type: Suspended, status: "True"}]\n',
                '            - byConditions: [{type: Suspended, status: "True"}]\n'
                '            - byConditions: [{type: StartupPolicyInProgress, status: "True", '
                'reason: InOrderStartupPolicyInProgres}]\n')
    [d] = findings(text, "WM423")
    assert "'InOrderStartupPolicyInProgress'" in d.message


# -- LeaderWorkerSet v0.10.0: subgroup-size is an annotation and subgroup-worker-index no key at all; the pods
# are StatefulSet pods; one headless Service, one a group with UniquePerReplica; Available excludes the others

LWS = "leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml"
# the leader's type selector comes first in the definition
LEADER_SELECTOR = 'keyPath: .metadata.labels["leaderworkerset.sigs.k8s.io/worker-index"]'


def leader_reading(key: str) -> str:
    """The LeaderWorkerSet definition with its leader's type selector reading ``key`` instead."""
    return vary(catalog(LWS), LEADER_SELECTOR, LEADER_SELECTOR.replace("worker-index", key))


def test_an_lws_selector_on_a_key_the_controller_writes_as_an_annotation() -> None:
    [d] = findings(leader_reading("subgroup-size"), "WM530")
    assert "leaderworkerset.sigs.k8s.io/subgroup-size" in d.message and "never writes" in d.message


def test_an_lws_selector_on_a_key_no_release_writes() -> None:
    [d] = findings(leader_reading("subgroup-worker-index"), "WM530")
    assert "leaderworkerset.sigs.k8s.io/group-index" in d.message
    # the subgroup index is a label the pod webhook writes
    assert findings(leader_reading("subgroup-index"), "WM530") == []


def test_lws_pods_carry_their_statefulset_ordinal() -> None:
    manifest = example("leaderworkerset-x-k8s-io-leaderworkerset-v1/vllm-multinode.yaml")
    size = manifest["spec"]["leaderWorkerTemplate"]["size"]
    pods = pods_of(manifest)
    leaders = [p for p in pods if p.created == "leader"]
    workers = [p for p in pods if p.created == "worker"]
    ordinals = [p.labels["apps.kubernetes.io/pod-index"] for p in leaders]
    assert ordinals == [str(g) for g, _ in enumerate(leaders)]
    # the worker StatefulSet's ordinals start at 1: worker index and ordinal are one number
    group0 = [p for p in workers if p.group == 0]
    assert [p.labels["apps.kubernetes.io/pod-index"] for p in group0] == [str(i) for i in range(1, size)]
    assert [p.labels["statefulset.kubernetes.io/pod-name"] for p in group0] == [
        f"{manifest['metadata']['name']}-0-{i}" for i in range(1, size)]


def test_lws_headless_services_follow_the_subdomain_policy() -> None:
    manifest = example("leaderworkerset-x-k8s-io-leaderworkerset-v1/vllm-multinode.yaml")
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    [service] = [c for c in model.creates if c.name == "service"]
    runtime = JqRuntime()
    assert list(runtime.evaluate(service.count, JqInput(manifest)).outputs) == [1]
    manifest["spec"]["replicas"] = 3
    manifest["spec"]["networkConfig"] = {"subdomainPolicy": "UniquePerReplica"}
    assert list(runtime.evaluate(service.count, JqInput(manifest)).outputs) == [3]


def test_an_lws_matcher_requiring_available_and_progressing() -> None:
    running = '            - byConditions: [{type: Available, status: "True"}]\n          initializing'
    both = running.replace('status: "True"}]', 'status: "True"}, {type: Progressing, status: "True"}]')
    [d] = findings(vary(catalog(LWS), running, both), "WM430")
    assert "never sets Available=True and Progressing=True together" in d.message


# -- Kueue v0.19.2: PodsReady is Started or Recovered when True; two condition types the list lacked; a
# Workload suspends through spec.active

WORKLOAD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: kueue-x-k8s-io-workload-v1beta2
spec:
  structureDefinition:
    rootComponent:
      name: workload
      kind: {group: kueue.x-k8s.io, version: v1beta2, kind: Workload}
      suspendDefinition:
        suspendActions:
          - {path: .spec.active, value: "false"}
        resumeActions:
          - {path: .spec.active, value: "true"}
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: type
          statusFieldName: status
          reasonFieldName: reason
        statusMappings:
          completed:
            - byConditions: [{type: Finished, status: "True", reason: Succeeded}]
          failed:
            - byConditions: [{type: Finished, status: "True", reason: Failed}]
          suspended:
            - byConditions: [{type: Evicted, status: "True", reason: Deactivated}]
          running:
            - byConditions: [{type: PodsReady, status: "True", reason: Started}]
              byExpression:
                expression: any(.status.conditions[]?; .type == "Finished" and .status == "True") | not
                expectedResult: "true"
          initializing:
            - byExpression:
                expression: >-
                  any(.status.conditions[]?; .type == "Admitted" and .status == "True")
                expectedResult: "true"
"""


def test_a_workload_definition_as_kueue_writes_it_has_no_status_finding() -> None:
    found = lint_text(WORKLOAD, "workload.yaml")
    assert [d.message for d in found if d.rule.startswith(("WM4", "WM5"))] == []


def test_a_misspelled_pods_ready_reason() -> None:
    text = vary(WORKLOAD, "reason: Started}", "reason: Recoverd}")
    [d] = findings(text, "WM423")
    assert "'Recovered'" in d.message


def test_a_workload_expression_on_a_condition_type_of_v0_19() -> None:
    old = '.type == "Admitted" and'
    assert findings(vary(WORKLOAD, old, '.type == "WaitingForReplacementPods" and'), "WM440") == []
    assert findings(vary(WORKLOAD, old, '.type == "BlockedOnPreemptionGates" and'), "WM440") == []
    [d] = findings(vary(WORKLOAD, old, '.type == "Admited" and'), "WM440")
    assert "Admitted" in d.message


def test_a_workload_suspend_writing_the_resume_value() -> None:
    # the values of a suspend switch swapped: spec.active is true while the workload may run
    action = '{path: .spec.active, value: "%s"}'
    swapped = vary(WORKLOAD, action % "false", action % "<resume>")
    swapped = vary(swapped, action % "true", action % "false")
    suspend, resume = findings(swapped.replace("<resume>", "true"), "WM535")
    assert "suspends on false and resumes on true" in suspend.message
    assert "this resume action writes false to .spec.active" in resume.message


# -- Kubernetes: API facts at kubernetes/api v0.36.3 (Kubernetes v1.36.3); the Deployment controller's
# ReplicaSetCreateError

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
