"""Output that cannot be written — standard output closed, a full disk, a reader gone — is one line and exit 2
(a broken pipe, the ordinary end of `| head`, ends quietly), never a traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB, job_with

from .helpers import REPO

FINDING = job_with("specDefinition:", "specDefiniton:")


def _run(args: list[str], **kwargs) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "wmaplint", *args], cwd=REPO, env=env, timeout=60, **kwargs)


def _close_stdout() -> None:
    os.close(1)


@pytest.mark.parametrize("command", [["check", "{path}"], ["rules"], ["--version"], ["explain", "WM101"]])
def test_closed_standard_output(tmp_path, command: list[str]) -> None:
    (tmp_path / "def.yaml").write_text(JOB)
    args = [part.format(path=tmp_path / "def.yaml") for part in command]
    proc = _run(args, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_close_stdout)
    assert proc.returncode == 2
    assert proc.stderr.decode() == "wmaplint: standard output is closed\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_full_standard_output(tmp_path, fmt: str) -> None:
    (tmp_path / "def.yaml").write_text(FINDING)
    with open("/dev/full", "wb") as full:
        args = ["check", "--format", fmt, str(tmp_path / "def.yaml")]
        proc = _run(args, stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == 2
    assert proc.stderr.decode() == "wmaplint: cannot write the output: No space left on device\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
@pytest.mark.parametrize("command", [["rules", "--format", "json"], ["tree", "-"], ["test"]])
def test_full_standard_output_of_other_commands(command: list[str]) -> None:
    from .helpers import JOB_MANIFEST

    with open("/dev/full", "wb") as full:
        proc = _run(command, input=JOB_MANIFEST.encode(), stdout=full, stderr=subprocess.PIPE)
    assert proc.returncode == 2, proc.stderr
    assert b"Traceback" not in proc.stderr
    assert proc.stderr.decode().endswith("cannot write the output: No space left on device\n")


def test_reader_gone_ends_quietly(tmp_path) -> None:
    (tmp_path / "def.yaml").write_text("---\n".join([FINDING] * 300))  # output well past a pipe's buffer
    proc = subprocess.Popen(
        [sys.executable, "-m", "wmaplint", "check", "--format", "json", str(tmp_path / "def.yaml")],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.read(10)
    proc.stdout.close()  # the reader stops after ten bytes, as `| head -c 10` would
    stderr = proc.stderr.read()
    assert proc.wait(timeout=60) == 1
    assert stderr == b""
