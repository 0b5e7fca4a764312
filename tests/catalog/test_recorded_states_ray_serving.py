"""The shipped definitions of the Ray, KServe and Knative kinds report, on every state event of upstream's
recordings of real clusters (../shared/recordings), the state the recorder saw: upstream's replay rule, the
recorded state is among the statuses matched, `Undefined` when none is. Without ../shared these tests are
deselected (the ``shared`` fixture).

LLMInferenceService is recorded as v1alpha2 only; one controller serves both versions (v1alpha1 objects are
converted), so the same events are replayed through the v1alpha1 definition as well.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from wmaplint.resolve.jqrun import default_runtime
from wmaplint.resolve.loading import DefinitionIndex, load_file
from wmaplint.resolve.run import resolve_documents

# kind -> (API group, state events recorded when this test was written)
KINDS = {
    "RayJob": ("ray.io", 61),
    "RayCluster": ("ray.io", 21),
    "InferenceService": ("serving.kserve.io", 19),
    "LLMInferenceService": ("serving.kserve.io", 12),
    "Service": ("serving.knative.dev", 11),
}


def state_events(recordings: Path, kind: str) -> Iterator[tuple[str, dict[str, Any], str]]:
    """(recording#event, object, recorded state) of every state event of ``kind``."""
    group = KINDS[kind][0]
    for path in sorted(recordings.rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            continue
        for index, event in enumerate(data.get("events") or []):
            obj = event.get("object") if event.get("kind") == "STATE" else None
            if isinstance(obj, dict) and obj.get("kind") == kind and obj["apiVersion"].split("/")[0] == group:
                yield f"{path.relative_to(recordings)}#{index}", obj, event["state"]


def matched(obj: dict[str, Any], index: DefinitionIndex, scratch: Path) -> list[str]:
    """The statuses the shipped definition matches for ``obj`` (``Undefined`` when none)."""
    scratch.write_text(json.dumps(obj), encoding="utf-8")
    run = resolve_documents(load_file(str(scratch)).documents, index, [], default_runtime())
    assert run.workloads, f"{obj['kind']} did not resolve to a workload"
    status = run.workloads[0].status
    assert status is not None, f"{obj['kind']}: the definition gave no status"
    return list(status.matches) or ["Undefined"]


def misses(recordings: Path, kind: str, scratch: Path) -> tuple[int, list[str]]:
    """How many events were replayed, and each one whose recorded state the catalog does not report."""
    index = DefinitionIndex()
    index.add_catalog()
    count, found = 0, []
    for name, obj, state in state_events(recordings, kind):
        versions = [obj]
        if obj["apiVersion"] == "serving.kserve.io/v1alpha2":
            versions.append({**obj, "apiVersion": "serving.kserve.io/v1alpha1"})
        for version in versions:
            count += 1
            got = matched(version, index, scratch)
            if state not in got:
                found.append(f"{name} ({version['apiVersion']}): recorded {state}, reported {got}")
    return count, found


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_recorded_state_is_reported(kind: str, shared: Path, tmp_path: Path) -> None:
    count, found = misses(shared / "recordings", kind, tmp_path / "object.json")
    versions = 2 if kind == "LLMInferenceService" else 1
    assert count >= KINDS[kind][1] * versions, f"only {count} {kind} state events found"
    assert found == []
