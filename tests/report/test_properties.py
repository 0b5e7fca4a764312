"""Any text and any span: every reporter answers without raising and keeps its guarantees."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wmaplint.diagnostics import CheckOutcome, Diagnostic, RelatedLocation, Severity, Span
from wmaplint.report import FORMATS, render
from wmaplint.report.common import utf16_column
from wmaplint.report.fingerprint import line_hashes
from wmaplint.report.text import layout_line, underline

# Letters from every width class: ASCII, tab, controls, combining marks, CJK, astral emoji, line breaks.
CHARS = st.sampled_from(list("ab .[]:%,\t\x1b\x00\u0301\u200d漢字😀🚀\r\n"))
TEXT = st.text(CHARS, max_size=60)
POSITION = st.integers(min_value=-2, max_value=70)


@st.composite
def spans(draw: st.DrawFn) -> Span:
    return Span(draw(POSITION), draw(POSITION), draw(POSITION), draw(POSITION))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, span=spans(), message=TEXT, severity=st.sampled_from(list(Severity)))
def test_every_format_renders_anything(text: str, span: Span, message: str, severity: Severity) -> None:
    diagnostic = Diagnostic(
        "WM801", severity, message, "defs/a.yaml", span, related=(RelatedLocation("b.yaml", span, message),)
    )
    report = CheckOutcome([diagnostic], {"defs/a.yaml": text}, 1)
    for fmt in FORMATS:
        out = render(report, fmt, tool_version="0.1.0")
        out.encode("utf-8")
        if fmt == "text":
            assert "\x1b" not in out and "\x00" not in out
        if fmt == "github":
            assert out.count("\n") == 1 and "\r" not in out
        if fmt == "sarif":
            region = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
            assert min(region.values()) >= 1
            assert (region["endLine"], region["endColumn"]) >= (region["startLine"], region["startColumn"])


@given(line=st.text(CHARS.filter(lambda c: c not in "\r\n"), max_size=40), start=POSITION, end=POSITION)
def test_underline_has_one_caret(line: str, start: int, end: int) -> None:
    shown, marks = underline(line, start, end)
    assert marks.count("^") == 1
    assert set(marks) <= {" ", "^", "~"}
    cells = layout_line(line)[1][-1]
    # never wider than the line's cells, except the single caret placed just past its end
    assert len(marks) <= max(cells, marks.index("^") + 1)
    assert marks.index("^") <= cells


@given(line=st.text(CHARS.filter(lambda c: c not in "\r\n"), max_size=40), data=st.data())
def test_utf16_column_counts_code_units(line: str, data: st.DataObject) -> None:
    column = data.draw(st.integers(min_value=1, max_value=len(line) + 1))
    assert utf16_column(line, column) - 1 == len(line[: column - 1].encode("utf-16-le")) // 2


@given(text=TEXT, last=st.integers(min_value=1, max_value=8))
def test_one_line_hash_per_line_and_early_stop_agrees(text: str, last: int) -> None:
    hashes = line_hashes(text)
    assert sorted(hashes) == list(range(1, len(re.split(r"\r\n|\r|\n", text)) + 1))
    partial = line_hashes(text, last_line=last)
    assert all(hashes[line] == value for line, value in partial.items())
    if last in hashes:
        assert last in partial
