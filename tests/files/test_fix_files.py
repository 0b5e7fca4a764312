"""`check --fix` writes a file whole or not at all, keeps what the file is (byte order mark, line ends, mode,
owner, links), and says in one line why it left a file alone."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wmaplint import fixes
from wmaplint.diagnostics import CheckOutcome, Diagnostic, Fix, Severity, Span, TextEdit
from wmaplint.fixes import FixError, sweep_temporary_files, write_fixed
from wmaplint.rules.examples import JOB, job_with

BROKEN = job_with("specDefinition:", "specDefiniton:")  # WM112 with a rename fix


def wmaplint(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "wmaplint", "check", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})


def _error_lines(run: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in run.stderr.splitlines() if line.startswith("wmaplint: ")]


def test_byte_order_mark_line_ends_and_mode_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + BROKEN.replace("\n", "\r\n").encode())
    path.chmod(0o640)
    run = wmaplint("--fix", path.name, cwd=tmp_path)
    assert run.returncode == 0 and "fixed 1 finding(s)" in run.stderr
    assert path.read_bytes() == b"\xef\xbb\xbf" + JOB.replace("\n", "\r\n").encode()
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["job.yaml"]  # no temporary file left


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_owner_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(BROKEN)
    os.chown(path, 4321, 4322)
    assert wmaplint("--fix", path.name, cwd=tmp_path).returncode == 0
    assert path.read_text() == JOB and (path.stat().st_uid, path.stat().st_gid) == (4321, 4322)


def test_read_only_file_is_left_alone_with_one_line(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(BROKEN)
    path.chmod(0o444)
    run = wmaplint("--fix", path.name, cwd=tmp_path)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert _error_lines(run) == ["wmaplint: job.yaml: is read-only; not fixed"]
    assert path.read_text() == BROKEN and "WM112" in run.stdout


def test_symbolic_link_is_left_alone_unless_asked(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text(BROKEN)
    link = tmp_path / "link.yaml"
    link.symlink_to(real.name)
    run = wmaplint("--fix", link.name, cwd=tmp_path)
    assert run.returncode == 2
    assert _error_lines(run) == [
        "wmaplint: link.yaml: is a symbolic link; not fixed (--follow-symlinks writes to its target)"]
    assert link.is_symlink() and real.read_text() == BROKEN
    run = wmaplint("--fix", "--follow-symlinks", link.name, cwd=tmp_path)
    assert run.returncode == 0 and link.is_symlink() and os.readlink(link) == "real.yaml"
    assert real.read_text() == JOB


def test_hard_linked_file_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(BROKEN)
    os.link(path, tmp_path / "other-name.yaml")
    run = wmaplint("--fix", path.name, cwd=tmp_path)
    assert run.returncode == 2 and len(_error_lines(run)) == 1 and "hard links" in run.stderr
    assert path.read_text() == BROKEN


def test_other_files_are_still_fixed_when_one_cannot_be(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(BROKEN)
    (tmp_path / "b.yaml").write_text(BROKEN)
    (tmp_path / "b.yaml").chmod(0o444)
    run = wmaplint("--fix", ".", cwd=tmp_path)
    assert run.returncode == 2 and _error_lines(run) == ["wmaplint: ./b.yaml: is read-only; not fixed"]
    assert (tmp_path / "a.yaml").read_text() == JOB and (tmp_path / "b.yaml").read_text() == BROKEN


def test_a_name_of_240_characters_is_fixed(tmp_path: Path) -> None:
    path = tmp_path / ("d" * 235 + ".yaml")
    path.write_text(BROKEN)
    run = wmaplint("--fix", path.name, cwd=tmp_path)
    assert run.returncode == 0 and "Traceback" not in run.stderr and path.read_text() == JOB


def test_immutable_directory_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "job.yaml").write_text(BROKEN)
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)]).returncode != 0:
        pytest.skip("this file system cannot make a directory immutable")
    try:
        run = wmaplint("--fix", "locked/job.yaml", cwd=tmp_path)
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert _error_lines(run) == [
        "wmaplint: locked/job.yaml: cannot write beside it (Operation not permitted); not fixed"]
    assert (folder / "job.yaml").read_text() == BROKEN


def test_a_file_changed_since_it_was_checked_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(BROKEN + "# edited meanwhile\n")
    with pytest.raises(FixError, match="changed since it was checked"):
        write_fixed(str(path), JOB, BROKEN)
    assert path.read_text() == BROKEN + "# edited meanwhile\n"


def test_the_data_is_synced_before_the_rename_and_a_failed_rename_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(BROKEN)
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(fixes.os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(fixes.os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1])
    write_fixed(str(path), JOB, BROKEN)
    assert calls[:2] == ["fsync", "replace"] and path.read_text() == JOB

    def refuse(a: str, b: str) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(fixes.os, "replace", refuse)
    with pytest.raises(FixError, match=r"job.yaml: cannot replace it \(Operation not permitted\); not fixed"):
        write_fixed(str(path), BROKEN, JOB)
    assert path.read_text() == JOB and [p.name for p in tmp_path.iterdir()] == ["job.yaml"]


# A process that rewrites one big file through write_fixed until it is killed.
_REWRITER = """
import sys
from wmaplint.fixes import write_fixed
path, texts = sys.argv[1], [sys.argv[2] * 400_000, sys.argv[3] * 400_000]
i = 0
while True:
    write_fixed(path, texts[(i + 1) % 2], texts[i % 2])
    i += 1
