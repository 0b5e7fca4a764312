"""Configuration discovery is bounded by the repository: a `.wmaplint.yaml` above the directory holding `.git`
(a folder, or a file in a linked work tree) configures nothing; outside any repository discovery stops at the
working directory (or, for a file outside it, at the file's own directory). `-v` names the file that
configured the run, or says that none did and where the search stopped."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.rules.examples import job_with

from .helpers import assert_clean, wmaplint

FINDING = job_with("specDefinition:", "specDefiniton:")
SILENCE_ALL = "ignore: [WM]\n"


@pytest.fixture(params=["folder", "file"])
def repo(tmp_path, request) -> Path:
    """A repository (``.git`` a folder, or a file as in a linked work tree) below a folder whose
    configuration silences every rule."""
    (tmp_path / ".wmaplint.yaml").write_text(SILENCE_ALL)
    repo = tmp_path / "repo"
    (repo / "defs").mkdir(parents=True)
    if request.param == "folder":
        (repo / ".git").mkdir()
    else:
        (repo / ".git").write_text("gitdir: /elsewhere/.git/worktrees/repo\n")
    (repo / "defs" / "job.yaml").write_text(FINDING)
    return repo


def test_a_configuration_above_the_repository_does_not_apply(repo) -> None:
    run = assert_clean(wmaplint("check", "-v", "defs/job.yaml", cwd=repo), 1)
    assert "WM112" in run.stdout
    assert f"wmaplint: no configuration file; looked in {repo}/defs and up to the repository root {repo}" \
        in run.error_lines, run.stderr


def test_a_configuration_in_the_repository_applies_and_is_named(repo) -> None:
    (repo / ".wmaplint.yaml").write_text(SILENCE_ALL)
    run = assert_clean(wmaplint("check", "-v", "defs/job.yaml", cwd=repo), 0)
    assert f"wmaplint: configured by {repo}/.wmaplint.yaml" in run.error_lines, run.stderr


def test_outside_a_repository_discovery_stops_at_the_working_directory(tmp_path) -> None:
    (tmp_path / ".wmaplint.yaml").write_text(SILENCE_ALL)
    work = tmp_path / "work"
    (work / "defs").mkdir(parents=True)
    (work / "defs" / "job.yaml").write_text(FINDING)
    run = assert_clean(wmaplint("check", "-v", "defs/job.yaml", cwd=work), 1)
    assert f"wmaplint: no configuration file; looked in {work}/defs and up to the working directory {work} " \
        "(no repository)" in run.error_lines, run.stderr
    (work / ".wmaplint.yaml").write_text(SILENCE_ALL)
    run = assert_clean(wmaplint("check", "-v", "defs/job.yaml", cwd=work), 0)
    assert f"wmaplint: configured by {work}/.wmaplint.yaml" in run.error_lines


def test_outside_a_repository_and_the_working_directory_only_the_files_folder(tmp_path) -> None:
    (tmp_path / ".wmaplint.yaml").write_text(SILENCE_ALL)
    (tmp_path / "defs").mkdir()
    (tmp_path / "defs" / "job.yaml").write_text(FINDING)
    (tmp_path / "cwd").mkdir()
    run = assert_clean(wmaplint("check", "-v", str(tmp_path / "defs" / "job.yaml"), cwd=tmp_path / "cwd"), 1)
    assert "WM112" in run.stdout


def test_an_explicit_configuration_is_named(repo, tmp_path) -> None:
    run = assert_clean(wmaplint("check", "-v", "--config", str(tmp_path / ".wmaplint.yaml"), "defs/job.yaml",
                                cwd=repo), 0)
    assert f"wmaplint: configured by {tmp_path}/.wmaplint.yaml (--config)" in run.error_lines
