"""The PodGroups KAI's Karta grouper makes of a workload's pods (wmaplint.resolve.grouper, .gang), and what
the rules say of them: the cases follow kai-scheduler/KAI-Scheduler@d5bc503
pkg/podgrouper/podgrouper/plugins/karta/
grouper.go and the Workload Map library's CalculateSubtreeScale."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from tests.resolve.typed import findings, resolve
from wmaplint.diagnostics import Severity
from wmaplint.report.workloads import render_text
from wmaplint.resolve.model import Workload
from wmaplint.resolve.run import TreeRun, resolve_files
from wmaplint.rules.examples import PYFLOW_GANG, PYFLOW_MANIFEST, pyflow_tree

UID = "a1b2c3d4-e5f6-7890-abcd-ef1234567890"
ROLE = ".metadata.labels.role"


def _run(tmp_path: Path, text: str, pods: str | None = None) -> TreeRun:
    path = tmp_path / "pyflow.yaml"
    path.write_text(text, encoding="utf-8")
    listed = None
    if pods is not None:
        listed = tmp_path / "pods.yaml"
        listed.write_text(pods, encoding="utf-8")
    return resolve_files([str(path)], pods_path=str(listed) if listed else None, use_catalog=False,
                         validate=False)


def _members(*members: str) -> str:
    listed = "".join(f"        - {m}\n" for m in members)
    return PYFLOW_GANG.replace("        - {componentName: pyflow}\n", listed)


def _groups(workload: Workload) -> dict[str, Any]:
    assert workload.grouping is not None
    return {g.name: (g.min_available, sorted(p.pod.rsplit("-", 2)[-2] for p in g.pods))
            for g in workload.grouping.groups}


def _jobset_gang(definition: dict[str, Any], member: str, key: str) -> dict[str, Any]:
    definition = copy.deepcopy(definition)
    keys = [f'.metadata.labels["jobset.sigs.k8s.io/{key}"]']
    definition["spec"]["optimizationInstructions"] = {"gangScheduling": {"podGroups": [
        {"name": "job", "members": [{"componentName": member, "groupByKeyPaths": keys}]}]}}
    return definition


# -- the name and the min-available of each pod --------------------------------------------------------------


def test_the_root_as_member_sizes_every_pod_by_the_whole_workload(tmp_path: Path) -> None:
    [workload] = _run(tmp_path, pyflow_tree()).workloads
    [group] = workload.grouping.groups if workload.grouping else []
    assert group.name == f"pg-{UID}" and group.min_available == 3 and len(group.pods) == 3
    assert workload.gangs[0].min_available == 3 and findings(workload) == []


def test_members_for_the_parts_compute_each_their_own_min_available(tmp_path: Path) -> None:
    run = _run(tmp_path, pyflow_tree(_members("{componentName: master}", "{componentName: worker}")))
    [workload] = run.workloads
    assert workload.grouping is not None
    [group] = workload.grouping.groups
    assert {value: len(pods) for value, pods in group.computed.items()} == {1: 1, 2: 2}
    [finding] = [d for d in run.diagnostics if d.rule == "WM736"]
    assert finding.severity == Severity.ERROR  # a kind of no grouper of KAI's own: the Karta grouper reads it
    computed = "1 pod of master computes 1 (member master); 2 pods of worker compute 2 (member worker)"
    assert computed in finding.message
    assert "keeps the last pod's" in finding.message
    text = render_text(run.workloads)
    assert "min-available differs by pod: 1 (master 1); 2 (worker 2); KAI keeps the last pod's" in text


def test_an_instance_scoped_member_keyed_across_its_instances(jobset_definition, jobset_manifest, runtime):
    # the shipped JobSet gang before: member replicatedjob, one key value for the whole run
    definition = _jobset_gang(jobset_definition, "replicatedjob", "jobset-name")
    workload = resolve(definition, jobset_manifest, runtime=runtime)
    [finding] = [d for d in findings(workload) if d.rule == "WM736"]
    assert ("1 pod of replicatedjob/leader computes 1 (member replicatedjob, instance leader); 2 pods of "
            "replicatedjob/workers compute 2 (member replicatedjob, instance workers)") in finding.message
    # KAI groups a JobSet with its own grouper first: the Karta grouper reads this gang only without it
    assert finding.severity == Severity.WARNING
    assert "KAI groups jobset.x-k8s.io/v1alpha2 JobSet with its own JobSet grouper" in finding.message


def test_a_gang_per_replicated_job_is_consistent(jobset_definition, jobset_manifest, runtime):
    # upstream's JobSet gang: one PodGroup a replicated job, each sized by its own instance
    definition = _jobset_gang(jobset_definition, "replicatedjob", "replicatedjob-name")
    workload = resolve(definition, jobset_manifest, runtime=runtime)
    assert {g.name: g.min_available for g in workload.grouping.groups} == {
        "pg-<uid>-leader": 1, "pg-<uid>-workers": 2}
    assert [d.rule for d in findings(workload)] == []


def test_the_whole_jobset_per_restart_attempt(jobset_definition, jobset_manifest, runtime):
    # the shipped JobSet gang now: the root as the member, a PodGroup a restart attempt
    definition = _jobset_gang(jobset_definition, "jobset", "restart-attempt")
    workload = resolve(definition, jobset_manifest, runtime=runtime)
    assert {g.name: g.min_available for g in workload.grouping.groups} == {"pg-<uid>-0": 3}
    assert findings(workload) == []


def test_min_replicas_is_preferred_and_a_parent_multiplies(tmp_path: Path) -> None:
    text = pyflow_tree().replace(
        "scaleDefinition: {replicasPath: .spec.worker.replicas}",
        "scaleDefinition: {replicasPath: .spec.worker.replicas, minReplicasPath: '1'}")
    [workload] = _run(tmp_path, text).workloads
    assert workload.gangs[0].min_available == 2  # master 1 + worker's minReplicas 1
    text = text.replace("      name: pyflow\n      kind:", "      name: pyflow\n      scaleDefinition: "
                        "{replicasPath: '2'}\n      kind:")
    [workload] = _run(tmp_path, text).workloads
    assert workload.gangs[0].min_available == 4  # 2 x (1 + 1)


def test_without_any_scale_the_leaves_are_counted(tmp_path: Path) -> None:
    text = pyflow_tree()
    for role in ("master", "worker"):
        text = text.replace(f"      scaleDefinition: {{replicasPath: .spec.{role}.replicas}}\n", "")
    [workload] = _run(tmp_path, text).workloads
    assert workload.gangs[0].min_available == 2  # two components with a pod definition


def test_a_key_per_part_of_the_root_never_fills(tmp_path: Path) -> None:
    run = _run(tmp_path, pyflow_tree(_members(f"{{componentName: pyflow, groupByKeyPaths: [{ROLE}]}}")))
    [workload] = run.workloads
    assert _groups(workload) == {f"pg-{UID}-master": (3, ["master"]),
                                 f"pg-{UID}-worker": (3, ["worker", "worker"])}
    found = sorted(d.message for d in run.diagnostics if d.rule == "WM737")
    assert len(found) == 2
    assert "asks for min-available 3, the subtree scale of member pyflow, but only 1 pod" in found[0]


def test_a_key_splitting_the_parts_each_sized_alone_is_silent(tmp_path: Path) -> None:
    run = _run(tmp_path, pyflow_tree(_members(f"{{componentName: master, groupByKeyPaths: [{ROLE}]}}",
                                              f"{{componentName: worker, groupByKeyPaths: [{ROLE}]}}")))
    [workload] = run.workloads
    assert _groups(workload) == {f"pg-{UID}-master": (1, ["master"]),
                                 f"pg-{UID}-worker": (2, ["worker", "worker"])}
    assert [d.rule for d in run.diagnostics] == []  # splitting one workload is the author's choice


def test_a_key_without_a_value_fails_the_pods(tmp_path: Path) -> None:
    run = _run(tmp_path, pyflow_tree(_members(
        "{componentName: pyflow, groupByKeyPaths: ['.metadata.labels.role | select(. == \"master\")']}")))
    [finding] = [d for d in run.diagnostics if d.rule == "WM738"]
    assert "fails for 2 pods (pyflow-example-worker-0, pyflow-example-worker-1)" in finding.message
    assert "expected single query result, got 0" in finding.message


def test_a_pod_no_member_takes_is_not_grouped(tmp_path: Path) -> None:
    run = _run(tmp_path, pyflow_tree(_members("{componentName: master}")))
    found = [d for d in run.diagnostics if d.rule == "WM739"]
    assert len(found) == 1 and "2 pods" in found[0].message
    assert "does not match any Karta pod group member definition" in found[0].message


def test_a_podgroup_v2_has_sub_groups_and_min_available_zero(tmp_path: Path) -> None:
    gang = ("      podGroup:\n        name: train\n"
            "        subGroups: [{componentName: master}, {componentName: worker}]\n")
    [workload] = _run(tmp_path, pyflow_tree(gang)).workloads
    assert workload.grouping is not None
    [group] = workload.grouping.groups
    assert (group.name, group.min_available, group.min_subgroups) == (f"pg-{UID}-train", 0, 2)
    assert [(s.name, s.min_available, len(s.pods)) for s in group.sub_groups] == [
        ("master", 1, 1), ("worker", 2, 2)]
    assert (workload.gangs[0].min_available, workload.gangs[0].min_subgroups) == (0, 2)


def test_a_sub_group_of_scale_zero_is_refused(tmp_path: Path) -> None:
    gang = "      podGroup:\n        name: train\n        subGroups: [{componentName: master}]\n"
    text = pyflow_tree(gang, ".spec.master.replicas}", ".spec.master.minReplicas}")
    [finding] = [d for d in _run(tmp_path, text).diagnostics if d.rule == "WM740"]
    assert "component master must expose a replica scale definition" in finding.message


def test_a_topology_without_a_level_is_refused(tmp_path: Path) -> None:
    gang = "      podGroup:\n        name: train\n        topology: {topologyName: rack}\n"
    [finding] = [d for d in _run(tmp_path, pyflow_tree(gang)).diagnostics if d.rule == "WM740"]
    assert "topology constraint must include preferred or required topology level" in finding.message


# -- which grouper KAI asks ----------------------------------------------------------------------------------


def test_without_gang_instructions_the_default_grouper(tmp_path: Path) -> None:
    text = pyflow_tree("").replace("  optimizationInstructions:\n    gangScheduling:\n", "")
    [workload] = _run(tmp_path, text).workloads
    assert workload.grouping is not None and workload.grouping.grouper == "default"
    assert [g.name for g in workload.grouping.groups] == [f"pg-pyflow-example-{UID}"]


def test_a_definition_the_validator_refuses_is_skipped(tmp_path: Path) -> None:
    text = pyflow_tree().replace("      statusDefinition:\n        phaseDefinition: {path: .status.phase}\n"
                                 "        statusMappings: {running: [{byPhase: Running}]}\n", "")
    [workload] = _run(tmp_path, text).workloads
    assert workload.grouping is not None and workload.grouping.grouper == "default"
    assert "root component must have status definition" in workload.grouping.why


def test_a_definition_of_another_version_is_not_taken(tmp_path: Path) -> None:
    text = pyflow_tree().replace("apiVersion: jobs.example.com/v1\n", "apiVersion: jobs.example.com/v2\n")
    [workload] = _run(tmp_path, text).workloads
    assert workload.grouping is not None and workload.grouping.grouper == "default"
    assert "exact group, version and kind" in workload.grouping.why


# -- what is not known offline -------------------------------------------------------------------------------


def test_a_label_the_manifest_does_not_tell_leaves_the_pod_group_unknown(tmp_path: Path) -> None:
    run = _run(tmp_path, pyflow_tree(_members(
        '{componentName: pyflow, groupByKeyPaths: [\'.metadata.labels["pod-template-hash"]\']}')))
    [workload] = run.workloads
    assert workload.grouping is not None and workload.grouping.groups == []
    assert len(workload.grouping.unknown) == 3 and run.diagnostics == []
    assert "PodGroup not known offline for 3 pods" in render_text(run.workloads)


def test_without_a_uid_the_name_says_so(tmp_path: Path) -> None:
    text = pyflow_tree().replace(f", uid: {UID}", "")
    [workload] = _run(tmp_path, text).workloads
    assert workload.grouping is not None and workload.grouping.groups[0].name == "pg-<uid>"
    assert "<uid>: the workload's uid" in render_text([workload])


def test_listed_pods_use_their_labels_and_owner_uid(tmp_path: Path) -> None:
    manifest = yaml.safe_load(PYFLOW_MANIFEST)
    pods = []
    for role, count in (("master", 1), ("worker", 2)):
        template = manifest["spec"][role]["template"]
        for index in range(count):
            pods.append({"apiVersion": "v1", "kind": "Pod", "metadata": {
                "name": f"p-{role}-{index}", "labels": {**template["metadata"]["labels"], "run": f"r{index}"},
                "ownerReferences": [{"apiVersion": "jobs.example.com/v1", "kind": "PyFlow",
                                     "name": "pyflow-example", "uid": "owner-uid", "controller": True}]},
                "spec": template["spec"]})
    text = pyflow_tree(_members("{componentName: pyflow, groupByKeyPaths: [.metadata.labels.run]}")).replace(
        f", uid: {UID}", "")
    run = _run(tmp_path, text, yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": pods}))
    [workload] = run.workloads
    assert workload.grouping is not None and workload.grouping.pods == "listed"
    assert {g.name: (g.min_available, len(g.pods)) for g in workload.grouping.groups} == {
        "pg-owner-uid-r0": (3, 2), "pg-owner-uid-r1": (3, 1)}
    # a pod list may miss pods: only the pods synthesized from the manifest tell that a PodGroup never fills
    assert [d.rule for d in run.diagnostics if d.rule.startswith("WM7")] == []
