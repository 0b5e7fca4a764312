"""A path the user names in an option and that cannot be read is one line and exit 2, whether or not the run
needed it, and a FIFO or a device is refused without blocking on it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
JOB = "catalog/batch-job-v1.yaml"
JOBSET = "catalog/examples/jobset-x-k8s-io-jobset-v1alpha2/leader-workers-gpu.yaml"


def wmaplint(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "wmaplint", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60, env=env)


@pytest.fixture
def fifo(tmp_path: Path) -> str:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize(
    ("args", "line"),
    [
        # a typo in --crds once passed with exit 0: no definition of the run needed the schema
        (["check", "--crds", "./typo", JOB], "--crds ./typo: no such file or directory"),
        (["check", "--config", "./nope.yaml", JOB],
         "--config ./nope.yaml: no such file or directory"),
        (["check", "--config", "catalog", JOB], "--config catalog: is a directory, not a file"),
        (["tree", "--definition", "./nope.yaml", JOBSET],
         "--definition ./nope.yaml: no such file or directory"),
        (["tree", "--with", "./nope.yaml", JOBSET], "--with ./nope.yaml: no such file or directory"),
        (["tree", "--pods", "./nope.yaml", JOBSET], "--pods ./nope.yaml: no such file or directory"),
        (["tree", "--crds", "./typo", JOBSET], "--crds ./typo: no such file or directory"),
        (["test", "--junit", "no/such/dir/report.xml", "catalog/tests"],
         "--junit no/such/dir/report.xml: cannot write: the directory no/such/dir does not exist"),
        (["schemas", "list", "--crds", "./typo"], "--crds ./typo: no such file or directory"),
        (["new", "--crd", "./typo.yaml"], "--crd ./typo.yaml: no such file or directory"),
    ],
)
def test_an_unreadable_path_option_is_one_line_and_exit_two(args: list[str], line: str) -> None:
    done = wmaplint(*args)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"wmaplint: {line}\n")


@pytest.mark.parametrize("option", ["--crds", "--config"])
def test_a_fifo_is_refused_without_blocking(option: str, fifo: str) -> None:
    done = wmaplint("check", option, fifo, JOB)  # the timeout fails a hang
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"wmaplint: {option} {fifo}: is not a regular ")
    assert "(a device, FIFO or socket)" in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_device_is_refused() -> None:
    if not Path("/dev/zero").is_char_device():
        pytest.skip("no character device /dev/zero")
    done = wmaplint("tree", "--with", "/dev/zero", JOBSET)
    assert done.returncode == 2
    assert done.stderr == "wmaplint: --with /dev/zero: is not a regular file (a device, FIFO or socket)\n"


def test_readable_paths_still_work() -> None:
    done = wmaplint("check", "--crds", "schemas", "--config", "pyproject.toml", JOB)
    assert done.returncode in (0, 1) and "--crds" not in done.stderr, done.stderr
