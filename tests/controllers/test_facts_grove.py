"""Facts of the Grove controller model (schemas/controllers/grove.yaml), each shown on a real catalog
definition, example or recorded object: the outcome that changed with the fact. Grove: the PodCliqueSet
controller sets one condition; MinAvailableBreached lives on the PodCliques."""

from __future__ import annotations

import pytest
import yaml

from wmaplint.controllers import load_model
from wmaplint.jq.runtime import JqInput, JqRuntime

from .helpers import (
    SHARED,
    catalog,
    findings,
    vary,
)


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
    result = JqRuntime().evaluate(gang.count, JqInput(manifest))
    # one base gang, and one for each scaling-group replica from minAvailable on
    assert list(result.outputs) == [3]

