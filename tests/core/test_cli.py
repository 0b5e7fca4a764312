"""The command line as users meet it: exit codes, stdin, formats, configuration, suppressions, fixes."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.rules.examples import JOB, job_with

BROKEN = job_with("specDefinition:", "specDefiniton:")


def run(*args: str, input: str | None = None, cwd=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_clean_definition_exits_zero(tmp_path) -> None:
    (tmp_path / "job.yaml").write_text(JOB)
    result = run("check", str(tmp_path / "job.yaml"), "--no-color")
    assert result.exit_code == 0, result.output
    assert "0 errors, 0 warnings" in result.output or "no findings in 1 file" in result.output


def test_findings_exit_one_with_positions(tmp_path) -> None:
    (tmp_path / "job.yaml").write_text(BROKEN)
    result = run("check", str(tmp_path / "job.yaml"), "--no-color")
    assert result.exit_code == 1
    assert f"{tmp_path / 'job.yaml'}:9:7: warning: unknown field 'specDefiniton'" in result.output


def test_stdin_with_a_filename() -> None:
    result = run("check", "-", "--stdin-filename", "defs/job.yaml", "--format", "json", "--select", "WM112",
                 input=BROKEN)
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert [d["path"] for d in out["diagnostics"]] == ["defs/job.yaml"]


def test_missing_file_exits_two_and_empty_directory_zero(tmp_path) -> None:
    result = CliRunner().invoke(main, ["check", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 2 and "no such file" in result.output
    (tmp_path / "empty").mkdir()
    result = CliRunner().invoke(main, ["check", str(tmp_path / "empty")])
    assert result.exit_code == 0 and result.output == ""


def test_directory_without_definitions_exits_zero_silently(tmp_path) -> None:
    (tmp_path / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\n")
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 0 and result.output == ""


def test_binary_input_declaring_a_kind_exits_two_without_a_traceback(tmp_path) -> None:
    (tmp_path / "x.yaml").write_bytes(b"kind: Karta\n\x00\xff\x00")
    proc = subprocess.run([sys.executable, "-m", "wmaplint", "check", str(tmp_path / "x.yaml")],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and len(proc.stderr.splitlines()) == 1


def test_select_ignore_and_fail_level(tmp_path) -> None:
    (tmp_path / "job.yaml").write_text(BROKEN)
    assert run("check", str(tmp_path / "job.yaml"), "--ignore", "unknown-field").exit_code == 0
    assert run("check", str(tmp_path / "job.yaml"), "--fail-level", "error").exit_code == 0
    assert run("check", str(tmp_path / "job.yaml"), "--select", "WM5").exit_code == 0


def test_config_file_is_found_upwards_within_the_repository(tmp_path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text('[tool.wmaplint]\nseverity = {WM112 = "info"}\nfail-level = '
                                             '"warning"\n')
    (tmp_path / "defs").mkdir()
    (tmp_path / "defs" / "job.yaml").write_text(BROKEN)
    result = run("check", str(tmp_path / "defs"), "--no-color")
    assert result.exit_code == 0 and "info: unknown field" in result.output


def test_bad_config_exits_two(tmp_path) -> None:
    (tmp_path / ".wmaplint.yaml").write_text("selekt: [WM1]\n")
    (tmp_path / "job.yaml").write_text(JOB)
    result = CliRunner().invoke(main, ["check", str(tmp_path / "job.yaml")])
    assert result.exit_code == 2 and "unknown setting 'selekt'" in result.output


def test_exclude_globs(tmp_path) -> None:
    (tmp_path / ".wmaplint.yaml").write_text("exclude: ['drafts/*']\n")
    (tmp_path / "drafts").mkdir()
    (tmp_path / "drafts" / "bad.yaml").write_text(BROKEN)
    (tmp_path / "job.yaml").write_text(JOB)
    assert run("check", str(tmp_path)).exit_code == 0


def test_inline_suppression_and_unused_suppression(tmp_path) -> None:
    text = BROKEN.replace("specDefiniton:", "specDefiniton:  # wmaplint: disable=WM112 -- draft", 1)
    (tmp_path / "job.yaml").write_text(text)
    assert run("check", str(tmp_path / "job.yaml")).exit_code == 0
    (tmp_path / "job.yaml").write_text(JOB.replace("name: job\n", "name: job  # wmaplint: "
                                                   "disable=unknown-field\n", 1))
    result = run("check", str(tmp_path / "job.yaml"), "--fail-level", "info", "--no-color")
    assert result.exit_code == 1 and "WM910" in result.output


def test_file_level_suppression(tmp_path) -> None:
    (tmp_path / "job.yaml").write_text("# wmaplint: disable-file=WM112\n" + BROKEN)
    assert run("check", str(tmp_path / "job.yaml")).exit_code == 0


def test_fix_renames_keeps_comments_and_is_idempotent(tmp_path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text("# a comment to keep\n" + BROKEN)
    run("check", str(path), "--fix")
    fixed = path.read_text()
    assert fixed == "# a comment to keep\n" + JOB
    run("check", str(path), "--fix")
    assert path.read_text() == fixed


def test_sarif_output_is_valid_json_with_one_run(tmp_path, monkeypatch) -> None:
    (tmp_path / "job.yaml").write_text(BROKEN)
    monkeypatch.chdir(tmp_path)  # SARIF places results inside the working tree it runs in
    out = json.loads(run("check", "job.yaml", "--format", "sarif").output)
    assert out["version"] == "2.1.0" and len(out["runs"]) == 1
    assert out["runs"][0]["results"][0]["ruleId"] == "WM112"


def test_rules_and_explain() -> None:
    listing = run("rules", "--format", "json")
    ids = [r["id"] for r in json.loads(listing.output)]
    assert "WM112" in ids and ids == sorted(ids)
    explained = run("explain", "unknown-field")
    assert explained.exit_code == 0 and "Failing example" in explained.output
    assert CliRunner().invoke(main, ["explain", "WM999"]).exit_code == 2


def test_version_is_fast_to_import() -> None:
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "wmaplint", "--version"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "wmaplint 0.1.0" in proc.stdout
    heavy = [m for m in ("pygls", "celpy", "cel_expr", "jsonschema", "lark", "jq") if f" {m}\n" in proc.stderr
             or f" {m}." in proc.stderr]
    assert heavy == []


def test_parallel_jobs_give_the_same_sorted_output(repo, tmp_path) -> None:
    for i in range(10):
        (tmp_path / f"def{i}.yaml").write_text(BROKEN if i % 2 else JOB)
    one = run("check", str(tmp_path), "--format", "json", "--jobs", "1").output
    two = run("check", str(tmp_path), "--format", "json", "--jobs", "2").output
    assert one == two and json.loads(one)["files"] == 10
    assert len(json.loads(one)["diagnostics"]) >= 5


def test_the_executable_leaves_with_its_code_its_whole_output_and_the_exit_functions_run(tmp_path) -> None:
    # The executable skips the interpreter's teardown (wmaplint.launch.leave): what it printed must all be
    # out, the exit code kept, and what was registered to run at exit run all the same.
    (tmp_path / "job.yaml").write_text(BROKEN)
    script = ("import atexit, sys; atexit.register(lambda: sys.stderr.write('exit functions ran'));"
              f"sys.argv = ['wmaplint', 'check', '--format', 'json', {str(tmp_path / 'job.yaml')!r}];"
              "from wmaplint.launch import main; main()")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 1
    assert [d["rule"] for d in json.loads(proc.stdout)["diagnostics"]] == ["WM112"]
    assert proc.stderr == "exit functions ran"
    usage = subprocess.run([sys.executable, "-m", "wmaplint", "check", "--format", "yaml", "x"],
                           capture_output=True, text=True)
    assert usage.returncode == 2 and usage.stderr.startswith("wmaplint: ")
