"""Facts of the JobSet controller model (schemas/controllers/jobset.yaml), each shown on a real catalog
definition, example or recorded object: the outcome that changed with the fact. JobSet v0.12.0:
labelAndAnnotateObject writes the global and group indexes; RestartingJobSet and the StartupPolicy
conditions with their reasons."""

from __future__ import annotations

from .helpers import (
    catalog,
    example,
    findings,
    pods_of,
    vary,
)


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


def test_a_jobset_terminal_state_misspelt_inside_an_expression() -> None:
    text = catalog("jobset-x-k8s-io-jobset-v1alpha2.yaml")
    assert "expression: .status.terminalState // \"\"" in text
    assert findings(text, "WM441") == []
    wrong = text.replace('expression: .status.terminalState // ""',
                         'expression: (.status.terminalState // "") == "Complete"', 1)
    wrong = wrong.replace("expectedResult: Completed", 'expectedResult: "true"', 1)
    found = findings(wrong, "WM441")
    assert len(found) == 1 and "Completed" in found[0].message
