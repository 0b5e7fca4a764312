"""`--only-changed-lines`: the lines a real git diff adds or changes, and only the findings on them;
`--output`: several outputs from one check."""

from __future__ import annotations

import json
from pathlib import Path

from wmaplint.changes import changed_lines, on_changed_lines
from wmaplint.diagnostics import CheckOutcome, Diagnostic, Severity, Span

from .workspace import NAME_LINE, REPLICAS_LINE, git, job_definition, new_repository, wmaplint

BROKEN_JQ = ".spec.parallelism | nosuchfunc"


def test_lines_of_a_real_diff(tmp_path: Path) -> None:
    repository = new_repository(tmp_path / "repo")
    spaced = repository / "dir with space" / "ü x.yaml"
    spaced.parent.mkdir()
    spaced.write_text("a\nb\nc\n", encoding="utf-8")
    (repository / "gone.yaml").write_text("x\n", encoding="utf-8")
    (repository / "tail.yaml").write_text("one\ntwo", encoding="utf-8")
    git(repository, "add", ".")
    git(repository, "commit", "-qm", "base")
    spaced.write_text("a\nB\nc\nd\n", encoding="utf-8")
    (repository / "gone.yaml").unlink()
    (repository / "new.yaml").write_text("n1\nn2\n", encoding="utf-8")
    (repository / "tail.yaml").write_text("one\nTWO", encoding="utf-8")  # no newline at the end, both sides
    git(repository, "add", "-A")
    expected = {"dir with space/ü x.yaml": {2, 4}, "new.yaml": {1, 2}, "tail.yaml": {2}}
    for context in ("--unified=0", "--unified=3"):
        assert changed_lines(git(repository, "diff", "--cached", context)) == expected
    # a removed line that reads like a file header is still a removed line
    assert changed_lines("+++ b/a.yaml\n@@ -1,2 +1,1 @@\n--- b/x\n+++\n") == {"a.yaml": {1}}


def test_quoted_names_with_octal_escapes() -> None:
    diff = '+++ "b/t\\303\\244b\\tx.yaml"\n@@ -0,0 +5,2 @@\n+a\n+b\n'
    assert changed_lines(diff) == {"täb\tx.yaml": {5, 6}}


def test_findings_outside_the_changed_lines_are_dropped(tmp_path: Path) -> None:
    report = CheckOutcome(
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
    done = wmaplint(tmp_path, "check", "x.yaml", "--only-changed-lines", "missing.diff")
    assert done.returncode == 2
    assert done.stderr == "wmaplint: missing.diff: cannot read the diff (No such file or directory)\n"


def test_pull_request_annotations_only_on_changed_lines(tmp_path: Path) -> None:
    """The action's case: a pull request breaks the jq of a definition whose name was already off the
    convention; only the new finding is annotated, the SARIF file keeps both, and the exit code follows the
    annotated findings."""
    repository = new_repository(tmp_path / "repo")
    definition = repository / "defs" / "job.yaml"
    definition.parent.mkdir()
    definition.write_text(job_definition(name="my-job"), encoding="utf-8")
    git(repository, "add", ".")
    git(repository, "commit", "-qm", "base")
    base = git(repository, "rev-parse", "HEAD").strip()
    definition.write_text(job_definition(name="my-job", replicas=BROKEN_JQ), encoding="utf-8")
    git(repository, "commit", "-qam", "change the replicas")
    diff = tmp_path / "pr.diff"
    diff.write_text(git(repository, "diff", "--unified=0", base, "HEAD"), encoding="utf-8")

    sarif, full = tmp_path / "all.sarif", tmp_path / "all.json"
    done = wmaplint(
        repository / "defs",
        "check",
        "job.yaml",
        "--format",
        "github",
        "--only-changed-lines",
        str(diff),
        "--output",
        f"sarif={sarif}",
        "--output",
        f"json={full}",
    )
    assert done.returncode == 1, done.stderr
    annotations = done.stdout.splitlines()
    assert len(annotations) == 1
    assert annotations[0].startswith(f"::error file=defs/job.yaml,line={REPLICAS_LINE},")
    results = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"WM202", "KBP003"}
    diagnostics = json.loads(full.read_text(encoding="utf-8"))["diagnostics"]
    assert {d["rule"] for d in diagnostics} >= {"WM202", "KBP003"}

    # a pull request that only touches the name: the jq error predates it, and only an info is annotated
    definition.write_text(job_definition(name="my-job-2", replicas=BROKEN_JQ), encoding="utf-8")
    git(repository, "commit", "-qam", "rename")
    diff.write_text(git(repository, "diff", "--unified=0", "HEAD~1", "HEAD"), encoding="utf-8")
    done = wmaplint(repository, "check", "defs/job.yaml", "--format=github", f"--only-changed-lines={diff}")
    assert done.returncode == 0, done.stdout
    assert [line.split(",")[:2] for line in done.stdout.splitlines()] == [
        ["::notice file=defs/job.yaml", f"line={NAME_LINE}"]
    ]


def test_outputs_are_written_whole_and_validated(tmp_path: Path) -> None:
    (tmp_path / "job.yaml").write_text(job_definition(replicas=BROKEN_JQ), "utf-8")
    done = wmaplint(tmp_path, "check", "job.yaml", "--output=text=out.txt", "--output=github=out.annotations")
    assert done.returncode == 1
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == done.stdout
    assert (tmp_path / "out.annotations").read_text(encoding="utf-8").startswith("::error file=job.yaml,")
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".out")]  # no temporary left behind
    for bad, message in [
        ("xml=a", "--output 'xml=a': expected FORMAT=FILE with FORMAT one of text, json, sarif, github"),
        ("sarif", "--output 'sarif': expected FORMAT=FILE with FORMAT one of text, json, sarif, github"),
        ("json=-", "--output 'json=-': standard output takes --format; give a file"),
        ("json=no/such/dir/x.json",
         "--output json=no/such/dir/x.json: cannot write beside it (No such file or directory); "
         "nothing written"),
    ]:
        done = wmaplint(tmp_path, "check", "job.yaml", "--output", bad)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"wmaplint: {message}\n")
