"""Pods without an owner, as the tree judges them. A Deployment, ReplicaSet, StatefulSet, DaemonSet or Job
adopts an orphan only when its own spec.selector, a Kubernetes LabelSelector, matches it: matchLabels and
matchExpressions ANDed. Otherwise the controller's label naming the workload (a JobSet's pods) decides, else
the definition's componentTypeSelector as the runtime reads it; that selector is not a LabelSelector: the
Karta CRD (../shared/crds/run.ai/karta_v1alpha1.yaml) gives it keyPath, value and matchLabels only, and the
API server prunes a field the schema does not name, so a matchExpressions there is never evaluated, by the
runtime or the tree (`check` says the field is unknown, WM112)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from tests.resolve.typed import resolve, typed
from wmaplint.cli import main
from wmaplint.engine import lint_text
from wmaplint.resolve.compare import label_selector_matches
from wmaplint.resolve.pods import attribute_pods
from wmaplint.resolve.run import resolve_files
from wmaplint.resolve.synthesis import as_pod_list, synthesize

EXAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "examples"
JOBSET = EXAMPLES / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"

REPLICA_TYPE = "training.kubeflow.org/replica-type"
# a worker component whose selector also carries a matchExpressions, as a LabelSelector would
PYTORCH = {
    "metadata": {"name": "kubeflow-org-pytorchjob-v1"},
    "spec": {
        "structureDefinition": {
            "rootComponent": {
                "name": "pytorchjob",
                "kind": {"group": "kubeflow.org", "version": "v1", "kind": "PyTorchJob"},
                "statusDefinition": {"phaseDefinition": {"path": ".status.phase"}},
            },
            "childComponents": [
                {
                    "name": "worker",
                    "ownerRef": "pytorchjob",
                    "specDefinition": {"podTemplateSpecPath": ".spec.pytorchReplicaSpecs.Worker.template"},
                    "podSelector": {
                        "componentTypeSelector": {
                            "matchLabels": {REPLICA_TYPE: "worker", "team": "vision"},
                            "matchExpressions": [{"key": "canary", "operator": "DoesNotExist"}],
                        }
                    },
                },
                {
                    "name": "master",
                    "ownerRef": "pytorchjob",
                    "specDefinition": {"podTemplateSpecPath": ".spec.pytorchReplicaSpecs.Master.template"},
                    "podSelector": {"componentTypeSelector": {"matchLabels": {REPLICA_TYPE: "master"}}},
                },
            ],
        }
    },
}
MANIFEST = {
    "apiVersion": "kubeflow.org/v1",
    "kind": "PyTorchJob",
    "metadata": {"name": "mnist"},
    "spec": {
        "pytorchReplicaSpecs": {
            "Master": {"template": {"spec": {"containers": [{"name": "m", "image": "i"}]}}},
            "Worker": {"template": {"spec": {"containers": [{"name": "w", "image": "i"}]}}},
        }
    },
}


def _pod(name: str, **labels: str) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "labels": labels}}


def test_every_match_label_must_hold_and_a_match_expressions_is_not_evaluated(runtime):
    workload = resolve(PYTORCH, MANIFEST, runtime=runtime)
    pods = [
        _pod("w-0", **{REPLICA_TYPE: "worker", "team": "vision"}),
        _pod("w-1", **{REPLICA_TYPE: "worker"}),  # one matchLabels entry missing: not the worker's
        _pod("w-2", **{REPLICA_TYPE: "worker", "team": "speech"}),  # one entry of another value
        # a LabelSelector's DoesNotExist would leave it out; the runtime never reads the field
        _pod("w-3", **{REPLICA_TYPE: "worker", "team": "vision", "canary": "true"}),
        _pod("m-0", **{REPLICA_TYPE: "master"}),
    ]
    found = attribute_pods(typed(PYTORCH), workload, pods, runtime)
    assert [(a.pod, a.component) for a in found] == [
        ("w-0", "worker"), ("w-1", None), ("w-2", None), ("w-3", "worker"), ("m-0", "master")]


def test_check_says_a_match_expressions_in_a_type_selector_is_an_unknown_field():
    text = yaml.safe_dump({"apiVersion": "run.ai/v1alpha1", "kind": "Karta", **PYTORCH}, sort_keys=False)
    unknown = [d for d in lint_text(text, "definition.yaml") if d.rule == "WM112"]
    assert [d.message for d in unknown] == [
        "unknown field 'matchExpressions' in "
        "spec.structureDefinition.childComponents[0].podSelector.componentTypeSelector"]


def _orphaned_jobset_pods() -> dict[str, Any]:
    """The pods the JobSet example's controller makes, their owners taken away."""
    (workload,) = resolve_files([str(JOBSET)], validate=False).workloads
    obj = next(d for d in yaml.safe_load_all(JOBSET.read_text(encoding="utf-8"))
               if d and d.get("kind") == workload.kind)
    pods = copy.deepcopy(as_pod_list(synthesize(workload, obj)))
    for pod in pods["items"]:
        pod["metadata"].pop("ownerReferences", None)
    return pods


