"""Pods that live in another object: a TrainJob's pods from the (Cluster)TrainingRuntime it names."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
import yaml
from click.testing import CliRunner

from tests.resolve.typed import resolve
from wmaplint import cli_resolve
from wmaplint.resolve.references import References

CATALOG = Path(__file__).resolve().parents[2] / "catalog"
EXAMPLES = CATALOG / "examples" / "trainer-kubeflow-org-trainjob-v1alpha1"
DEFINITION = yaml.safe_load((CATALOG / "trainer-kubeflow-org-trainjob-v1alpha1.yaml").read_text("utf-8"))


def _runtime(
    kind: str = "ClusterTrainingRuntime",
    name: str = "torch",
    namespace: str | None = None,
    gpus: int = 2,
    num_nodes: int | None = 3,
) -> dict:
    container = {"name": "node", "image": "pytorch", "resources": {"limits": {"nvidia.com/gpu": gpus}}}
    node = {
        "name": "node",
        "template": {
            "metadata": {"labels": {"trainer.kubeflow.org/trainjob-ancestor-step": "trainer"}},
            "spec": {"template": {"spec": {"containers": [container]}}},
        },
    }
    metadata = {"name": name, **({"namespace": namespace} if namespace else {})}
    spec = {"template": {"spec": {"replicatedJobs": [node]}}}
    if num_nodes is not None:
        spec["mlPolicy"] = {"numNodes": num_nodes}
    return {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": kind, "metadata": metadata, "spec": spec}


def _trainjob(ref: dict, namespace: str = "team", **trainer) -> dict:
    return {
        "apiVersion": "trainer.kubeflow.org/v1alpha1",
        "kind": "TrainJob",
        "metadata": {"name": "t", "namespace": namespace},
        "spec": {"runtimeRef": ref, "trainer": trainer},
    }


def _refs(*objects: dict) -> References:
    refs = References()
    for obj in objects:
        assert refs.add(obj, "runtimes.yaml")
    return refs


def test_the_runtime_gives_the_real_pods_and_gpus(runtime) -> None:
    job = _trainjob({"name": "torch"})
    workload = resolve(DEFINITION, job, runtime=runtime, references=_refs(_runtime()))
    assert (workload.total_pods, workload.total_resources["nvidia.com/gpu"]) == (3, 6)
    [note] = workload.notes
    assert "from ClusterTrainingRuntime torch (runtimes.yaml), replicated job node: 3 node(s)" in note
    assert "(a platform reading the definition counts 1)" in note
    assert [g.min_available for g in workload.gangs] == [3]


def test_the_trainjob_overrides_nodes_image_and_resources(runtime) -> None:
    resources = {"limits": {"nvidia.com/gpu": 8}}
    job = _trainjob({"name": "torch"}, numNodes=2, image="mine", resourcesPerNode=resources)
    workload = resolve(DEFINITION, job, runtime=runtime, references=_refs(_runtime()))
    assert (workload.total_pods, workload.total_resources["nvidia.com/gpu"]) == (2, 16)
    [container] = workload.components["node"].instances[0].template.spec["containers"]
    assert container["image"] == "mine"
    assert "2 node(s) from the TrainJob's numNodes," in workload.notes[0]


def test_a_training_runtime_is_found_only_in_the_trainjobs_namespace(runtime) -> None:
    ref = {"name": "torch", "kind": "TrainingRuntime", "apiGroup": "trainer.kubeflow.org"}
    elsewhere = _refs(_runtime("TrainingRuntime", namespace="other"))
    workload = resolve(DEFINITION, _trainjob(ref), runtime=runtime, references=elsewhere)
    assert workload.total_pods == 1
    assert "TrainingRuntime torch, which is not in the input (pass it with --with FILE)" in workload.notes[0]
    here = _refs(_runtime("TrainingRuntime", namespace="team"))
    assert resolve(DEFINITION, _trainjob(ref), runtime=runtime, references=here).total_pods == 3


def test_a_missing_runtime_is_named(runtime) -> None:
    workload = resolve(DEFINITION, _trainjob({"name": "flux"}), runtime=runtime)
    [note] = workload.notes
    assert note.startswith("the pods of node come from ClusterTrainingRuntime flux, which is not in the")
    assert "numNodes the runtime sets is not known (1 assumed)" in note


def test_a_runtime_without_a_trainer_job_says_so(runtime) -> None:
    broken = _runtime()
    broken["spec"]["template"]["spec"]["replicatedJobs"][0]["name"] = "other"
    broken["spec"]["template"]["spec"]["replicatedJobs"][0]["template"]["metadata"] = {}
    job = _trainjob({"name": "torch"})
    workload = resolve(DEFINITION, job, runtime=runtime, references=_refs(broken))
    assert "has no trainer replicated job (node): pods not resolved" in workload.notes[0]
    assert workload.total_pods == 1


@pytest.fixture()
def cli():
    group = click.Group(commands={"tree": cli_resolve.tree})
    return lambda *args: CliRunner().invoke(group, list(args))


def test_tree_takes_the_runtime_with_or_among_the_manifests(cli, tmp_path) -> None:
    job = str(EXAMPLES / "finetune-on-runtime-defaults.yaml")
    runtime_file = str(EXAMPLES / "torch-gpu-runtime.yaml")
    alone = cli("tree", job)
    assert alone.exit_code == 0 and "1 workload, 1 pod, 0 GPUs" in alone.output
    for args in (("--with", runtime_file, job), (runtime_file, job)):
        result = cli("tree", *args, "--format", "json")
        assert result.exit_code == 0, result.output
        [workload] = json.loads(result.output)["workloads"]
        assert (workload["totals"]["pods"], workload["totals"]["gpus"]) == (2, 16)
        assert "ClusterTrainingRuntime torch-gpu" in workload["notes"][0]
    both = tmp_path / "both.yaml"
    both.write_text(Path(runtime_file).read_text() + "\n---\n" + Path(job).read_text())
    assert "1 workload, 2 pods, 16 GPUs" in cli("tree", str(both)).output


def test_a_runtime_alone_is_not_a_workload(cli) -> None:
    result = cli("tree", str(EXAMPLES / "torch-gpu-runtime.yaml"))
    assert result.exit_code == 0  # no workload in the file: an empty result with a note
    assert "ClusterTrainingRuntime torch-gpu is not a workload: give it with --with" in result.output


@pytest.mark.parametrize(
    "spec",
    [
        {"runtimeRef": {"name": "torch"}, "trainer": "not a mapping"},
        {"runtimeRef": {"name": ["torch"]}},
        {"runtimeRef": "torch"},
        {"runtimeRef": {"name": "torch", "kind": {"x": 1}}, "trainer": {"numNodes": "3"}},
    ],
)
def test_odd_trainjobs_never_raise(runtime, spec) -> None:
    job = {"apiVersion": "trainer.kubeflow.org/v1alpha1", "kind": "TrainJob", "metadata": {}, "spec": spec}
    resolve(DEFINITION, job, runtime=runtime, references=_refs(_runtime()))
