"""Facts of the Dynamo controller model read at ai-dynamo/dynamo v1.0.1 (the nvidia.com/v1alpha1 kinds), each
shown on a real catalog definition, example or recorded object: the outcome that changed with the fact."""

from __future__ import annotations

import pytest
import yaml

from wmaplint.controllers import load_model, model_for
from wmaplint.jq.runtime import JqInput, JqRuntime

from .helpers import (
    catalog,
    example,
    findings,
    needs_recordings,
    pods_of,
    recorded_objects,
    vary,
)

DGD = "nvidia-com-dynamographdeployment-v1alpha1"
EXAMPLE = f"{DGD}/vllm-disagg.yaml"



def with_conditions(text: str, running: str) -> str:
    """The definition reading the conditions too, with ``running`` (a byConditions list) mapped to running."""
    conditions = ("        conditionsDefinition:\n          path: .status.conditions\n"
                  "          typeFieldName: type\n          statusFieldName: status\n"
                  "          reasonFieldName: reason\n")
    text = vary(text, "        phaseDefinition:\n", conditions + "        phaseDefinition:\n")
    return vary(text, "          running:\n", f"          running:\n            - byConditions: {running}\n")


# -- the graph controller sets Ready with its own snake_case reasons (Reconcile, checkResourcesReadiness)


def ready_reasons() -> tuple[str, ...]:
    model = model_for("nvidia.com", "DynamoGraphDeployment", "v1alpha1")
    assert model is not None
    return model.status.conditions["Ready"].reasons


@needs_recordings
def test_every_recorded_ready_reason_is_in_the_model() -> None:
    objects = recorded_objects(DGD)
    seen = {(c["type"], c.get("reason", ""))
            for obj in objects for c in obj.get("status", {}).get("conditions") or []}
    assert ("Ready", "all_resources_are_ready") in seen
    assert all(ctype == "Ready" and reason in ready_reasons() for ctype, reason in seen)


def test_the_example_ready_reasons_are_the_controllers() -> None:
    for name in (EXAMPLE, "nvidia-com-dynamographdeployment-v1beta1/trtllm-disagg-multinode.yaml"):
        for condition in example(name)["status"]["conditions"]:
            assert condition["type"] == "Ready" and condition["reason"] in ready_reasons()


def test_a_misspelt_ready_reason() -> None:
    text = catalog(f"{DGD}.yaml")
    misspelt = with_conditions(text, '[{type: Ready, status: "True", reason: all_resource_are_ready}]')
    [d] = findings(misspelt, "WM423")
    assert "did you mean 'all_resources_are_ready'?" in d.message
    assert findings(with_conditions(text, '[{type: Ready, status: "True", reason: all_resources_are_ready}]'),
                    "WM423") == []


# -- a DynamoComponentDeployment has Available and DynamoComponentReady, and no Ready


def component_definition(running: str) -> str:
    text = vary(catalog(f"{DGD}.yaml"), "kind: DynamoGraphDeployment}", "kind: DynamoComponentDeployment}")
    return with_conditions(text, running)


def test_a_component_deployment_mapping_the_graphs_ready() -> None:
    [d] = findings(component_definition('[{type: Ready, status: "True"}]'), "WM420")
    assert "'Ready'" in d.message and "DynamoComponentReady" in d.message and "v1.0.1" in d.message
    assert findings(component_definition('[{type: DynamoComponentReady, status: "True"}]'), "WM420") == []


# -- the pods carry the graph's name; a gang key naming the service is told so


def test_every_pod_carries_the_graph_name() -> None:
    manifest = example(EXAMPLE)
    pods = pods_of(manifest)
    assert len(pods) == 5
    assert {p.labels["nvidia.com/dynamo-graph-deployment-name"] for p in pods} == {"qwen-disagg"}
    assert {p.labels["nvidia.com/dynamo-component-type"] for p in pods} == {"frontend", "worker"}