"""


def test_a_run_killed_mid_write_leaves_the_file_whole_and_the_next_fix_sweeps_its_temporary_file(
        tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n" * 400_000)
    proc = subprocess.Popen([sys.executable, "-c", _REWRITER, str(big), "a: 1\n", "b: 2\n"])
    try:
        deadline = time.monotonic() + 60
        while not any(p.name.startswith(".wmaplint-write-") for p in tmp_path.iterdir()):
            assert time.monotonic() < deadline and proc.poll() is None, "no temporary file seen"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    assert big.read_text() in ("a: 1\n" * 400_000, "b: 2\n" * 400_000)  # whole, old or new
    left = [p.name for p in tmp_path.iterdir() if p.name.startswith(".wmaplint-write-")]
    assert left and all(name.startswith(f".wmaplint-write-{proc.pid}-") for name in left)

    (tmp_path / "job.yaml").write_text(BROKEN)
    run = wmaplint("--fix", ".", cwd=tmp_path)
    assert run.returncode == 0 and (tmp_path / "job.yaml").read_text() == JOB
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.yaml", "job.yaml"]


def test_the_sweep_spares_temporary_files_of_live_runs(tmp_path: Path) -> None:
    live = tmp_path / f".wmaplint-write-{os.getppid()}-x.tmp"
    live.write_text("")
    mine = tmp_path / f".wmaplint-write-{os.getpid()}-y.tmp"
    mine.write_text("")
    other = tmp_path / ".wmaplint-write-notapid.tmp"
    other.write_text("")
    assert sweep_temporary_files(str(tmp_path)) == []
    assert live.exists() and mine.exists() and other.exists()


def test_one_run_reaches_the_fixed_point(tmp_path: Path) -> None:
    # In the README's broken RayJob the first fix leaves a finding of its own: instanceIdPath, moved under
    # .spec.rayClusterSpec, then iterates an optional list, which the next round guards. One run applies them
    # all. replicasPath's `// 1` over the stream is no finding: the API server defaults every worker group's
    # replicas (to 0), so no element is dropped.
    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "rayjob-broken.yaml"
    path = tmp_path / "rayjob.yaml"
    shutil.copy(example, path)
    first = wmaplint("--fix", path.name, cwd=tmp_path)
    assert "fixed 4 finding(s)" in first.stderr
    text = path.read_text()
    assert "instanceIdPath: .spec.rayClusterSpec.workerGroupSpecs[]?.groupName" in text
    assert "replicasPath: .spec.rayClusterSpec.workerGroupSpecs[]?.replicas // 1" in text
    second = wmaplint("--fix", path.name, cwd=tmp_path)
    assert "fixed" not in second.stderr and path.read_text() == text


def test_fixes_that_undo_each_other_stop_after_a_bounded_number_of_rounds(tmp_path: Path) -> None:
    path = tmp_path / "flip.yaml"
    path.write_text("a\n")
    checks = []

    def report() -> CheckOutcome:
        text = path.read_text()
        other = "b" if text.startswith("a") else "a"
        edit = TextEdit(Span(1, 1, 1, 2), other)
        diag = Diagnostic("WM112", Severity.WARNING, "flip", str(path), Span(1, 1, 1, 2),
                          fixes=(Fix("flip", (edit,)),))
        return CheckOutcome(diagnostics=[diag], sources={str(path): text})

    def check_again() -> CheckOutcome:
        checks.append(1)
        return report()

    _, outcome = fixes.fix_to_fixed_point(report(), check_again)
    assert len(checks) == fixes.MAX_FIX_ROUNDS and outcome.fixed == fixes.MAX_FIX_ROUNDS
