"""What upstream's recordings of real clusters (../shared/recordings) say beyond the replay of every event,
which `wmaplint test ../shared/recordings` does (tests/suites/test_recordings.py): the frames one recording
contradicts another on, and the LLMInferenceService events through the v1alpha1 definition (one controller
serves both versions; v1alpha1 objects are converted). Collected only when the recordings are present."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

from wmaplint.jq.runtime import default_runtime
from wmaplint.resolve.loading import DefinitionIndex, load_file
from wmaplint.resolve.run import resolve_documents

from .conftest import SHARED

RECORDINGS = SHARED / "recordings"
SCALED = "e2e/recorded_data/statefulset/v1.34.0/apps-statefulset-v1/scaled.yaml"


def _events(path: Path) -> list[dict[str, Any]]:
    """Every event of a recording, ACTION events included: event numbers count them, as `wmaplint test`."""
    events: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["events"]
    return events


def _matched(obj: dict[str, Any]) -> list[str]:
    index = DefinitionIndex()
    index.add_catalog()
    run = resolve_documents(load_file("object.json", text=json.dumps(obj)).documents, index, [],
                            default_runtime())
    status = run.workloads[0].status
    assert status is not None
    return list(status.matches) or ["Undefined"]


def test_a_scale_down_frame_recorded_both_ways_matches_both() -> None:
    """Two copies of one StatefulSet flow record a frame with the same counters (spec 1, replicas 2, ready 1,
    updated 1: a surplus pod still terminating) as Running in one and Initializing in the other."""
    newer = _events(RECORDINGS / "test" / SCALED)[17]
    older = _events(RECORDINGS / "karta" / "test" / SCALED)[17]
    counters = ("replicas", "readyReplicas", "updatedReplicas", "currentReplicas", "availableReplicas",
                "observedGeneration")
    newer_counts, older_counts = ([e["object"]["status"][k] for k in counters] for e in (newer, older))
    assert newer_counts == older_counts
    assert newer["object"]["spec"]["replicas"] == older["object"]["spec"]["replicas"] == 1
    assert (newer["state"], older["state"]) == ("Running", "Initializing")
    assert _matched(newer["object"]) == ["Running", "Initializing"]


def test_llm_inference_service_events_replay_through_the_v1alpha1_definition() -> None:
    replayed = 0
    for path in sorted(RECORDINGS.rglob("*llminferenceservice*/*.yaml")):
        for event in (e for e in _events(path) if e.get("kind") == "STATE"):
            obj = {**event["object"], "apiVersion": "serving.kserve.io/v1alpha1"}
            assert event["state"] in _matched(obj), f"{path.name}: recorded {event['state']}"
            replayed += 1
    assert replayed == 12
