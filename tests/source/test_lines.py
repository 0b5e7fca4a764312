"""One line model everywhere: LF, CR LF and CR end lines; NEL, U+2028 and U+2029 are characters in a line."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.diagnostics import Diagnostic
from wmaplint.engine import lint_text
from wmaplint.fixes import apply_edits
from wmaplint.rules import diagnostics_of
from wmaplint.rules.examples import JOB
from wmaplint.source import SourceFile, load_text
from wmaplint.source.lines import LineIndex, line_starts, split_lines


def findings(source: SourceFile) -> list[Diagnostic]:
    """The file's faults as the document rules report them."""
    return list(diagnostics_of(source.problems))

ODD = ("\x85", "\u2028", "\u2029")
# Comments and quoted values holding the characters libyaml (YAML 1.1) counts as line breaks, where YAML 1.1
# readers accept them; the finding (an unknown key, WM112) comes after them.
TRICKY = JOB.replace("spec:\n", "# a comment ending in NEL\x85\n# and in LS\u2028\nspec:\n").replace(
    "metadata: {name: batch-job-v1}",
    "metadata: {name: batch-job-v1, annotations: {a: \"x\u2028y\", b: 'p\u2029q\x85r'}}",
)
BROKEN = TRICKY.replace("specDefinition:", "specDefiniton:")


def _line_and_column(text: str, token: str) -> tuple[int, int]:
    """1-based line and column of a token, counting lines at LF only (the texts here have no CR)."""
    before = text[: text.index(token)]
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


TEXTS = ["", "a", "a\n", "a\n\nb", "a\r\nb\rc\n", "x\x85y\u2028z\u2029w\nv", "\r\r\n"]


@pytest.mark.parametrize("text", TEXTS)
def test_line_starts_follow_lf_crlf_and_cr_only(text: str) -> None:
    lines = split_lines(text)
    assert len(line_starts(text)) == len(lines)
    index = LineIndex(text)
    for number, line in enumerate(lines, start=1):
        assert index.line_text(number) == line
        start, stop = index.line_bounds(number)
        assert text[start:stop] == line
    assert not any(ch in "\r\n" for line in lines for ch in line)
    assert "".join(lines).count("\u2028") == text.count("\u2028")


def test_spans_count_lines_at_lf_only() -> None:
    source = load_text(TRICKY, "tricky.yaml")
    assert not source.problems
    spec = source.documents[0].root.key_node("spec")  # type: ignore[union-attr]
    assert spec is not None
    assert (spec.span.start_line, spec.span.start_col) == _line_and_column(TRICKY, "spec:")
    assert (spec.span.end_line, spec.span.end_col) == (spec.span.start_line, 5)
    annotation = TRICKY.index('"x\u2028y"')
    metadata = source.documents[0].root.get("metadata")  # type: ignore[union-attr]
    value = metadata.get("annotations").get("a")  # type: ignore[union-attr]
    assert value.start == annotation and value.text == "x\u2028y"
    line, column = _line_and_column(TRICKY, '"x\u2028y"')
    assert value.span.start_line == value.span.end_line == line
    assert (value.span.start_col, value.span.end_col) == (column, column + 5)


def test_syntax_error_position_counts_lines_at_lf_only() -> None:
    text = "# one\u2028two\x85three\nkey: [unclosed\nother: 1\n"
    source = load_text(text, "bad.yaml")
    assert [p.rule for p in findings(source)] == ["WM101"]
    assert findings(source)[0].span.start_line <= 3  # libyaml alone says line 5


def test_cli_reports_the_finding_on_its_line() -> None:
    result = CliRunner().invoke(main, ["check", "-", "--stdin-filename", "t.yaml", "--format", "json",
                                       "--select", "WM112"], input=BROKEN)
    assert result.exit_code == 1, result.output
    found = json.loads(result.output)["diagnostics"]
    assert len(found) == 1
    line, column = _line_and_column(BROKEN, "specDefiniton")
    start = found[0]["span"]["start"]
    assert (start["line"], start["column"]) == (line, column)


def test_cli_text_shows_the_line_of_the_finding() -> None:
    result = CliRunner().invoke(main, ["check", "-", "--stdin-filename", "t.yaml", "--no-color",
                                       "--select", "WM112"], input=BROKEN)
    line, _ = _line_and_column(BROKEN, "specDefiniton")
    assert f"t.yaml:{line}:" in result.output
    assert "specDefiniton: {podTemplateSpecPath" in result.output


def test_suppression_comment_applies_to_its_own_line() -> None:
    suppressed = BROKEN.replace(
        "specDefiniton: {podTemplateSpecPath: .spec.template}",
        "specDefiniton: {podTemplateSpecPath: .spec.template}  # wmaplint: disable=WM112 -- test",
    )
    assert [d.rule for d in lint_text(suppressed, "t.yaml") if d.rule in ("WM112", "WM002")] == []
    assert any(d.rule == "WM112" for d in lint_text(BROKEN, "t.yaml"))


def test_fix_edits_land_on_their_line() -> None:
    found = [d for d in lint_text(BROKEN, "t.yaml") if d.rule == "WM112"]
    assert found and found[0].fixes
    assert apply_edits(BROKEN, list(found[0].fixes[0].edits)) == TRICKY
