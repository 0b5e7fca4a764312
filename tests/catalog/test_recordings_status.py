"""Every STATE event of the real recordings in ../shared/recordings reports its recorded state with the
shipped catalog, under upstream's replay rule: the recorded state is among the statuses the definition
matches, and `Undefined` when none matches (collected only when ../shared/recordings is present; see
conftest.py).

Covers the kinds whose mappings follow the kube-controller-manager, JobSet, Kubeflow, LWS, Milvus, NIM,
Dynamo and Grove controllers. Events the recordings contradict themselves on are listed in EXCEPTIONS with
the reason; a test checks the contradiction is still in the data, so an exception cannot outlive its cause.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from wmaplint.resolve.jqrun import default_runtime
from wmaplint.resolve.loading import DefinitionIndex, load_file
from wmaplint.resolve.run import resolve_documents

from .conftest import SHARED

RECORDINGS = SHARED / "recordings"

KINDS = {
    "Deployment", "StatefulSet", "Job", "CronJob", "Pod", "JobSet", "LeaderWorkerSet", "Milvus", "NIMService",
    "NIMCache", "DynamoGraphDeployment", "PodCliqueSet", "MPIJob", "PyTorchJob", "TrainJob", "Sandbox",
}

# (recording, event index) -> why the recorded state is not the catalog's
EXCEPTIONS = {
    ("test/e2e/recorded_data/statefulset/v1.34.0/apps-statefulset-v1/scaled.yaml", 17):
        "recorded Running while a scale-down pod still terminates (status.replicas 2, spec.replicas 1); the "
        "same counters are recorded Initializing in karta/test/e2e/recorded_data/statefulset/v1.34.0/"
        "apps-statefulset-v1/scaled.yaml event 17",
}

def _events() -> Iterator[tuple[str, int, dict[str, Any]]]:
    for path in sorted(RECORDINGS.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        if not isinstance(data, dict):
            continue
        for index, event in enumerate(data.get("events") or []):
            if event.get("kind") == "STATE" and event["object"].get("kind") in KINDS:
                yield str(path.relative_to(RECORDINGS)), index, event


EVENTS = list(_events())


def _matched(index: DefinitionIndex, obj: dict[str, Any]) -> list[str]:
    loaded = load_file("recorded-object.json", text=json.dumps(obj))
    run = resolve_documents(loaded.documents, index, [], default_runtime())
    assert run.workloads, f"{obj['kind']} {obj['metadata'].get('name')} did not resolve"
    status = run.workloads[0].status
    assert status is not None
    return list(status.matches) or ["Undefined"]


@pytest.fixture(scope="module")
def catalog() -> DefinitionIndex:
    index = DefinitionIndex()
    index.add_catalog()
    return index


@pytest.mark.parametrize(("recording", "event_index", "event"), EVENTS,
                         ids=[f"{name}#{i}" for name, i, _ in EVENTS])
def test_recorded_state_is_matched(catalog: DefinitionIndex, recording: str, event_index: int,
                                   event: dict[str, Any]) -> None:
    matched = _matched(catalog, event["object"])
    if (recording, event_index) in EXCEPTIONS:
        assert event["state"] not in matched, "the exception no longer applies: drop it from EXCEPTIONS"
        return
    assert event["state"] in matched, f"recorded {event['state']}, the catalog matches {matched}"


def test_every_kind_of_the_recordings_is_replayed() -> None:
    kinds = {event["object"]["kind"] for _, _, event in EVENTS}
    assert kinds == KINDS - {"NIMCache", "TrainJob", "Sandbox"}
    assert len(EVENTS) == 247


def test_each_exception_is_a_contradiction_in_the_recordings() -> None:
    by_key = {(name, i): event for name, i, event in EVENTS}
    statefulset = by_key[("test/e2e/recorded_data/statefulset/v1.34.0/apps-statefulset-v1/scaled.yaml", 17)]
    twin = by_key[("karta/test/e2e/recorded_data/statefulset/v1.34.0/apps-statefulset-v1/scaled.yaml", 17)]
    counters = ("replicas", "readyReplicas", "updatedReplicas", "currentReplicas", "availableReplicas",
                "observedGeneration")
    assert [statefulset["object"]["status"][k] for k in counters] == [
        twin["object"]["status"][k] for k in counters
    ]
    assert statefulset["object"]["spec"]["replicas"] == twin["object"]["spec"]["replicas"] == 1
    assert (statefulset["state"], twin["state"]) == ("Running", "Initializing")
    assert len(EXCEPTIONS) == 1
