"""GitHub Actions workflow commands: golden lines, escaping, levels and paths."""

from __future__ import annotations

from pathlib import Path

from report_samples import jobset_report

from wmaplint.diagnostics import CheckOutcome, Diagnostic, Fix, Severity, Span
from wmaplint.report import render
from wmaplint.report.github import annotation, escape_data, escape_property, render_github

REPO = Path(__file__).resolve().parents[2]

GOLDEN = [
    "::warning file=catalog/jobset/jobset.yaml,line=12,endLine=13,title=WM802 test-no-status"
    "::status mapping has no entry for completed",
    "::error file=catalog/jobset/jobset.yaml,line=18,col=29,endLine=18,endColumn=41,"
    "title=WM801 test-unknown-field"
    '::unknown field "replicatedJob" in JobSet.spec; did you mean "replicatedJobs"?'
    "%0Anote: ../shared/crds/jobset.x-k8s.io/jobset_v1alpha2.yaml:223:15:"
    " JobSet.spec.replicatedJobs is defined here"
    '%0Ahelp: replace with "replicatedJobs"',
    "::notice file=catalog/jobset/jobset.yaml,line=20,col=62,endLine=20,endColumn=87,"
    "title=WM803 test-scale-hint"
    "::parallelism defaults to 1 when absent",
]


def test_golden_annotations() -> None:
    out = render(jobset_report(), "github", root=REPO, tool_version="0.1.0")
    assert out == "".join(line + "\n" for line in GOLDEN)


def test_empty_report_prints_nothing() -> None:
    assert render_github(CheckOutcome(files_checked=5)) == ""


def test_escaping_rules() -> None:
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_property("a,b:c%\n") == "a%2Cb%3Ac%25%0A"


def test_message_and_path_escaped_in_a_command() -> None:
    diagnostic = Diagnostic(
        "WM801",
        Severity.ERROR,
        "value 50% of\nlimit: 2, here",
        "defs/a,b:c.yaml",
        Span(3, 5, 3, 9),
        fixes=(Fix("set it to 100%", ()),),
    )
    line = annotation(diagnostic, root=None)
    assert line == (
        "::error file=defs/a%2Cb%3Ac.yaml,line=3,col=5,endLine=3,endColumn=8,title=WM801 test-unknown-field"
        "::value 50%25 of%0Alimit: 2, here%0Ahelp: set it to 100%25"
    )
    # exactly one command per line and one '::' separator before the message
    assert "\n" not in line and line.count("::") == 2


def test_paths_relative_to_root(tmp_path: Path) -> None:
    diagnostic = Diagnostic(
        "WM802", Severity.WARNING, "w", str(tmp_path / "defs" / "x.yaml"), Span(1, 1, 1, 2)
    )
    assert annotation(diagnostic, root=tmp_path).startswith("::warning file=defs/x.yaml,line=1,col=1,")
    assert annotation(diagnostic, root=tmp_path / "other").startswith(
        f"::warning file={tmp_path}/defs/x.yaml,"
    )


def test_empty_span_and_stdin() -> None:
    point = Diagnostic("WM803", Severity.INFO, "i", "a.yaml", Span(2, 4, 2, 4))
    assert annotation(point, root=None).startswith("::notice file=a.yaml,line=2,col=4,endLine=2,endColumn=4,")
    stdin = Diagnostic("WM801", Severity.ERROR, "e", "<stdin>", Span(2, 4, 2, 6))
    assert annotation(stdin, root=None) == "::error title=WM801 test-unknown-field::e"
