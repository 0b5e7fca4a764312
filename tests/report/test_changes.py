"""`--only-changed-lines`: the lines a real git diff adds or changes, and only the findings on them;
`--output`: several outputs from one check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from wmaplint.changes import changed_lines, on_changed_lines
from wmaplint.diagnostics import Diagnostic, Report, Severity, Span

GOOD_NAME = "batch-job-v1"

# A definition with two problems on different lines: an unknown jq function (line 13) and a name that breaks
# the shipped pack's convention (line 4, KBP003, an info).
DEFINITION = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: NAME
spec:
  structureDefinition:
    rootComponent:
      name: job
      kind: {group: batch, version: v1, kind: Job}
      specDefinition:
        podTemplateSpecPath: .spec.template
      scaleDefinition:
        replicasPath: JQ
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          completed: [{byConditions: [{type: Complete, status: "True"}]}]
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
          running: [{byConditions: [{type: Running, status: "True"}]}]
          initializing: [{byConditions: [{type: Initializing, status: "True"}]}]
"""


def _definition(name: str, jq: str) -> str:
    return DEFINITION.replace("NAME", name).replace("JQ", jq)


def _git(repository: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=ci@example.com", "-c", "user.name=ci", *args],
        cwd=repository,
        check=True,
        capture_output=True,
    )
    return done.stdout.decode("utf-8", errors="surrogateescape")


def _repository(tmp_path: Path) -> Path:
    repository = tmp_path / "repo"
    repository.mkdir()
    _git(repository, "init", "-q")
    return repository


def test_lines_of_a_real_diff(tmp_path: Path) -> None:
    repository = _repository(tmp_path)
    spaced = repository / "dir with space" / "ü x.yaml"
    spaced.parent.mkdir()
    spaced.write_text("a\nb\nc\n", encoding="utf-8")
    (repository / "gone.yaml").write_text("x\n", encoding="utf-8")
    (repository / "tail.yaml").write_text("one\ntwo", encoding="utf-8")
    _git(repository, "add", ".")
    _git(repository, "commit", "-qm", "base")
    spaced.write_text("a\nB\nc\nd\n", encoding="utf-8")
    (repository / "gone.yaml").unlink()
    (repository / "new.yaml").write_text("n1\nn2\n", encoding="utf-8")
    (repository / "tail.yaml").write_text("one\nTWO", encoding="utf-8")  # no newline at the end, both sides
    _git(repository, "add", "-A")
    expected = {"dir with space/ü x.yaml": {2, 4}, "new.yaml": {1, 2}, "tail.yaml": {2}}
    for context in ("--unified=0", "--unified=3"):
        assert changed_lines(_git(repository, "diff", "--cached", context)) == expected
    # a removed line that reads like a file header is still a removed line
    assert changed_lines("+++ b/a.yaml\n@@ -1,2 +1,1 @@\n--- b/x\n+++\n") == {"a.yaml": {1}}


def test_quoted_names_with_octal_escapes() -> None:
    diff = '+++ "b/t\\303\\244b\\tx.yaml"\n@@ -0,0 +5,2 @@\n+a\n+b\n'
    assert changed_lines(diff) == {"täb\tx.yaml": {5, 6}}


def test_findings_outside_the_changed_lines_are_dropped(tmp_path: Path) -> None:
    report = Report(
        [
            Diagnostic("WM202", Severity.ERROR, "on a changed line", "defs/a.yaml", Span(13, 5, 13, 9)),
            Diagnostic("WM202", Severity.ERROR, "spans a changed line", "defs/a.yaml", Span(2, 1, 4, 3)),
            Diagnostic("WM202", Severity.ERROR, "untouched line", "defs/a.yaml", Span(20, 1, 20, 2)),
            Diagnostic("WM202", Severity.ERROR, "untouched file", "defs/b.yaml", Span(13, 1, 13, 2)),
        ],
        files_checked=2,
    )
    kept = on_changed_lines(report, {"repo/defs/a.yaml": {3, 13}}, root=tmp_path, cwd=tmp_path / "repo")
    assert [d.message for d in kept.diagnostics] == ["on a changed line", "spans a changed line"]
    assert kept.files_checked == 2


