"""`tree --pods` on every covered kind with a catalog example: a pod list written from the model's own
synthesis agrees; with a pod removed, a pod's labels changed, or a stray pod added, it says which."""

from __future__ import annotations

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
COMPARE_RULES = {"WM712", "WM713", "WM734", "WM735"}


def _first_with_pods() -> list[Path]:
    """One example a kind: the first whose workload the synthesis gives pods."""
    chosen = []
    for folder in sorted(p for p in EXAMPLES.iterdir() if p.is_dir()):
        for manifest in sorted(folder.glob("*.yaml")):
            pods = _synthesized(manifest)
            if pods is not None and pods["items"]:
                chosen.append(manifest)
                break
    return chosen


def _synthesized(manifest: Path) -> dict[str, Any] | None:
    workloads = resolve_files([str(manifest)], validate=False).workloads
    if len(workloads) != 1:
        return None
    (workload,) = workloads
    obj = next(d for d in yaml.safe_load_all(manifest.read_text(encoding="utf-8"))
               if d and d.get("kind") == workload.kind)
    return as_pod_list(synthesize(workload, obj))


def _tree(tmp_path: Path, manifest: Path, pods: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    listed = tmp_path / "pods.json"
    listed.write_text(json.dumps(pods), encoding="utf-8")
    result = CliRunner().invoke(main, ["tree", str(manifest), "--pods", str(listed), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    out = json.loads(result.stdout)
    (workload,) = out["workloads"]
    found = [f"{d['rule']} {d['message']}" for d in out["diagnostics"] if d["rule"] in COMPARE_RULES]
    return workload["podComparison"], found


MANIFESTS = _first_with_pods()


def test_every_kind_with_an_example_is_covered() -> None:
    assert len(MANIFESTS) >= 20


@pytest.mark.parametrize("manifest", MANIFESTS, ids=[m.parent.name for m in MANIFESTS])
def test_the_synthesized_pod_list_agrees_and_each_change_is_named(tmp_path: Path, manifest: Path) -> None:
    pods = _synthesized(manifest)
    assert pods is not None
    comparison, found = _tree(tmp_path, manifest, pods)
    assert found == [] and comparison["agrees"] is True
    assert comparison["listed"] == comparison["predicted"]

    gone = pods["items"][-1]
    removed = json.loads(json.dumps(pods))
    removed["items"].pop()  # a list emptied of its only pod is compared too: every predicted pod is missing
    comparison, found = _tree(tmp_path, manifest, removed)
    assert comparison is not None and comparison["agrees"] is False
    assert comparison["listed"]["pods"] == len(removed["items"])
    assert any(f.startswith("WM734") and "the pod list has" in f for f in found), found

    relabelled = json.loads(json.dumps(pods))
    pod = relabelled["items"][0]
    pod["metadata"]["labels"] = {"example.com/unrelated": "x"}
    pod["metadata"].pop("ownerReferences", None)
    namespace = pod["metadata"].get("namespace")
    name = f"{namespace}/{pod['metadata']['name']}" if namespace else pod["metadata"]["name"]
    if manifest.parent.name == "core-pod-v1":
        # a Pod is its own workload: relabelled, it is still the object; one of another name is not
        pod["metadata"]["name"] = f"{pod['metadata']['name']}-other"
        name = f"{name}-other"
    comparison, found = _tree(tmp_path, manifest, relabelled)
    assert comparison["agrees"] is False
    assert name in comparison["notOfWorkload"] or any(name in f for f in found), (name, found)

    stray = json.loads(json.dumps(pods))
    metadata = {"name": "debug-shell", "labels": {"app": "shell"}}
    if gone["metadata"].get("namespace"):
        metadata["namespace"] = gone["metadata"]["namespace"]
    stray["items"].append({"apiVersion": "v1", "kind": "Pod", "metadata": metadata,
                           "spec": {"containers": [{"name": "sh", "image": "busybox"}]}})
    comparison, found = _tree(tmp_path, manifest, stray)
    stray_name = f"{metadata['namespace']}/debug-shell" if "namespace" in metadata else "debug-shell"
    assert stray_name in comparison["notOfWorkload"]
