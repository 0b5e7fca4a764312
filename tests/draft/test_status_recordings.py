"""The drafted statusDefinition of every recorded kind, replayed on the real recordings in
../shared/recordings (`wmaplint test RECORDING --definition DRAFT`): at least the events listed pass, and a
kind that does not pass every event says so in a TODO comment of its status. Collected only when ../shared
is present (see tests/conftest.py)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

from .helpers import wmaplint

# kind -> (STATE events recorded, events the draft passes); the shipped catalog passes them all
PASSING = {
    "Pod": (20, 20), "Deployment": (19, 14), "StatefulSet": (37, 33), "Job": (25, 24), "CronJob": (5, 2),
    "JobSet": (21, 21), "PyTorchJob": (13, 13), "MPIJob": (18, 18), "LeaderWorkerSet": (31, 31),
    "PodCliqueSet": (22, 20), "Milvus": (14, 14), "NIMService": (12, 12), "DynamoGraphDeployment": (10, 10),
    "RayCluster": (21, 20), "RayJob": (61, 46), "Service": (11, 11), "LLMInferenceService": (12, 12),
    "InferenceService": (19, 6),
}


def _recordings(shared: Path) -> dict[tuple[str, str], list[Path]]:
    found: dict[tuple[str, str], list[Path]] = defaultdict(list)
    for path in sorted((shared / "recordings").rglob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        events = document.get("events") if isinstance(document, dict) else None
        state = next((e for e in events or () if e.get("kind") == "STATE"), None)
        if state is not None:
            found[(state["object"]["apiVersion"], state["object"]["kind"])].append(path)
    return found


def _status_comments(text: str) -> str:
    """The draft's text from the root's first line to its statusDefinition's end."""
    start = text.index("rootComponent:")
    end = min(i for i in (text.find("specDefinition", start), text.find("childComponents", start), len(text))
              if i >= 0)
    return text[start:end]


def test_the_drafted_status_passes_the_recorded_events(shared: Path, tmp_path: Path) -> None:
    measured = {}
    for (api, kind), paths in _recordings(shared).items():
        group, _, version = api.rpartition("/")
        made = wmaplint("new", "--kind", f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
        assert made.exit_code == 0, made.output
        draft = tmp_path / f"{kind}.yaml"
        draft.write_text(made.stdout, encoding="utf-8")
        junit = tmp_path / f"{kind}.xml"
        wmaplint("test", "--definition", str(draft), "--junit", str(junit), *map(str, paths))
        report = junit.read_text(encoding="utf-8")
        events = len(re.findall(r"<testcase ", report))
        passing = events - len(re.findall(r"<failure", report)) - len(re.findall(r"<error", report))
        measured[kind] = (events, passing)
        if passing < events:
            assert "TODO" in _status_comments(made.stdout), kind
    assert {k: v[0] for k, v in measured.items()} == {k: v[0] for k, v in PASSING.items()}
    short = {k: (v, PASSING[k]) for k, v in measured.items() if v[1] < PASSING[k][1]}
    assert short == {}


@pytest.mark.parametrize("kind, expected", [("batch/v1/Job", "completed"), ("batch/v1/Job", "failed")])
def test_a_decision_taken_while_pods_terminate_reads_as_the_end(kind: str, expected: str) -> None:
    made = wmaplint("new", "--kind", kind)
    condition = {"completed": "SuccessCriteriaMet", "failed": "FailureTarget"}[expected]
    assert f"guess: condition {condition} True read as {expected}" in made.stdout
