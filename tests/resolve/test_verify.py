"""`tree` synthesizes the pods each controller creates and runs the definition's selectors and gang keys on
them: faults written into the shipped catalog's definitions (PyTorchJob, MPIJob, JobSet, LeaderWorkerSet),
each beside its correct variant, and every catalog example resolves with no such finding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.resolve.run import resolve_files
from wmaplint.resolve.synthesis import synthesize

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog"
EXAMPLES = CATALOG / "examples"
VERIFY_RULES = {"WM730", "WM731", "WM732"}

PYTORCH_MANIFEST = """\
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: mnist}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{name: pytorch, image: mn, resources: {limits: {nvidia.com/gpu: 1}}}]}}
    Worker:
      replicas: 3
      template: {spec: {containers: [{name: pytorch, image: mn, resources: {limits: {nvidia.com/gpu: 1}}}]}}
"""


def _run_tree(tmp_path: Path, definition: str, manifest: str | Path) -> tuple[int, dict]:
    """Exit code and output of `tree --format json` with the catalog definition edited as given."""
    karta = tmp_path / "definition.yaml"
    karta.write_text(definition, encoding="utf-8")
    if isinstance(manifest, str):
        path = tmp_path / "manifest.yaml"
        path.write_text(manifest, encoding="utf-8")
        manifest = path
    result = CliRunner().invoke(main, ["tree", "--definition", str(karta), str(manifest), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def _tree(tmp_path: Path, definition: str, manifest: str | Path) -> tuple[int, list[dict]]:
    """Exit code and findings of `tree --format json` with the catalog definition edited as given."""
    code, data = _run_tree(tmp_path, definition, manifest)
    return code, data["diagnostics"]


def _tree_workload(tmp_path: Path, definition: str, manifest: Path) -> tuple[int, list[dict], dict]:
    """As ``_tree``, with the one workload's JSON."""
    code, data = _run_tree(tmp_path, definition, manifest)
    [workload] = data["workloads"]
    return code, data["diagnostics"], workload


def _catalog(name: str, old: str = "", new: str = "", count: int = 1) -> str:
    text = (CATALOG / f"{name}.yaml").read_text(encoding="utf-8")
    if old:
        assert text.count(old) >= count, old
        text = text.replace(old, new, count)
    return text


def _rules(found: list[dict]) -> list[tuple[str, str]]:
    return [(d["rule"], d["message"]) for d in found if d["rule"] in VERIFY_RULES]


def test_a_type_selector_on_a_value_the_controller_never_writes_claims_no_pod(tmp_path: Path) -> None:
    definition = _catalog("kubeflow-org-pytorchjob-v1", "value: worker", "value: Worker")
    _, found = _tree(tmp_path, definition, PYTORCH_MANIFEST)
    assert _rules(found) == [(
        "WM730",
        "componentTypeSelector of worker claims none of the 3 pods the controller creates for it: they carry "
        "training.kubeflow.org/replica-type='worker' (labels written per kubeflow/training-operator "
        "v1.9.0 pkg/controller.v1/common/pod.go (CreateNewPod))",
    )]
    (where,) = [d for d in found if d["rule"] == "WM730"]
    line = definition.splitlines()[where["line"] - 1]
    assert "componentTypeSelector" in line or "keyPath" in line


def test_a_type_selector_copied_from_a_sibling_claims_its_pods(tmp_path: Path) -> None:
    definition = _catalog("kubeflow-org-pytorchjob-v1", "value: master", "value: worker")
    _, found = _tree(tmp_path, definition, PYTORCH_MANIFEST)
    rules = _rules(found)
    (other,) = [message for rule, message in rules if rule == "WM731"]
    assert other.startswith("componentTypeSelector of master also claims the pods the controller creates for "
                            "worker (such as mnist-")
    assert other.endswith("labels written per kubeflow/training-operator v1.9.0 "
                          "pkg/controller.v1/common/pod.go (CreateNewPod))")
    assert [r for r, _ in rules] == ["WM730", "WM731"]  # and the master's own pod is claimed by none


