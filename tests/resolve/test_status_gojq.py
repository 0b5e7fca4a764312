"""Status evaluation equals the runtime's: every STATE event of the recordings through wmaplint's status
matching (resolve/status_match.py on libjq) and through the runtime's matching compiled to one jq program and
run by gojq itself (gojq_status.py), for the catalog's definitions and upstream-style ones; the matched
statuses must be identical."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from wmaplint.jq.runtime import default_runtime
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.loading import definitions_of, load_file
from wmaplint.resolve.status_match import evaluate_status

from .gojq_status import GOJQ, compile_status, gojq_matches, read_definitions, root_kind

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "catalog"
OWN_RECORDINGS = CATALOG / "tests" / "recordings"
DIFFERENTIAL = Path(__file__).resolve().parent / "fixtures" / "differential"

needs_gojq = pytest.mark.skipif(GOJQ is None, reason="gojq is not installed (Debian package gojq)")


class _JsonLoader(yaml.CSafeLoader if hasattr(yaml, "CSafeLoader") else yaml.SafeLoader):  # type: ignore[misc]
    """YAML as the API server's JSON: timestamps stay strings."""


_JsonLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def recorded_objects(*directories: Path) -> list[tuple[str, int, Any]]:
    """(file, event index, object) of every STATE event of the recordings under the directories."""
    found = []
    for directory in directories:
        for path in sorted(directory.rglob("*.yaml")):
            data = yaml.load(path.read_text(encoding="utf-8"), Loader=_JsonLoader)
            if not isinstance(data, dict) or not isinstance(data.get("events"), list):
                continue
            for index, event in enumerate(data["events"]):
                state = isinstance(event, dict) and event.get("kind") == "STATE"
                if state and isinstance(event.get("object"), dict):
                    found.append((str(path.relative_to(directory)), index, event["object"]))
    return found


def definition_files() -> list[Path]:
    return sorted(CATALOG.glob("*.yaml")) + sorted(DIFFERENTIAL.glob("*.karta.yaml"))


def _kind_of(obj: Any) -> tuple[str, str]:
    return str(obj.get("apiVersion", "")).rpartition("/")[0], str(obj.get("kind", ""))


def differences(objects: list[tuple[str, int, Any]]) -> Iterator[tuple[str, str, int, list[str], list[str]]]:
    """(definition, recording, event, wmaplint's matches, gojq's matches) wherever the two differ."""
    runtime = default_runtime()
    for path in definition_files():
        plain = read_definitions(path)
        typed = definitions_of(load_file(str(path)).documents)
        assert len(plain) == len(typed), path
        for definition, entry in zip(plain, typed, strict=True):
            mine = [(f, i, o) for f, i, o in objects if _kind_of(o) == root_kind(definition)]
            if not mine:
                continue
            theirs = gojq_matches(compile_status(definition), [o for _, _, o in mine])
            status = entry.definition.root.status if entry.definition.root is not None else None
            for (file, index, obj), expected in zip(mine, theirs, strict=True):
                findings: list[Any] = []
                matches = evaluate_status(status, Evaluator(runtime, obj, findings, str(path))).matches
                # a failed evaluation is a finding in wmaplint and fails the whole status in the runtime
                got = ["<error>"] if findings else (matches or ["Undefined"])
                if got != expected:
                    yield path.name, file, index, got, expected


def _counted(objects: list[tuple[str, int, Any]]) -> int:
    kinds = {root_kind(d) for path in definition_files() for d in read_definitions(path)}
    return sum(1 for _, _, o in objects if _kind_of(o) in kinds)


@needs_gojq
def test_the_second_implementation_reads_the_runtimes_rules():
    """The gojq side on known answers: the later duplicate condition wins, an empty matcher always matches,
    and the status extraction fails on an expression that errs before a matcher matched, on a phase that is
    not a string and on a condition that is not an object."""
    [definition] = read_definitions(DIFFERENTIAL / "pod-expressions.karta.yaml")
    objects = [o for _, _, o in recorded_objects(DIFFERENTIAL)]
    assert [o["metadata"]["name"] for o in objects] == ["duplicates", "numeric-phase", "untyped", "fresh",
                                                        "failed"]
    assert gojq_matches(compile_status(definition), objects) == [
        ["Suspending", "Degraded"],  # Ready=False is the later duplicate: not Running, but Degraded
        ["<error>"],  # a number phase
        ["<error>"],  # a condition that is a string
        ["<error>"],  # no phase: ascii_downcase of null fails the `failed` expression
        ["Suspending", "Failed", "Initializing"],
    ]


@needs_gojq
def test_wmaplint_matches_gojq_on_the_shipped_recordings():
    objects = recorded_objects(OWN_RECORDINGS, DIFFERENTIAL)
    assert _counted(objects) == 13
    assert list(differences(objects)) == []


@needs_gojq
def test_wmaplint_matches_gojq_on_every_shared_recording(shared):
    recordings = shared / "recordings"
    if not recordings.is_dir():
        pytest.skip("../shared/recordings is not present")
    objects = recorded_objects(recordings)
    assert len(objects) == 371 and _counted(objects) == 371
    assert list(differences(objects)) == []