def test_an_orphaned_jobset_pod_is_the_workloads_by_its_jobset_name_label_alone(tmp_path):
    pods = _orphaned_jobset_pods()
    first, second = pods["items"][0]["metadata"], pods["items"][1]["metadata"]
    name = first["labels"]["jobset.sigs.k8s.io/jobset-name"]
    second["labels"]["jobset.sigs.k8s.io/jobset-name"] = "another-jobset"
    listed = tmp_path / "pods.json"
    listed.write_text(json.dumps(pods), encoding="utf-8")
    result = CliRunner().invoke(main, ["tree", str(JOBSET), "--pods", str(listed), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    (workload,) = json.loads(result.stdout)["workloads"]
    comparison = workload["podComparison"]
    assert workload["name"] == name
    assert comparison["notOfWorkload"] == [f"{second['namespace']}/{second['name']}"]
    assert set(comparison["belonging"].values()) == {"labels"}
    assert len(comparison["belonging"]) == len(pods["items"]) - 1


STATEFULSET = EXAMPLES / "apps-statefulset-v1" / "vector-db.yaml"


def _statefulset_with_expressions(tmp_path: Path, expressions: list[dict[str, Any]], **labels: str) -> Path:
    """The StatefulSet example, its selector given matchExpressions beside its matchLabels (and its template
    ``labels`` more, as the API server wants the selector to match them)."""
    documents = list(yaml.safe_load_all(STATEFULSET.read_text(encoding="utf-8")))
    documents[0]["spec"]["selector"]["matchExpressions"] = expressions
    documents[0]["spec"]["template"]["metadata"]["labels"].update(labels)
    manifest = tmp_path / "vector-db.yaml"
    manifest.write_text(yaml.safe_dump_all(documents), encoding="utf-8")
    return manifest


def _orphan(name: str, **labels: str) -> dict[str, Any]:
    gpu = {"limits": {"nvidia.com/gpu": 1}}
    metadata = {"name": name, "namespace": "data", "labels": labels}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": metadata,
            "spec": {"containers": [{"name": "db", "image": "qdrant/qdrant", "resources": gpu}]}}


def _comparison(tmp_path: Path, manifest: Path, pods: list[dict[str, Any]]
                ) -> tuple[dict[str, Any], list[str]]:
    listed = tmp_path / "pods.json"
    listed.write_text(json.dumps({"apiVersion": "v1", "kind": "PodList", "items": pods}), encoding="utf-8")
    result = CliRunner().invoke(main, ["tree", str(manifest), "--pods", str(listed), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    out = json.loads(result.stdout)
    (workload,) = out["workloads"]
    return workload["podComparison"], sorted({d["rule"] for d in out["diagnostics"]})


def test_an_orphan_the_statefulsets_match_expressions_leave_out_is_not_the_workloads(tmp_path):
    # the StatefulSet controller adopts an orphan only when its selector matches: the canary pod carries every
    # label of the template, so only the NotIn requirement leaves it out
    manifest = _statefulset_with_expressions(tmp_path, [{"key": "track", "operator": "NotIn",
                                                         "values": ["canary"]}])
    pods = [_orphan(f"vectordb-{i}", app="vectordb") for i in range(3)]
    pods.append(_orphan("canary-db", app="vectordb", track="canary"))
    comparison, rules = _comparison(tmp_path, manifest, pods)
    assert comparison["notOfWorkload"] == ["data/canary-db"]
    assert comparison["listed"] == {"pods": 3, "gpus": 3}
    assert "WM734" not in rules and "WM735" not in rules  # the pod and GPU counts agree with the tree


def test_an_orphan_an_exists_requirement_needs_is_not_the_workloads(tmp_path):
    # the template has the label; an orphan without it carries some of the template's labels, not all
    manifest = _statefulset_with_expressions(tmp_path, [{"key": "tier", "operator": "Exists"}], tier="gpu")
    pods = [_orphan("vectordb-0", app="vectordb", tier="gpu"), _orphan("vectordb-1", app="vectordb")]
    comparison, _ = _comparison(tmp_path, manifest, pods)
    assert comparison["notOfWorkload"] == ["data/vectordb-1"]
    assert list(comparison["belonging"]) == ["data/vectordb-0"]


@pytest.mark.parametrize(
    ("selector", "labels", "matches"),
    [
        (None, {"app": "db"}, False),  # a null selector matches nothing
        ({}, {}, True),  # an empty one everything
        ({"matchLabels": {"app": "db"}}, {"app": "db", "x": "y"}, True),
        ({"matchLabels": {"app": "db"}}, {}, False),
        ({"matchExpressions": [{"key": "t", "operator": "In", "values": ["a", "b"]}]}, {"t": "b"}, True),
        ({"matchExpressions": [{"key": "t", "operator": "In", "values": ["a"]}]}, {}, False),
        ({"matchExpressions": [{"key": "t", "operator": "NotIn", "values": ["a"]}]}, {}, True),  # key absent
        ({"matchExpressions": [{"key": "t", "operator": "NotIn", "values": ["a"]}]}, {"t": "a"}, False),
        ({"matchExpressions": [{"key": "t", "operator": "Exists"}]}, {"t": ""}, True),
        ({"matchExpressions": [{"key": "t", "operator": "DoesNotExist"}]}, {"t": ""}, False),
        # matchLabels and every requirement ANDed
        ({"matchLabels": {"app": "db"}, "matchExpressions": [{"key": "t", "operator": "Exists"}]},
         {"app": "db"}, False),
        # selectors Kubernetes refuses decide nothing
        ({"matchExpressions": [{"key": "t", "operator": "In", "values": []}]}, {"t": "a"}, None),
        ({"matchExpressions": [{"key": "t", "operator": "Exists", "values": ["a"]}]}, {"t": "a"}, None),
        ({"matchExpressions": [{"key": "t", "operator": "Gt", "values": ["1"]}]}, {"t": "2"}, None),
        ({"matchLabels": {"replicas": 3}}, {"replicas": "3"}, None),
    ],
)
def test_label_selector_semantics(selector, labels, matches):
    assert label_selector_matches(selector, labels) is matches