def test_an_unreadable_diff_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "wmaplint", "check", "x.yaml", "--only-changed-lines", "missing.diff"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "wmaplint: missing.diff: cannot read the diff (No such file or directory)\n"


def _check(repository: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wmaplint", "check", *args],
        cwd=repository,
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_pull_request_annotations_only_on_changed_lines(tmp_path: Path) -> None:
    """The action's case: a pull request fixes the name and breaks the jq; the old finding is not annotated,
    the SARIF file keeps both, and the exit code follows the annotated findings."""
    repository = _repository(tmp_path)
    definition = repository / "defs" / "job.yaml"
    definition.parent.mkdir()
    definition.write_text(_definition("my-job", ".spec.parallelism // 1"), encoding="utf-8")
    _git(repository, "add", ".")
    _git(repository, "commit", "-qm", "base")
    base = _git(repository, "rev-parse", "HEAD").strip()
    definition.write_text(_definition("my-job", ".spec.parallelism | nosuchfunc"), encoding="utf-8")
    _git(repository, "commit", "-qam", "change the replicas")
    diff = tmp_path / "pr.diff"
    diff.write_text(_git(repository, "diff", "--unified=0", base, "HEAD"), encoding="utf-8")

    done = _check(
        repository / "defs",
        "job.yaml",
        "--format",
        "github",
        "--only-changed-lines",
        str(diff),
        "--output",
        f"sarif={tmp_path / 'all.sarif'}",
        "--output",
        f"json={tmp_path / 'all.json'}",
    )
    assert done.returncode == 1, done.stderr
    annotations = done.stdout.splitlines()
    assert len(annotations) == 1 and annotations[0].startswith("::error file=defs/job.yaml,line=13,")
    sarif = json.loads((tmp_path / "all.sarif").read_text(encoding="utf-8"))
    assert {r["ruleId"] for r in sarif["runs"][0]["results"]} >= {"WM202", "KBP003"}
    full = json.loads((tmp_path / "all.json").read_text(encoding="utf-8"))
    assert {d["rule"] for d in full["diagnostics"]} >= {"WM202", "KBP003"}

    # a pull request that only touches the name: the jq finding predates it, and only an info is annotated
    definition.write_text(_definition(GOOD_NAME + "x", ".spec.parallelism | nosuchfunc"), encoding="utf-8")
    _git(repository, "commit", "-qam", "rename")
    diff.write_text(_git(repository, "diff", "--unified=0", "HEAD~1", "HEAD"), encoding="utf-8")
    done = _check(repository, "defs/job.yaml", "--format", "github", "--only-changed-lines", str(diff))
    assert done.returncode == 0, done.stdout
    assert [line.split(",")[0] for line in done.stdout.splitlines()] == ["::notice file=defs/job.yaml"]


def test_outputs_are_written_whole_and_validated(tmp_path: Path) -> None:
    (tmp_path / "job.yaml").write_text(_definition(GOOD_NAME, ".spec.parallelism | nosuchfunc"), "utf-8")
    done = _check(tmp_path, "job.yaml", "--output", "text=out.txt", "--output", "github=out.annotations")
    assert done.returncode == 1
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == done.stdout
    assert (tmp_path / "out.annotations").read_text(encoding="utf-8").startswith("::error file=job.yaml,")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")]  # no temporary left behind
    for bad, message in [
        ("xml=a", "--output 'xml=a': expected FORMAT=FILE with FORMAT one of text, json, sarif, github"),
        ("sarif", "--output 'sarif': expected FORMAT=FILE with FORMAT one of text, json, sarif, github"),
        ("json=-", "--output 'json=-': standard output takes --format; give a file"),
        ("json=no/such/dir/x.json", "--output no/such/dir/x.json: cannot write (No such file or directory)"),
    ]:
        done = _check(tmp_path, "job.yaml", "--output", bad)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"wmaplint: {message}\n")
