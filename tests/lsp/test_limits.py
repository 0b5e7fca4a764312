"""Bounds of the real server on real documents: a lint that outlives its time bound is stopped, and the memory
a large document took returns when it closes (resident memory of the server and its worker, from /proc)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB

from .rawclient import RawClient

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
MB = 1 << 20
BROKEN = JOB.replace("specDefinition:", "specDefiniton:")


def resident_tree(pid: int) -> int:
    """Resident bytes of a process and its children."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    total = 0
    for each in [pid, *map(int, children)]:
        try:
            total += int(Path(f"/proc/{each}/statm").read_text().split()[1]) * 4096
        except (OSError, ValueError, IndexError):
            pass
    return total


def test_a_lint_past_the_time_bound_is_stopped_and_the_next_one_runs(tmp_path: Path) -> None:
    # one jq expression of 300,000 terms: seconds of typing work, more than the 1 s bound
    huge = JOB.replace(".spec.template}", "'" + " + ".join([".spec.a"] * 300_000) + "'}")
    server = RawClient("--lint-timeout", "1", stderr_path=tmp_path / "stderr.txt")
    try:
        server.initialize()
        uri = (tmp_path / "huge.yaml").as_uri()
        server.open(uri, huge)
        stopped = server.diagnostics(uri, version=1, timeout=60)
        assert len(stopped) == 1 and "took longer than 1 s" in stopped[0]["message"]
        server.change(uri, 2, [{"text": BROKEN}])
        assert "WM112" in [d.get("code") for d in server.diagnostics(uri, version=2, timeout=60)]
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


# 5 MB of annotations (parsed text: freed on close), and an expression of 150,000 terms (its syntax tree and
# typing stay in the worker's caches: the worker is replaced)
NOTES = "".join(f"    note{i}: '{'v' * 100}'\n" for i in range(45_000))
ANNOTATIONS = JOB.replace("metadata: {name: batch-job-v1}", f"metadata:\n  name: x\n  annotations:\n{NOTES}")
EXPRESSION = JOB.replace(".spec.template}", "'" + " + ".join([".spec.a"] * 150_000) + "'}")


@linux_only
@pytest.mark.parametrize("large", [ANNOTATIONS, EXPRESSION], ids=["annotations", "expression"])
def test_memory_returns_after_a_large_document_closes(tmp_path: Path, large: str) -> None:
    server = RawClient("--lint-timeout", "120", stderr_path=tmp_path / "stderr.txt")
    try:
        server.initialize()
        small = (tmp_path / "job.yaml").as_uri()
        server.open(small, BROKEN)
        server.diagnostics(small)
        before = resident_tree(server.proc.pid)
        uri = (tmp_path / "large.yaml").as_uri()
        server.open(uri, large)
        server.diagnostics(uri, timeout=120)
        server.call("textDocument/documentSymbol", {"textDocument": {"uri": uri}}, timeout=120)
        during = resident_tree(server.proc.pid)
        server.close(uri)
        deadline = time.monotonic() + 30
        after = resident_tree(server.proc.pid)
        while after > before + 48 * MB and time.monotonic() < deadline:
            time.sleep(0.5)
            after = resident_tree(server.proc.pid)
        assert during > before + 48 * MB  # the document did take memory
        assert after <= before + 48 * MB, (before // MB, during // MB, after // MB)
        server.change(small, 2, [{"text": JOB}])
        assert server.diagnostics(small, version=2) is not None
    finally:
        server.stop()


@linux_only
def test_a_busy_worker_ends_with_a_killed_server(tmp_path: Path) -> None:
    server = RawClient("--lint-timeout", "60")
    try:
        server.initialize()
        uri = (tmp_path / "job.yaml").as_uri()
        server.open(uri, BROKEN)
        server.diagnostics(uri)
        children = Path(f"/proc/{server.proc.pid}/task/{server.proc.pid}/children").read_text().split()
        assert len(children) == 1
        worker = Path(f"/proc/{children[0]}")
        server.open((tmp_path / "huge.yaml").as_uri(), EXPRESSION)  # seconds of work
        time.sleep(1)
    finally:
        server.proc.kill()
        server.proc.wait()
    deadline = time.monotonic() + 2  # well before the lint would end and the worker read end-of-file
    while worker.exists() and _state(worker) != "Z" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not worker.exists() or _state(worker) == "Z"


def _state(process: Path) -> str:
    try:
        return (process / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return "Z"
