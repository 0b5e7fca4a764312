"""What the controller-model tests share: a catalog definition's text, a fault written into it, the findings
of one rule on it, and the pods and created objects the model gives for a manifest."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from wmaplint.controllers import load_model
from wmaplint.diagnostics import Diagnostic
from wmaplint.engine import lint_text
from wmaplint.jq.runtime import JqInput, JqRuntime
from wmaplint.resolve.created import CreatedPod, created_pods
from wmaplint.shipped_data import shipped

CATALOG = shipped("catalog")
EXAMPLES = CATALOG / "examples"
SHARED = Path(__file__).resolve().parents[2].parent / "shared"
RECORDINGS = SHARED / "recordings"

needs_recordings = pytest.mark.skipif(not RECORDINGS.is_dir(), reason="needs ../shared/recordings")


def example(name: str) -> dict[str, Any]:
    """A catalog example, ``<definition>/<file>.yaml``, as plain data."""
    return yaml.safe_load((EXAMPLES / name).read_text(encoding="utf-8"))


def pods_of(manifest: dict[str, Any]) -> list[CreatedPod]:
    """The pods the controller model creates for ``manifest``."""
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    pods = created_pods(model, manifest, JqRuntime())
    assert pods is not None
    return pods


def pods_by_component(manifest: dict[str, Any]) -> Counter[str]:
    """How many pods of each created object the model says the controllers make for ``manifest``."""
    return Counter(pod.created for pod in pods_of(manifest))


def created_count(manifest: dict[str, Any], name: str) -> list[Any]:
    """What the model's ``count`` of the created object ``name`` gives, one value an entry of its ``each``."""
    model = load_model().of(manifest["apiVersion"], manifest["kind"])
    assert model is not None
    [created] = [c for c in model.creates if c.name == name]
    runtime = JqRuntime()
    entries = list(runtime.evaluate(created.each, JqInput(manifest)).outputs) if created.each else [manifest]
    return [value for entry in entries for value in runtime.evaluate(created.count, JqInput(entry)).outputs]


def recorded_objects(kind_folder: str) -> list[dict[str, Any]]:
    """Every object a STATE event of the shared recordings holds for a kind's folder (ray-io-rayjob-v1)."""
    objects = []
    for path in sorted(RECORDINGS.rglob(f"{kind_folder}/*.yaml")):
        for event in yaml.safe_load(path.read_text(encoding="utf-8")).get("events") or []:
            if event.get("kind") == "STATE" and isinstance(event.get("object"), dict):
                objects.append(event["object"])
    return objects


def catalog(name: str) -> str:
    return (CATALOG / name).read_text(encoding="utf-8")


def vary(text: str, old: str, new: str) -> str:
    assert old in text, f"{old!r} not in the definition"
    return text.replace(old, new, 1)


def findings(text: str, rule: str) -> list[Diagnostic]:
    return [d for d in lint_text(text, "definition.yaml") if d.rule == rule]
