"""`--select` and `--ignore` on the command line follow ruff's conventions (astral-sh/ruff pull request #2312,
released in 0.0.238): `--ignore` adds to the configuration's `ignore:`, and `--select` starts the selection
afresh, without the configuration's `select:` and `ignore:`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.rules.examples import job_with

# two findings: an unknown field (WM112, warning) and a name off the catalog convention (KBP003, info)
DEFINITION = job_with("specDefinition:", "specDefiniton:").replace("name: batch-job-v1", "name: my-job")


def rules_found(tmp_path: Path, *args: str) -> list[str]:
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        result = CliRunner().invoke(main, ["check", "job.yaml", "--format", "json", *args])
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1), result.output
    return sorted(d["rule"] for d in json.loads(result.output)["diagnostics"])


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "job.yaml").write_text(DEFINITION)
    (tmp_path / ".wmaplint.yaml").write_text("ignore: [KBP003]\n")
    return tmp_path


def test_the_command_lines_ignore_adds_to_the_configurations(project: Path) -> None:
    assert rules_found(project) == ["WM112"]
    assert rules_found(project, "--ignore", "WM112") == []  # KBP003 stays ignored


def test_the_command_lines_select_starts_afresh(project: Path) -> None:
    assert rules_found(project, "--select", "KBP003") == ["KBP003"]
    assert rules_found(project, "--select", "KBP003,WM112", "--ignore", "WM112") == ["KBP003"]
