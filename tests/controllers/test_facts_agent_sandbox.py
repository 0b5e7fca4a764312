"""Facts of the Agent sandbox controller model (schemas/controllers/agent-sandbox.yaml), each shown on a real
catalog definition, example or recorded object: the outcome that changed with the fact. Agent sandbox:
suspending deletes the pod; the controller drops the template's agents.x-k8s.io/ keys."""

from __future__ import annotations

from .helpers import (
    catalog,
    example,
    findings,
    pods_by_component,
    vary,
)


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
