"""Facts of the LeaderWorkerSet controller model (schemas/controllers/lws.yaml), each shown on a real catalog
definition, example or recorded object: the outcome that changed with the fact. LeaderWorkerSet v0.10.0:
subgroup- size is an annotation and subgroup-worker-index no key at all; the pods are StatefulSet pods; one
headless Service, one a group with UniquePerReplica; Available excludes the others."""

from __future__ import annotations

from wmaplint.controllers import load_model
from wmaplint.jq.runtime import JqInput, JqRuntime

from .helpers import (
    catalog,
    example,
    findings,
    pods_of,
    vary,
)

LWS = "leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml"
# the leader's type selector comes first in the definition
LEADER_SELECTOR = 'keyPath: .metadata.labels["leaderworkerset.sigs.k8s.io/worker-index"]'


def leader_reading(key: str) -> str:
    """The LeaderWorkerSet definition with its leader's type selector reading ``key`` instead."""
    return vary(catalog(LWS), LEADER_SELECTOR, LEADER_SELECTOR.replace("worker-index", key))


def test_an_lws_selector_on_a_key_the_controller_writes_as_an_annotation() -> None:
    [d] = findings(leader_reading("subgroup-size"), "WM530")
    assert "leaderworkerset.sigs.k8s.io/subgroup-size" in d.message and "never writes" in d.message


def test_an_lws_selector_on_a_key_no_release_writes() -> None:
    [d] = findings(leader_reading("subgroup-worker-index"), "WM530")
    assert "leaderworkerset.sigs.k8s.io/group-index" in d.message
    # the subgroup index is a label the pod webhook writes
    assert findings(leader_reading("subgroup-index"), "WM530") == []


def test_lws_pods_carry_their_statefulset_ordinal() -> None:
    manifest = example("leaderworkerset-x-k8s-io-leaderworkerset-v1/vllm-multinode.yaml")
    size = manifest["spec"]["leaderWorkerTemplate"]["size"]
    pods = pods_of(manifest)
    leaders = [p for p in pods if p.created == "leader"]
    workers = [p for p in pods if p.created == "worker"]
    ordinals = [p.labels["apps.kubernetes.io/pod-index"] for p in leaders]
    assert ordinals == [str(g) for g, _ in enumerate(leaders)]
    # the worker StatefulSet's ordinals start at 1: worker index and ordinal are one number
    group0 = [p for p in workers if p.group == 0]
    assert [p.labels["apps.kubernetes.io/pod-index"] for p in group0] == [str(i) for i in range(1, size)]
    assert [p.labels["statefulset.kubernetes.io/pod-name"] for p in group0] == [
        f"{manifest['metadata']['name']}-0-{i}" for i in range(1, size)]


def test_lws_headless_services_follow_the_subdomain_policy() -> None:
    manifest = example("leaderworkerset-x-k8s-io-leaderworkerset-v1/vllm-multinode.yaml")
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    [service] = [c for c in model.creates if c.name == "service"]
    runtime = JqRuntime()
    assert list(runtime.evaluate(service.count, JqInput(manifest)).outputs) == [1]
    manifest["spec"]["replicas"] = 3
    manifest["spec"]["networkConfig"] = {"subdomainPolicy": "UniquePerReplica"}
    assert list(runtime.evaluate(service.count, JqInput(manifest)).outputs) == [3]


def test_an_lws_matcher_requiring_available_and_progressing() -> None:
    running = '            - byConditions: [{type: Available, status: "True"}]\n          initializing'
    both = running.replace('status: "True"}]', 'status: "True"}, {type: Progressing, status: "True"}]')
    [d] = findings(vary(catalog(LWS), running, both), "WM430")
    assert "never sets Available=True and Progressing=True together" in d.message
