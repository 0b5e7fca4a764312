"""Every path the tool reads refuses devices and FIFOs with one line, and reads regular files and stdin only
up to the size cap: nothing blocks waiting for a writer or reads an endless device into memory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB

from .helpers import JOB_MANIFEST, assert_clean, wmaplint

BOUND = 20.0  # seconds: a blocked read would hang until the timeout instead


@pytest.fixture(params=["device", "fifo"])
def special(request, tmp_path) -> Path:
    """A path that is no regular file: /dev/zero (endless) or a FIFO nobody writes to (blocks an open)."""
    if request.param == "device":
        return Path("/dev/zero")
    fifo = tmp_path / "special.yaml"
    os.mkfifo(fifo)
    return fifo


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".git").mkdir()
    (repo / "def.yaml").write_text(JOB)
    (repo / "job.yaml").write_text(JOB_MANIFEST)
    return repo


def _refused(run) -> None:
    assert any(
        reason in run.stderr + run.stdout
        for reason in ("is a device", "is a FIFO", "not a regular file", "over the 20 MB limit",
                       "outside the repository")  # a link to /dev/zero named by a repository's settings
    ), str(run)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize(
    "where",
    ["argument", "crds", "config", "definition", "pods", "tree-manifest", "schema-path", "config-crds",
     "config-rule-packs", "suite-definition", "suite-manifest"],
)
def test_special_files_are_refused(tmp_path, special: Path, where: str) -> None:
    repo = _repository(tmp_path)
    inside = repo / "special.yaml"
    if special.parent == tmp_path:  # the FIFO: move it inside the repository, where config may name it
        special.rename(inside)
        special = inside
    else:
        inside.symlink_to(special)  # config paths must stay inside the repository; a link may lead out
    env: dict[str, str] = {}
    suite = repo / "x.test.yaml"
    definition, manifest = repo / "def.yaml", repo / "job.yaml"
    args: tuple[str | Path, ...] = {
        "argument": ("check", special),
        "crds": ("check", "--crds", special, definition),
        "config": ("check", "--config", special, definition),
        "definition": ("tree", "--definition", special, manifest),
        "pods": ("tree", "--definition", definition, "--pods", special, manifest),
        "tree-manifest": ("tree", "--definition", definition, special),
        "schema-path": ("check", definition),
        "config-crds": ("check", definition),
        "config-rule-packs": ("check", definition),
        "suite-definition": ("test", suite),
        "suite-manifest": ("test", suite),
    }[where]
    if where == "schema-path":
        env["WMAPLINT_SCHEMA_PATH"] = str(special)
    if where in ("config-crds", "config-rule-packs"):
        key = where.removeprefix("config-")
        (repo / ".wmaplint.yaml").write_text(f"{key}: [special.yaml]\n")
    if where.startswith("suite-"):
        named, manifest_name = ("special", "job") if where == "suite-definition" else ("def", "special")
        suite.write_text(f"definition: {named}.yaml\ncases: [{{name: a, manifest: {manifest_name}.yaml}}]\n")
    run = assert_clean(wmaplint(*args, cwd=repo, env=env, limit_memory=True, timeout=BOUND), 1, 2)
    _refused(run)


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero on this system")
@pytest.mark.parametrize("command", [("check", "-"), ("tree", "-"), ("schemas", "add", "-")])
def test_endless_stdin_stops_at_the_size_cap(command: tuple[str, ...]) -> None:
    with open("/dev/zero", "rb") as zero:
        run = wmaplint(*command, stdin=zero, limit_memory=True, timeout=BOUND)
    assert "over the 20 MB limit" in assert_clean(run, 2).stderr


def test_directory_walk_skips_fifos(tmp_path) -> None:
    (tmp_path / "def.yaml").write_text(JOB)
    os.mkfifo(tmp_path / "pipe.yaml")
    assert_clean(wmaplint("check", tmp_path, timeout=BOUND), 0, 1)


def test_schema_directory_with_a_fifo(tmp_path) -> None:
    (tmp_path / "crds").mkdir()
    os.mkfifo(tmp_path / "crds" / "pipe.yaml")
    (tmp_path / "def.yaml").write_text(JOB)
    assert_clean(wmaplint("check", "--crds", tmp_path / "crds", tmp_path / "def.yaml", timeout=BOUND), 0, 1)


def test_unreadable_file_is_one_line(tmp_path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    path = tmp_path / "def.yaml"
    path.write_text(JOB)
    path.chmod(0)
    assert "cannot read (Permission denied)" in assert_clean(wmaplint("check", path), 2).stderr


def test_long_file_name_is_one_line(tmp_path) -> None:
    assert_clean(wmaplint("check", tmp_path / ("x" * 300 + ".yaml"), timeout=BOUND), 2)
