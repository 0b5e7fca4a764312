"""Text reporter: golden output, alignment under tabs and wide characters, colour, empty reports."""

from __future__ import annotations

import re

from report_samples import DEFINITION_PATH, jobset_report, missing_status, span_of, unknown_field

from wmaplint.diagnostics import CheckOutcome, Diagnostic, Severity, Span
from wmaplint.report import render
from wmaplint.report.text import MAX_SHOWN, layout_line, render_text, underline

ANSI = re.compile(r"\x1b\[[0-9;]*m")

GOLDEN = """\
catalog/jobset/jobset.yaml:12:9: warning: status mapping has no entry for completed [WM802 test-no-status]
  12 |         statusMappings:
     |         ^~~~~~~~~~~~~~~

catalog/jobset/jobset.yaml:18:29: error: unknown field "replicatedJob" in JobSet.spec; did you mean \
"replicatedJobs"? [WM801 test-unknown-field]
  18 |       instanceIdPath: .spec.replicatedJob[].name
     |                             ^~~~~~~~~~~~~
  note: ../shared/crds/jobset.x-k8s.io/jobset_v1alpha2.yaml:223:15: JobSet.spec.replicatedJobs is defined here
  help: replace with "replicatedJobs"

catalog/jobset/jobset.yaml:20:62: info: parallelism defaults to 1 when absent [WM803 test-scale-hint]
  20 |         replicasPath: '.spec.replicatedJobs[] | .replicas * (.template.spec.parallelism // 1)'
     |                                                              ^~~~~~~~~~~~~~~~~~~~~~~~~~

1 error, 1 warning, 1 info in 1 file
"""


def test_golden_output_sorted_with_notes_and_help() -> None:
    assert render(jobset_report(), "text", tool_version="0.1.0") == GOLDEN


def test_empty_report_says_no_findings() -> None:
    assert render_text(CheckOutcome(files_checked=3)) == "no findings in 3 files\n"
    assert render_text(CheckOutcome(files_checked=1)) == "no findings in 1 file\n"


def test_summary_counts_each_severity() -> None:
    report = jobset_report()
    report.diagnostics += [unknown_field(), unknown_field()]
    report.files_checked = 4
    assert render_text(report).endswith("\n3 errors, 1 warning, 1 info in 4 files\n")


def test_no_escape_codes_without_color() -> None:
    assert "\x1b" not in render_text(jobset_report(), color=False)


def test_color_marks_severity_and_strips_to_plain_output() -> None:
    colored = render(jobset_report(), "text", color=True, tool_version="0.1.0")
    assert "\x1b[1;31merror:\x1b[0m" in colored
    assert "\x1b[1;33mwarning:\x1b[0m" in colored
    assert "\x1b[1;36minfo:\x1b[0m" in colored
    assert ANSI.sub("", colored) == GOLDEN


def _caret_cell(marks: str) -> int:
    return marks.index("^")


def test_tab_expands_and_underline_follows() -> None:
    line = "\tpath:\t.spec.x"
    shown, marks = underline(line, line.index(".spec") + 1, line.index(".spec") + 6)
    assert "\t" not in shown
    assert shown == "    path:   .spec.x"
    assert shown[_caret_cell(marks) : _caret_cell(marks) + 5] == ".spec"
    assert marks.strip() == "^~~~~"


def test_wide_characters_take_two_cells() -> None:
    line = "name: 漢字 .metadata.name"
    start = line.index(".metadata") + 1
    shown, marks = underline(line, start, start + len(".metadata"))
    # two CJK characters are four cells wide, so the caret moves two cells past the code-point index
    assert _caret_cell(marks) == start - 1 + 2
    assert marks.strip() == "^" + "~" * 8


def test_wide_characters_inside_the_span_widen_the_underline() -> None:
    line = "title: 日本語"
    shown, marks = underline(line, 8, 11)
    assert marks == " " * 7 + "^~~~~~"


def test_combining_marks_and_astral_emoji() -> None:
    line = "e\u0301 😀 .x"
    _, starts = layout_line(line)
    assert starts == [0, 1, 1, 2, 4, 5, 6, 7]
    _, marks = underline(line, 6, 8)
    assert marks == " " * 5 + "^~"


def test_multi_line_span_underlines_first_line_to_its_end() -> None:
    lines = render_text(CheckOutcome([missing_status()], {DEFINITION_PATH: _definition()}, 1)).splitlines()
    assert lines[1] == "  12 |         statusMappings:"
    assert lines[2] == "     |         ^~~~~~~~~~~~~~~"


def test_span_past_end_of_line_and_empty_span_get_one_caret() -> None:
    assert underline("key:", 5, 6) == ("key:", "    ^")
    assert underline("key: x", 6, 6) == ("key: x", "     ^")
    assert underline("", 1, 1) == ("", "^")


def test_control_characters_are_shown_escaped() -> None:
    line = "a: \x1b[31mred"
    shown, marks = underline(line, 4, 5)
    assert "\x1b" not in shown
    assert shown.startswith("a: \\x1b")
    assert marks == "   ^~~~"
    report = CheckOutcome(
        [Diagnostic("WM801", Severity.ERROR, "bad\x07 value\nsecond line", "f.yaml", Span(1, 4, 1, 5))],
        {"f.yaml": line + "\n"},
        1,
    )
    out = render_text(report)
    assert "\x1b" not in out and "\x07" not in out
    assert "bad\\x07 value\n    second line [WM801 test-unknown-field]" in out


def test_missing_source_prints_header_only() -> None:
    report = CheckOutcome([unknown_field()], {}, 1)
    lines = render_text(report).splitlines()
    assert lines[0].startswith("catalog/jobset/jobset.yaml:18:29: error:")
    assert lines[1].startswith("  note: ")


def test_unregistered_rule_shows_id_only() -> None:
    internal = Diagnostic("WM899", Severity.ERROR, "internal", "<stdin>", Span(1, 1, 1, 2))
    report = CheckOutcome([internal], {}, 1)
    assert render_text(report).startswith("<stdin>:1:1: error: internal [WM899]\n")


def test_sources_with_crlf_line_breaks() -> None:
    text = "a: 1\r\nb: .spec.x\r\n"
    span = span_of("a: 1\nb: .spec.x\n", 2, ".spec")
    report = CheckOutcome([Diagnostic("WM801", Severity.ERROR, "m", "f.yaml", span)], {"f.yaml": text}, 1)
    lines = render_text(report).splitlines()
    assert lines[1] == "  2 | b: .spec.x"
    assert lines[2] == "    |    ^~~~~"


def _definition() -> str:
    from report_samples import DEFINITION

    return DEFINITION


def test_long_lines_show_a_window_around_the_span() -> None:
    line = "x" * 5000 + ".spec.replicas" + "y" * 5000
    start = 5001
    shown, marks = underline(line, start, start + len(".spec.replicas"))
    assert shown.startswith("\u2026") and shown.endswith("\u2026")
    assert len(shown) == MAX_SHOWN + 2
    caret = marks.index("^")
    assert shown[caret : caret + len(".spec.replicas")] == ".spec.replicas"
    assert marks[caret:] == "^" + "~" * 13
    # the start of a long line is not marked as cut
    head, head_marks = underline(line, 1, 3)
    assert not head.startswith("\u2026") and head_marks == "^~"
