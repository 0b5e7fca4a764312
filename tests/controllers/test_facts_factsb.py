"""Facts of the controller model corrected against the upstream releases the files name (Agent sandbox v0.5.6,
Knative Serving knative-v1.23.0, Grove v0.1.0-alpha.11, Milvus operator v1.3.8, NIM operator v3.1.2, KServe
v0.20.0), each shown on a real catalog definition or example: the outcome that changed with the fact."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from wmaplint.controllers import load_model
from wmaplint.engine import lint_text
from wmaplint.jq.runtime import JqRuntime
from wmaplint.resolve.created import created_pods

from .helpers import catalog, example, findings, vary

SHARED = Path(__file__).resolve().parents[2].parent / "shared"


def pods_by_component(manifest: dict[str, Any]) -> Counter[str]:
    """How many pods of each created object the model says the controllers make for ``manifest``."""
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    return Counter(pod.created for pod in created_pods(model, manifest, JqRuntime()))


# -- Agent sandbox: suspending deletes the pod; the controller drops the template's agents.x-k8s.io/ keys


def test_a_suspended_sandbox_runs_no_pod_and_a_running_one_runs_one() -> None:
    assert pods_by_component(example("agents-x-k8s-io-sandbox-v1beta1/browser-suspended.yaml"))["pod"] == 0
    assert pods_by_component(example("agents-x-k8s-io-sandbox-v1beta1/code-agent-ready.yaml"))["pod"] == 1


def test_the_catalog_counts_no_pod_for_a_suspended_sandbox() -> None:
    text = catalog("agents-x-k8s-io-sandbox-v1beta1.yaml")
    assert 'replicasPath: if .spec.operatingMode == "Suspended" then 0 else 1 end' in text


def test_a_sandbox_selector_on_a_claim_label_the_pod_never_carries() -> None:
    # agents.x-k8s.io/claim-uid is written into the Sandbox's pod template by the claim controller, and the
    # sandbox controller drops every agents.x-k8s.io/ key of the template from the pod it creates
    text = vary(catalog("agents-x-k8s-io-sandbox-v1beta1.yaml"),
                'keyPath: .metadata.labels["agents.x-k8s.io/sandbox-name-hash"]',
                'keyPath: .metadata.labels["agents.x-k8s.io/claim-uid"]')
    [d] = findings(text, "WM530")
    assert "agents.x-k8s.io/claim-uid" in d.message
    assert "agents.x-k8s.io/sandbox-name-hash" in d.message


# -- Knative Serving: the pods right after a rollout, initial-scale but never below min-scale


def test_knative_pods_follow_min_scale() -> None:
    manifest = example("serving-knative-dev-service-v1/gpu-inference.yaml")
    assert manifest["spec"]["template"]["metadata"]["annotations"]["autoscaling.knative.dev/min-scale"] == "2"
    assert pods_by_component(manifest)["pod"] == 2


def test_knative_reads_the_older_camel_case_key_too() -> None:
    manifest = example("serving-knative-dev-service-v1/gpu-inference.yaml")
    annotations = manifest["spec"]["template"]["metadata"]["annotations"]
    annotations["autoscaling.knative.dev/minScale"] = annotations.pop("autoscaling.knative.dev/min-scale")
    assert pods_by_component(manifest)["pod"] == 2


# -- Grove: the PodCliqueSet controller sets one condition; MinAvailableBreached lives on the PodCliques


def test_a_podcliqueset_expression_reading_a_podclique_condition() -> None:
    running = "(.spec.replicas // 0) > 0 and (.status.availableReplicas // 0) >= (.spec.replicas // 0)"
    breached = 'any(.status.conditions[]?; .type == "MinAvailableBreached" and .status == "False")'
    grove = catalog("grove-io-podcliqueset-v1alpha1.yaml")
    text = vary(grove, f"expression: {running}", f"expression: {breached}")
    [d] = findings(text, "WM440")
    assert "MinAvailableBreached" in d.message


@pytest.mark.skipif(not (SHARED / "samples").is_dir(), reason="needs ../shared")
def test_grove_scaled_pod_gangs_beyond_min_available() -> None:
    manifest = yaml.safe_load((SHARED / "samples/grove.io/pcs-simple1.yaml").read_text(encoding="utf-8"))
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    [gang] = [c for c in model.creates if c.name == "podgang"]
    template = manifest["spec"]["template"]
    template["podCliqueScalingGroups"] = [{"name": "sg", "cliqueNames": [template["cliques"][0]["name"]],
                                           "replicas": 3, "minAvailable": 1}]
    result = JqRuntime().evaluate(gang.count, _input(manifest))
    # one base gang, and one for each scaling-group replica from minAvailable on
    assert list(result.outputs) == [3]


def _input(obj: Any) -> Any:
    from wmaplint.jq.runtime import JqInput

    return JqInput(obj)


# -- Milvus operator: the webhook's defaults decide which components run; maintenance is not a status


def test_a_milvus_phase_that_is_an_annotation() -> None:
    text = vary(catalog("milvus-io-milvus-v1beta1.yaml"), "            - byPhase: Healthy\n",
                "            - byPhase: Healthy\n            - byPhase: Maintaining\n")
    [d] = findings(text, "WM421")
    assert "Maintaining" in d.message


def test_milvus_before_2_6_without_a_coordinator_runs_a_mixcoord() -> None:
    manifest = {"apiVersion": "milvus.io/v1beta1", "kind": "Milvus", "metadata": {"name": "m"},
                "spec": {"mode": "cluster", "components": {"image": "milvusdb/milvus:v2.5.16"}}}
    pods = pods_by_component(manifest)
    assert pods["mixcoord"] == 1 and pods["rootcoord"] == 0 and pods["indexnode"] == 1
    manifest["spec"]["components"]["rootCoord"] = {"replicas": 1}
    pods = pods_by_component(manifest)
    assert pods["mixcoord"] == 0 and pods["rootcoord"] == 1 and pods["querycoord"] == 1


def test_milvus_counts_its_deployments() -> None:
    manifest = example("milvus-io-milvus-v1beta1/cluster-gpu-querynodes.yaml")
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    [deployment] = [c for c in model.creates if c.name == "deployment"]
    # standalone (kept at 0), proxy, mixcoord, datanode, streamingnode, and the querynode's two
    assert list(JqRuntime().evaluate(deployment.count, _input(manifest)).outputs) == [7]


# -- NIM operator: NIMService states NotReady, Ready, Failed and PVC-Created; Pending is never written


def test_a_nimservice_mapping_a_state_never_written() -> None:
    text = vary(catalog("apps-nvidia-com-nimservice-v1alpha1.yaml"), "            - byPhase: NotReady\n",
                "            - byPhase: NotReady\n            - byPhase: Pending\n")
    [d] = findings(text, "WM421")
    assert "'Pending'" in d.message and "PVC-Created" in d.message


def test_the_shipped_nim_and_milvus_definitions_map_no_unknown_phase() -> None:
    for name in ("apps-nvidia-com-nimservice-v1alpha1.yaml", "apps-nvidia-com-nimcache-v1alpha1.yaml",
                 "milvus-io-milvus-v1beta1.yaml", "agents-x-k8s-io-sandbox-v1beta1.yaml"):
        status_rules = ("WM421", "WM440", "WM441")
        assert [d.message for d in lint_text(catalog(name), name) if d.rule in status_rules] == []


# -- KServe: a LeaderWorkerSet group is ParallelismSpec.GetSize pods; an autoscaler floors the replicas


def test_an_llminferenceservice_group_size_with_data_local_above_data() -> None:
    manifest = example("serving-kserve-io-llminferenceservice-v1alpha2/autoscaled-pd.yaml")
    manifest["spec"].pop("prefill")
    manifest["spec"]["worker"] = manifest["spec"]["template"]
    manifest["spec"]["parallelism"] = {"data": 4, "dataLocal": 8}
    pods = pods_by_component(manifest)
    # data / dataLocal is 0 in integer division, at least 1: a group is the leader alone, 2 groups
    assert pods["leader-pod"] == 2 and pods["worker-pod"] == 0


def test_an_autoscaled_llminferenceservice_runs_min_replicas() -> None:
    pods = pods_by_component(example("serving-kserve-io-llminferenceservice-v1alpha2/autoscaled-pd.yaml"))
    assert pods["main-pod"] == 2 and pods["prefill-pod"] == 2