def test_mpijob_v2_selector_on_the_v1_label_value_claims_no_pod(tmp_path: Path) -> None:
    sample = EXAMPLES / "kubeflow-org-mpijob-v2beta1" / "nccl-allreduce.yaml"
    definition = _catalog("kubeflow-org-mpijob-v2beta1", "value: launcher", "value: Launcher")
    _, found = _tree(tmp_path, definition, sample)
    assert [r for r, _ in _rules(found)] == ["WM730"]
    assert "training.kubeflow.org/job-role='launcher'" in _rules(found)[0][1]


def test_a_jobset_instance_selector_reading_the_workload_label_names_no_entry(tmp_path: Path) -> None:
    definition = _catalog("jobset-x-k8s-io-jobset-v1alpha2",
                          'labels["jobset.sigs.k8s.io/replicatedjob-name"]',
                          'labels["jobset.sigs.k8s.io/jobset-name"]')
    sample = EXAMPLES / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"
    _, found = _tree(tmp_path, definition, sample)
    (only,) = _rules(found)
    assert only[0] == "WM732"
    assert only[1].startswith("componentInstanceSelector of replicatedjob gives ")
    assert "on the pods the controller creates for instance " in only[1]


@pytest.mark.parametrize(("name", "example", "key", "groups"), [
    ("kubeflow-org-mpijob-v2beta1", "nccl-allreduce.yaml", "training.kubeflow.org/job-role",
     {"pg-<uid>-launcher": 1, "pg-<uid>-worker": 4}),
    ("kubeflow-org-pytorchjob-v1", "ddp-master-workers.yaml", "training.kubeflow.org/replica-type",
     {"pg-<uid>-master": 1, "pg-<uid>-worker": 3}),
])
def test_a_gang_key_naming_the_replica_type_gives_each_its_own_pod_group(
        tmp_path: Path, name: str, example: str, key: str, groups: dict[str, int]) -> None:
    # each member is the pods' own component and sizes its PodGroup alone: a split the author chose, not a
    # fault (the model has no fact that the parts must start together)
    gang = f"""\
      podGroups:
        - name: job
          members:
            - componentName: {'launcher' if 'mpi' in name else 'master'}
              groupByKeyPaths: ['.metadata.labels["{key}"]']
            - componentName: worker
              groupByKeyPaths: ['.metadata.labels["{key}"]']
"""
    definition = _catalog(name)
    head, _, _ = definition.partition("      podGroups:")
    _, found, workload = _tree_workload(tmp_path, head + gang, EXAMPLES / name / example)
    assert [d["rule"] for d in found if d["rule"].startswith("WM7")] == []
    assert {g["name"]: g["minAvailable"] for g in workload["grouping"]["podGroups"]} == groups


def test_a_jobset_gang_keyed_by_the_replicated_job_is_one_pod_group_a_replicated_job(tmp_path: Path) -> None:
    # upstream's JobSet gang: the member is the pods' own component, sized by each pod's own instance
    shipped = ('            - componentName: jobset\n'
               '              # a JobSet-wide restart recreates every Job with the next attempt number: '
               'those pods form a new gang\n'
               '              groupByKeyPaths:\n'
               '                - .metadata.labels["jobset.sigs.k8s.io/restart-attempt"]')
    upstream = ('            - componentName: replicatedjob\n'
                '              groupByKeyPaths:\n'
                '                - .metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]')
    definition = _catalog("jobset-x-k8s-io-jobset-v1alpha2", shipped, upstream)
    sample = EXAMPLES / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"
    _, found, workload = _tree_workload(tmp_path, definition, sample)
    assert [d["rule"] for d in found if d["rule"].startswith("WM7")] == []
    assert {g["name"]: g["minAvailable"] for g in workload["grouping"]["podGroups"]} == {
        "pg-<uid>-leader": 1, "pg-<uid>-worker": 2}


