"""Facts of the Milvus operator controller model (schemas/controllers/milvus-operator.yaml), each shown on a
real catalog definition, example or recorded object: the outcome that changed with the fact. Milvus
operator: the webhook's defaults decide which components run; maintenance is not a status."""

from __future__ import annotations

from wmaplint.controllers import load_model
from wmaplint.jq.runtime import JqInput, JqRuntime

from .helpers import (
    catalog,
    example,
    findings,
    pods_by_component,
    vary,
)


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
    assert list(JqRuntime().evaluate(deployment.count, JqInput(manifest)).outputs) == [7]