# -- up to v1.0.1 a multinode service runs a LeaderWorkerSet a replica, each of one group: the group index is
# 0 on all of them, and the LeaderWorkerSet's name tells the replicas apart


def test_every_multinode_replica_has_group_index_zero() -> None:
    manifest = example(EXAMPLE)
    manifest["spec"]["services"]["VllmPrefillWorker"]["replicas"] = 2
    pods = pods_of(manifest)
    prefill = [p for p in pods if p.labels["nvidia.com/dynamo-component"] == "VllmPrefillWorker"]
    assert len(prefill) == 4
    assert {p.labels["leaderworkerset.sigs.k8s.io/group-index"] for p in prefill} == {"0"}
    single = [p for p in pods if p not in prefill]
    assert single and all("leaderworkerset.sigs.k8s.io/group-index" not in p.labels for p in single)


def test_the_gang_key_names_the_service_the_pods_are_of() -> None:
    # one PodGroup a service: the key reads the label naming the service's entry, lowered to a PodGroup name
    model = model_for("nvidia.com", "DynamoGraphDeployment", "v1alpha1")
    assert model is not None
    definition = yaml.safe_load(catalog(f"{DGD}.yaml"))
    [group] = definition["spec"]["optimizationInstructions"]["gangScheduling"]["podGroups"]
    [key] = group["members"][0]["groupByKeyPaths"]
    entry = [k for k, label in model.pod_labels("pod").items() if label.role == "entry"]
    assert any(f'["{k}"]' in key for k in entry) and key.endswith("| ascii_downcase")


# -- the graph controller makes DynamoComponentDeployments or one PodCliqueSet; a component deployment makes a
# Deployment, or LeaderWorkerSets for a multinode component

CHILD = "      - name: service\n        ownerRef: dynamographdeployment\n"


def child_of_kind(kind: str) -> str:
    return vary(catalog(f"{DGD}.yaml"), CHILD, CHILD + f"        kind: {kind}\n")


@pytest.mark.parametrize("kind", ["{group: apps, version: v1, kind: Deployment}",
                                  "{group: leaderworkerset.x-k8s.io, version: v1, kind: LeaderWorkerSet}",
                                  "{group: grove.io, version: v1alpha1, kind: PodCliqueSet}"])
def test_a_child_of_a_kind_the_operator_creates(kind: str) -> None:
    assert findings(child_of_kind(kind), "WM533") == []


def test_a_child_of_a_kind_v1_0_1_never_creates_is_not_reported() -> None:
    # later releases, whose tags no snapshot here carries, make objects v1.0.1 does not (a DisaggregatedSet
    # provider, ai-dynamo/dynamo 0367e404 deploy/operator/internal/consts/consts.go): the list is not whole
    model = load_model().model_for("nvidia.com", "DynamoGraphDeployment", "v1alpha1")
    assert model is not None and model.creates_exhaustive is False
    assert findings(child_of_kind("{group: batch, version: v1, kind: Job}"), "WM533") == []


def test_a_multinode_component_deployment_runs_a_leaderworkerset_a_replica() -> None:
    service = example(EXAMPLE)["spec"]["services"]["VllmPrefillWorker"]
    # generateSingleDCD copies the service's spec into the DynamoComponentDeployment's
    component = {"apiVersion": "nvidia.com/v1alpha1", "kind": "DynamoComponentDeployment",
                 "metadata": {"name": "qwen-disagg-vllmprefillworker"}, "spec": {**service, "replicas": 3}}
    model = load_model().of(component["apiVersion"], component["kind"])
    assert model is not None
    runtime = JqRuntime()
    counts = {c.name: list(runtime.evaluate(c.count, JqInput(component)).outputs) for c in model.creates}
    assert counts == {"deployment": [0], "leaderworkerset": [3]}
    del component["spec"]["multinode"]
    counts = {c.name: list(runtime.evaluate(c.count, JqInput(component)).outputs) for c in model.creates}
    assert counts == {"deployment": [1], "leaderworkerset": [0]}
