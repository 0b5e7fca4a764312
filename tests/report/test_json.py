"""JSON output: the documented shape, deterministic order, data conversion, never raising."""

from __future__ import annotations

import enum
import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

from report_samples import DEFINITION_PATH, jobset_report, unknown_field

from wmaplint.diagnostics import CheckOutcome, Diagnostic, Severity, Span
from wmaplint.report import render
from wmaplint.report.json import render_json

DOC = Path(__file__).resolve().parents[2] / "docs" / "json-output.md"


def _doc() -> dict:
    return json.loads(render(jobset_report(), "json", tool_version="0.1.0"))


def test_top_level_shape() -> None:
    doc = _doc()
    assert list(doc) == ["version", "tool", "files", "diagnostics", "errors", "summary"]
    assert doc["errors"] == []
    assert doc["version"] == 2
    assert doc["tool"] == {"name": "wmaplint", "version": "0.1.0"}
    assert doc["files"] == 1
    assert doc["summary"] == {"errors": 1, "warnings": 1, "infos": 1, "total": 3}


def test_diagnostic_shape() -> None:
    entry = _doc()["diagnostics"][1]
    assert entry == {
        "rule": "WM801",
        "name": "test-unknown-field",
        "severity": "error",
        "message": 'unknown field "replicatedJob" in JobSet.spec; did you mean "replicatedJobs"?',
        "path": DEFINITION_PATH,
        "span": {"start": {"line": 18, "column": 29}, "end": {"line": 18, "column": 42}},
        "related": [
            {
                "path": "../shared/crds/jobset.x-k8s.io/jobset_v1alpha2.yaml",
                "base": None,
                "span": {"start": {"line": 223, "column": 15}, "end": {"line": 223, "column": 29}},
                "message": "JobSet.spec.replicatedJobs is defined here",
            }
        ],
        "fixes": [
            {
                "description": 'replace with "replicatedJobs"',
                "edits": [
                    {
                        "span": {"start": {"line": 18, "column": 29}, "end": {"line": 18, "column": 42}},
                        "newText": "replicatedJobs",
                    }
                ],
            }
        ],
        "data": {"alternatives": ["replicatedJobs"], "schemaPath": ["spec", "replicatedJobs"]},
    }


def test_sorted_by_path_then_position() -> None:
    report = jobset_report()
    report.diagnostics.append(Diagnostic("WM801", Severity.ERROR, "first file", "a.yaml", Span(9, 1, 9, 2)))
    entries = json.loads(render_json(report, tool_version="0"))["diagnostics"]
    assert [(e["path"], e["span"]["start"]["line"]) for e in entries] == [
        ("a.yaml", 9),
        (DEFINITION_PATH, 12),
        (DEFINITION_PATH, 18),
        (DEFINITION_PATH, 20),
    ]
    reversed_report = CheckOutcome(list(reversed(report.diagnostics)), report.sources, 1)
    assert render_json(report, tool_version="0") == render_json(reversed_report, tool_version="0")


def test_unreadable_inputs_are_listed() -> None:
    report = CheckOutcome(files_checked=1, errors=["missing.yaml: no such file"])
    assert json.loads(render_json(report, tool_version="0"))["errors"] == ["missing.yaml: no such file"]


def test_empty_report() -> None:
    doc = json.loads(render_json(CheckOutcome(files_checked=7), tool_version="0.1.0"))
    assert doc["diagnostics"] == []
    assert doc["files"] == 7
    assert doc["summary"] == {"errors": 0, "warnings": 0, "infos": 0, "total": 0}


class Phase(enum.Enum):
    RUNNING = "running"


def test_data_values_json_cannot_hold_are_converted() -> None:
    diagnostic = unknown_field()
    data_in: dict[Any, Any] = {
        "alternatives": {"replicas", "replicatedJobs"},
        "path": PurePosixPath("crds/a.yaml"),
        "span": Span(1, 2, 1, 3),
        "phase": Phase.RUNNING,
        "severity": Severity.WARNING,
        "ratio": float("nan"),
        3: ("tuple", None),
        "object": object(),
    }
    diagnostic.data = data_in
    data = json.loads(render_json(CheckOutcome([diagnostic]), tool_version="0"))["diagnostics"][0]["data"]
    assert data["alternatives"] == ["replicas", "replicatedJobs"]
    assert data["path"] == "crds/a.yaml"
    assert data["span"] == {"start": {"line": 1, "column": 2}, "end": {"line": 1, "column": 3}}
    assert data["phase"] == "running"
    assert data["severity"] == "warning"
    assert data["ratio"] == "nan"
    assert data["3"] == ["tuple", None]
    assert data["object"].startswith("<object object")


def test_deep_and_cyclic_data_do_not_raise() -> None:
    deep: list = []
    node = deep
    for _ in range(10_000):
        child: list = []
        node.append(child)
        node = child
    cyclic: dict = {}
    cyclic["self"] = cyclic
    diagnostic = unknown_field()
    diagnostic.data = {"deep": deep, "cyclic": cyclic}
    data = json.loads(render_json(CheckOutcome([diagnostic]), tool_version="0"))["diagnostics"][0]["data"]
    assert "..." in json.dumps(data["deep"])
    assert "..." in json.dumps(data["cyclic"])


def test_non_ascii_kept_and_lone_surrogates_escaped() -> None:
    diagnostic = unknown_field()
    diagnostic.message = "naïve 漢字"
    assert "naïve 漢字" in render_json(CheckOutcome([diagnostic]), tool_version="0")
    diagnostic.message = "bad \udc80 byte"
    out = render_json(CheckOutcome([diagnostic]), tool_version="0")
    out.encode("utf-8")
    assert json.loads(out)["diagnostics"][0]["message"] == "bad \udc80 byte"


def test_documentation_names_every_key() -> None:
    text = DOC.read_text(encoding="utf-8")
    keys: set[str] = set()

    def collect(value: object) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key not in ("data",):
                    keys.add(key)
                    collect(item)
                else:
                    keys.add(key)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    collect(_doc())
    documented = set(re.findall(r"`([A-Za-z]+)`", text))
    assert keys <= documented, sorted(keys - documented)
