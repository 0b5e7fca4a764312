"""One column unit in every output: UTF-16 code units, checked on a definition with emoji and CJK text."""

from __future__ import annotations

import json
import re
from pathlib import Path

from wmaplint.diagnostics import CheckOutcome, Diagnostic, Fix, RelatedLocation, Severity, Span, TextEdit
from wmaplint.engine import Options, lint_paths
from wmaplint.report import render

from .workspace import REPLICAS_LINE, job_definition

# The string before the unknown function holds astral characters (two UTF-16 units each) and CJK (one).
DEFINITION = job_definition(replicas="""'"🚀漢字😀" as $label | .spec.parallelism | nosuchfunc'""")
LINE = DEFINITION.splitlines()[REPLICAS_LINE - 1]
CODE_POINT_COLUMN = LINE.index("nosuchfunc") + 1
UTF16_COLUMN = len(LINE[: LINE.index("nosuchfunc")].encode("utf-16-le")) // 2 + 1


def _finding(tmp_path: Path) -> tuple[CheckOutcome, Diagnostic]:
    path = tmp_path / "defs" / "emoji.yaml"
    path.parent.mkdir()
    path.write_text(DEFINITION, encoding="utf-8")
    report = lint_paths([str(path)], Options())
    found = [d for d in report.diagnostics if d.rule == "WM202"]
    assert len(found) == 1
    return report, found[0]


def test_the_finding_counts_code_points_inside(tmp_path: Path) -> None:
    _, diagnostic = _finding(tmp_path)
    assert UTF16_COLUMN == CODE_POINT_COLUMN + 2
    end = CODE_POINT_COLUMN + len("nosuchfunc")
    assert diagnostic.span == Span(REPLICAS_LINE, CODE_POINT_COLUMN, REPLICAS_LINE, end)


def test_every_format_gives_the_utf16_column(tmp_path: Path) -> None:
    report, diagnostic = _finding(tmp_path)
    report.diagnostics = [diagnostic]
    start, end = UTF16_COLUMN, UTF16_COLUMN + len("nosuchfunc")

    text = render(report, "text", tool_version="0.1.0")
    line = REPLICAS_LINE
    assert f"emoji.yaml:{line}:{start}: error:" in text

    github = render(report, "github", root=tmp_path, tool_version="0.1.0")
    assert f"file=defs/emoji.yaml,line={line},col={start},endLine={line},endColumn={end - 1}," in github

    entry = json.loads(render(report, "json", tool_version="0.1.0"))["diagnostics"][0]
    assert entry["span"] == {"start": {"line": line, "column": start}, "end": {"line": line, "column": end}}

    run = json.loads(render(report, "sarif", root=tmp_path, tool_version="0.1.0"))["runs"][0]
    assert run["columnKind"] == "utf16CodeUnits"
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startColumn"], region["endColumn"]) == (start, end)
    # the SARIF region, read as UTF-16 as GitHub does, is the token
    units = LINE.encode("utf-16-le")
    assert units[(start - 1) * 2 : (end - 1) * 2].decode("utf-16-le") == "nosuchfunc"


def test_related_locations_and_fixes_convert_too() -> None:
    text = "a: '😀'\nb: '😀😀' x\n"
    diagnostic = Diagnostic(
        "WM112",
        Severity.ERROR,
        "m",
        "t.yaml",
        Span(2, 9, 2, 10),
        related=(RelatedLocation("t.yaml", Span(1, 6, 1, 7), "here"),),
        fixes=(Fix("drop x", (TextEdit(Span(2, 9, 2, 10), ""),)),),
    )
    report = CheckOutcome([diagnostic], {"t.yaml": text}, 1)
    entry = json.loads(render(report, "json", tool_version="0.1.0"))["diagnostics"][0]
    assert entry["span"]["start"]["column"] == 11
    assert entry["related"][0]["span"] == {"start": {"line": 1, "column": 7}, "end": {"line": 1, "column": 8}}
    assert entry["fixes"][0]["edits"][0]["span"]["start"]["column"] == 11
    notes = [line for line in render(report, "text", tool_version="0.1.0").splitlines() if "note:" in line]
    assert notes == ["  note: t.yaml:1:7: here"]
    assert re.search(r"t\.yaml:2:11: error", render(report, "text", tool_version="0.1.0"))