def test_lws_leader_selector_on_a_worker_index_claims_no_pod(tmp_path: Path) -> None:
    definition = _catalog("leaderworkerset-x-k8s-io-leaderworkerset-v1", 'value: "0"', 'value: "1"')
    sample = EXAMPLES / "leaderworkerset-x-k8s-io-leaderworkerset-v1" / "vllm-multinode.yaml"
    _, found = _tree(tmp_path, definition, sample)
    # the leader's own pods carry worker index 0; worker index 1 is the first worker of each group
    assert [r for r, _ in _rules(found)] == ["WM730", "WM731"]
    assert "leaderworkerset.sigs.k8s.io/worker-index='0'" in _rules(found)[0][1]
    assert "also claims the pods the controller creates for worker" in _rules(found)[1][1]


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*/*.yaml")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_catalog_examples_give_no_verification_finding(example: Path) -> None:
    run = resolve_files([str(example)], validate=False)
    assert [d.rule for d in run.diagnostics if d.rule in VERIFY_RULES] == []


def test_synthesis_makes_every_pod_the_tree_counts_submitters_and_groups_included() -> None:
    for folder in ("ray-io-rayjob-v1", "leaderworkerset-x-k8s-io-leaderworkerset-v1",
                   "jobset-x-k8s-io-jobset-v1alpha2"):
        for example in sorted((EXAMPLES / folder).glob("*.yaml")):
            run = resolve_files([str(example)], validate=False)
            manifests = [d for d in yaml.safe_load_all(example.read_text(encoding="utf-8")) if d]
            for workload in run.workloads:
                obj = next(d for d in manifests if d.get("kind") == workload.kind
                           and (d.get("metadata") or {}).get("name") == workload.name)
                pods = synthesize(workload, obj)
                assert len(pods) == workload.total_pods, example
                assert len({p.name for p in pods}) == len(pods)


def test_every_tree_of_the_shared_samples_gives_no_verification_finding(shared: Path) -> None:
    found = []
    for sample in sorted((shared / "samples").rglob("*.yaml")):
        run = resolve_files([str(sample)], validate=False)
        found.extend(f"{sample.name}: {d.rule} {d.message}"
                     for d in run.diagnostics if d.rule in VERIFY_RULES)
    assert found == []


def test_wmaplint_test_fails_a_case_whose_selector_claims_no_pod(tmp_path: Path) -> None:
    definition = tmp_path / "pytorchjob.yaml"
    definition.write_text(_catalog("kubeflow-org-pytorchjob-v1", "value: worker", "value: Worker"),
                          encoding="utf-8")
    manifest = EXAMPLES / "kubeflow-org-pytorchjob-v1" / "ddp-master-workers.yaml"
    suite = tmp_path / "pytorchjob.test.yaml"
    suite.write_text(f"definition: {definition}\ncases:\n- name: ddp\n  manifest: {manifest}\n"
                     "  expect: {totals: {pods: 4}}\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["test", str(suite)])
    assert result.exit_code == 1, result.output
    # the worker pods no selector claims: the selector's finding (KAI's grouper, failing for them, says no
    # more)
    assert "findings: expected [], got ['WM730']" in result.output


def test_a_misspelt_label_key_on_a_kind_whose_labels_are_all_known_claims_no_pod(tmp_path: Path) -> None:
    definition = _catalog("kubeflow-org-pytorchjob-v1", 'labels["training.kubeflow.org/replica-type"]',
                          'labels["training.kubeflow.org/replica_type"]', count=2)
    example = EXAMPLES / "kubeflow-org-pytorchjob-v1" / "ddp-master-workers.yaml"
    _, found = _tree(tmp_path, definition, example)
    messages = [m for r, m in _rules(found) if r == "WM730"]
    assert len(messages) == 2
    assert "it carries no training.kubeflow.org/replica_type (the keys its pods carry: " in messages[0]
    assert "training.kubeflow.org/replica-type" in messages[0]


def test_a_misspelt_key_on_a_kind_whose_labels_are_not_all_known_says_nothing(tmp_path: Path) -> None:
    definition = _catalog("jobset-x-k8s-io-jobset-v1alpha2", "jobset.sigs.k8s.io/replicatedjob-name",
                          "jobset.sigs.k8s.io/replicatedjob")
    sample = EXAMPLES / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"
    _, found = _tree(tmp_path, definition, sample)
    assert _rules(found) == []  # the JobSet model is not exhaustive: the key may exist
