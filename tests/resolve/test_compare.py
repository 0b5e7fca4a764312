"""`tree --pods`: the tree against the pods `kubectl get pods -o json` lists. A pod list written from the
synthesis of the controller's pods agrees; a pod removed, a label changed, a stray pod added, a GPU ask
changed each say which. On a JobSet (pods owned by its Jobs) and a PyTorchJob (pods owned by the job)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.resolve.run import resolve_files
from wmaplint.resolve.synthesis import as_pod_list, synthesize

EXAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "examples"
JOBSET = EXAMPLES / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"
PYTORCH = EXAMPLES / "kubeflow-org-pytorchjob-v1" / "ddp-master-workers.yaml"
COMPARE_RULES = {"WM712", "WM713", "WM734", "WM735"}


def _synthesized(manifest: Path) -> dict[str, Any]:
    (workload,) = resolve_files([str(manifest)], validate=False).workloads
    obj = next(d for d in yaml.safe_load_all(manifest.read_text(encoding="utf-8"))
               if d and d.get("kind") == workload.kind)
    return as_pod_list(synthesize(workload, obj))


def _tree(tmp_path: Path, manifest: Path, pods: dict[str, Any], as_yaml: bool = False
          ) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    listed = tmp_path / ("pods.yaml" if as_yaml else "pods.json")
    listed.write_text(yaml.safe_dump(pods) if as_yaml else json.dumps(pods), encoding="utf-8")
    result = CliRunner().invoke(main, ["tree", str(manifest), "--pods", str(listed), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    out = json.loads(result.stdout)
    (workload,) = out["workloads"]
    found = []
    for d in out["diagnostics"]:
        if d["rule"] in COMPARE_RULES:
            # the catalog's definitions are shipped ones: a finding stands on the manifest and names them
            message, shipped, _ = d["message"].partition(f" (shipped definition {workload['definition']}, ")
            assert shipped and d["path"] == str(manifest), d
            found.append((d["rule"], message))
    return workload["podComparison"], found


def _names(pods: dict[str, Any]) -> list[str]:
    return [p["metadata"]["name"] for p in pods["items"]]


LWS = EXAMPLES / "leaderworkerset-x-k8s-io-leaderworkerset-v1" / "vllm-multinode.yaml"
RAYJOB = EXAMPLES / "ray-io-rayjob-v1" / "pytorch-training-running.yaml"
DYNAMO = EXAMPLES / "nvidia-com-dynamographdeployment-v1beta1" / "trtllm-disagg-multinode.yaml"


@pytest.mark.parametrize("manifest", [JOBSET, PYTORCH, LWS, RAYJOB, DYNAMO],
                         ids=["jobset", "pytorchjob", "leaderworkerset", "rayjob", "dynamo"])
def test_the_synthesized_pod_list_agrees_with_the_tree(tmp_path: Path, manifest: Path) -> None:
    pods = _synthesized(manifest)
    for as_yaml in (False, True):
        comparison, found = _tree(tmp_path, manifest, pods, as_yaml)
        assert found == []
        assert comparison["agrees"] is True
        assert comparison["listed"] == comparison["predicted"]
        assert comparison["notOfWorkload"] == []
        assert set(comparison["belonging"].values()) <= {"owner", "owner name"}


def test_a_removed_jobset_pod_is_missing_from_its_instance(tmp_path: Path) -> None:
    pods = _synthesized(JOBSET)
    del pods["items"][-1]  # the second worker
    comparison, found = _tree(tmp_path, JOBSET, pods)
    assert comparison["agrees"] is False
    assert ("WM734", "replicatedjob/worker: the tree predicts 2 pods, the pod list has 1") in found
    assert ("WM734", "replicatedjob: the tree predicts 3 pods, the pod list has 2") in found
    assert ("WM735", "JobSet llm-pretrain: the tree predicts 12 GPUs, the workload's listed pods ask for 8"
            ) in found


def test_a_changed_jobset_label_names_the_pod(tmp_path: Path) -> None:
    pods = _synthesized(JOBSET)
    pods["items"][1]["metadata"]["labels"]["jobset.sigs.k8s.io/replicatedjob-name"] = "evaluator"
    changed = pods["items"][1]["metadata"]["name"]
    _, found = _tree(tmp_path, JOBSET, pods)
    assert ("WM712", f"pod research/{changed} names instance 'evaluator' of replicatedjob, which the "
            "manifest does not have (leader, worker)") in found
    assert ("WM734", "replicatedjob/worker: the tree predicts 2 pods, the pod list has 1") in found
    assert ("WM734", "replicatedjob/evaluator: the tree predicts 0 pods, the pod list has 1 "
            f"(research/{changed})") in found


def test_a_stray_pod_without_owner_is_not_attributed_to_the_jobset(tmp_path: Path) -> None:
    pods = _synthesized(JOBSET)
    metadata = {"name": "debug-shell", "namespace": "research", "labels": {"app": "shell"}}
    pods["items"].append({"apiVersion": "v1", "kind": "Pod", "metadata": metadata,
                          "spec": {"containers": [{"name": "sh", "image": "busybox"}]}})
    comparison, found = _tree(tmp_path, JOBSET, pods)
    assert found == []
    assert comparison["agrees"] is True
    assert comparison["notOfWorkload"] == ["research/debug-shell"]
    assert "research/debug-shell" not in comparison["belonging"]


def test_a_pod_of_another_job_is_not_of_the_workload_even_with_its_labels(tmp_path: Path) -> None:
    pods = _synthesized(JOBSET)
    other = copy.deepcopy(pods["items"][0])
    other["metadata"]["name"] = "copy-0"
    other["metadata"]["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": "nightly-eval",
                                             "controller": True}]
    pods["items"].append(other)
    comparison, found = _tree(tmp_path, JOBSET, pods)
    assert found == [] and comparison["notOfWorkload"] == ["research/copy-0"]


def test_ownership_is_followed_through_the_jobs_listed_beside_the_pods(tmp_path: Path) -> None:
    pods = _synthesized(JOBSET)
    jobs = []
    for number, pod in enumerate(pods["items"]):
        uid = f"job-{number}"
        pod["metadata"]["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": f"j{number}",
                                               "uid": uid, "controller": True}]
        jobs.append({"apiVersion": "batch/v1", "kind": "Job", "metadata": {
            "name": f"j{number}", "uid": uid, "ownerReferences": [
                {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet", "name": "llm-pretrain",
                 "controller": True}]}})
    pods["items"].extend(jobs)
    comparison, found = _tree(tmp_path, JOBSET, pods)
    assert found == [] and comparison["agrees"] is True
    assert set(comparison["belonging"].values()) == {"owner"}


def test_a_removed_pytorch_worker_and_a_relabelled_one(tmp_path: Path) -> None:
    pods = _synthesized(PYTORCH)
    workers = [p for p in pods["items"] if p["metadata"]["labels"]["training.kubeflow.org/replica-type"]
               == "worker"]
    assert len(workers) >= 2
    pods["items"].remove(workers[0])
    workers[1]["metadata"]["labels"]["training.kubeflow.org/replica-type"] = "master"
    comparison, found = _tree(tmp_path, PYTORCH, pods)
    predicted = {c["component"]: c["predicted"] for c in comparison["components"]}
    assert ("WM734", "master: the tree predicts 1 pod, the pod list has 2") in found
    assert ("WM734", f"worker: the tree predicts {predicted['worker']} pods, the pod list has "
            f"{predicted['worker'] - 2}") in found


def test_a_stray_pytorch_pod_without_owner_or_label_is_claimed_by_no_one(tmp_path: Path) -> None:
    pods = _synthesized(PYTORCH)
    pods["items"].append({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "notebook"},
                          "spec": {"containers": [{"name": "nb", "image": "jupyter"}]}})
    comparison, found = _tree(tmp_path, PYTORCH, pods)
    assert found == [] and comparison["notOfWorkload"] == ["notebook"]


def test_the_text_output_says_what_differs(tmp_path: Path) -> None:
    pods = _synthesized(JOBSET)
    del pods["items"][-1]
    listed = tmp_path / "pods.json"
    listed.write_text(json.dumps(pods), encoding="utf-8")
    result = CliRunner().invoke(main, ["tree", str(JOBSET), "--pods", str(listed)])
    assert ("  pod list: 2 pods of the workload, 8 GPUs; predicted 3 pods, 12 GPUs: differs from the tree"
            in result.stdout)
    assert "    replicatedjob/worker: predicted 2, listed 1" in result.stdout
    assert _names(pods)[0] in result.stdout


DEPLOYMENT = EXAMPLES / "apps-deployment-v1" / "stalled-rollout.yaml"
NOTEBOOK = EXAMPLES / "core-pod-v1" / "gpu-notebook.yaml"
PREDICTOR = EXAMPLES / "serving-kserve-io-inferenceservice-v1beta1" / "hf-llm-gpu.yaml"


def test_an_orphan_deployment_pod_belongs_by_its_template_labels_and_not_without_them(tmp_path: Path) -> None:
    pods = _synthesized(DEPLOYMENT)
    (pod,) = pods["items"]
    pod["metadata"].pop("ownerReferences")  # orphaned: its ReplicaSet's selector still matches its labels
    comparison, found = _tree(tmp_path, DEPLOYMENT, pods)
    assert comparison["agrees"] is True
    assert comparison["belonging"] == {"inference/embedder-pod-0-0": "labels"}
    pod["metadata"]["labels"] = {"app": "other"}
    comparison, found = _tree(tmp_path, DEPLOYMENT, pods)
    assert comparison["notOfWorkload"] == ["inference/embedder-pod-0-0"] and comparison["agrees"] is False
    assert ("WM734", "deployment: the tree predicts 1 pod, the pod list has 0") in found


def test_a_pod_is_its_own_workload_by_name(tmp_path: Path) -> None:
    pods = _synthesized(NOTEBOOK)
    assert _names(pods) == ["notebook-alice"] and "ownerReferences" not in pods["items"][0]["metadata"]
    pods["items"][0]["metadata"]["labels"] = {"relabelled": "yes"}
    comparison, _ = _tree(tmp_path, NOTEBOOK, pods)
    assert comparison["agrees"] is True and comparison["belonging"] == {"notebooks/notebook-alice": "itself"}
    pods["items"][0]["metadata"]["name"] = "notebook-bob"
    comparison, _ = _tree(tmp_path, NOTEBOOK, pods)
    assert comparison["notOfWorkload"] == ["notebooks/notebook-bob"]


def test_an_empty_pod_list_is_compared(tmp_path: Path) -> None:
    comparison, found = _tree(tmp_path, NOTEBOOK, {"apiVersion": "v1", "kind": "List", "items": []})
    assert comparison["predicted"] == {"pods": 1, "gpus": 2}
    assert comparison["listed"] == {"pods": 0, "gpus": 0}
    assert sorted(rule for rule, _ in found) == ["WM734", "WM735"]


def test_predictor_pods_run_the_assembled_template_with_its_component_label(tmp_path: Path) -> None:
    pods = _synthesized(PREDICTOR)
    assert [p["metadata"]["labels"]["component"] for p in pods["items"]] == ["predictor", "predictor"]
    (container,) = pods["items"][0]["spec"]["containers"]
    assert container["resources"]["limits"]["nvidia.com/gpu"] == "1"
    comparison, found = _tree(tmp_path, PREDICTOR, pods)
    assert found == [] and comparison["listed"] == {"pods": 2, "gpus": 2}


def test_a_pod_of_the_workload_in_no_instance_counts_in_no_instance_row(tmp_path: Path) -> None:
    pods = _synthesized(DYNAMO)
    pod = pods["items"][0]  # still owned by its component deployment, but its entry label is gone
    pod["metadata"]["labels"].pop("nvidia.com/dynamo-component")
    comparison, found = _tree(tmp_path, DYNAMO, pods)
    assert comparison["agrees"] is False
    assert [c["instance"] for c in comparison["components"]] == [None, "Frontend", "decode", "prefill"]
    assert ("WM734", "component/Frontend: the tree predicts 1 pod, the pod list has 0") in found


def test_a_fraction_of_a_gpu_in_the_totals_is_worded_in_decimals_and_one_gpu_in_the_singular() -> None:
    from decimal import Decimal

    from wmaplint.diagnostics import Span
    from wmaplint.findings import diagnostics_of
    from wmaplint.resolve.findings import GpuTotalDiffers

    found = GpuTotalDiffers("job.yaml", Span(1, 1, 1, 2), "JobSet", "tiny", Decimal("1"), Decimal("0.00001"))
    (diagnostic,) = diagnostics_of([found])
    assert diagnostic.message == ("JobSet tiny: the tree predicts 1 GPU, the workload's listed pods ask for "
                                  "0.00001")
