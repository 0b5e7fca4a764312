"""The session's promises to its client, over stdio with a bare client: every request is answered exactly
once, cancelled ones included (RequestCancelled, -32800), and leaves no state behind; a frame with a wrong
Content-Length or garbage between frames costs that frame only; the server (and its worker) ends when its
input closes or the client process named in ``initialize`` is gone; TCP binds the loopback unless told
otherwise, and says so in one line when told."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB

from .rawclient import RawClient

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
REQUEST_CANCELLED = -32800


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _resident(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * 4096


def _gone(pid: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def _hover(uri: str, msg_id: int) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": uri}, "position": {"line": 0, "character": msg_id % 5}}}


def _storm(server: RawClient, uri: str, first: int, count: int) -> list[dict]:
    for msg_id in range(first, first + count):
        server.send(_hover(uri, msg_id))
        server.notify("$/cancelRequest", {"id": msg_id})
    answers = [server.wait_for(lambda m: "method" not in m and isinstance(m.get("id"), int)
                               and first <= m["id"] < first + count, timeout=60) for _ in range(count)]
    return answers


@linux_only
def test_a_cancel_storm_answers_every_request_once_and_keeps_memory_flat(tmp_path: Path) -> None:
    server = RawClient(stderr_path=tmp_path / "stderr.txt")
    try:
        server.initialize()
        uri = (tmp_path / "job.yaml").as_uri()
        server.open(uri, JOB)
        server.diagnostics(uri)
        answers = _storm(server, uri, 1000, 200)
        assert sorted(a["id"] for a in answers) == list(range(1000, 1200))
        assert all(("result" in a) != ("error" in a) for a in answers)
        cancelled = [a for a in answers if "error" in a]
        assert cancelled and all(a["error"]["code"] == REQUEST_CANCELLED for a in cancelled)
        _storm(server, uri, 2000, 500)  # warm: allocator pools
        # one hover run to its end, so what a first hover loads lazily (the controller model) is loaded
        # before measuring, whichever of the storm's hovers the cancellations let run
        server.send(_hover(uri, 2999))
        server.wait_for(lambda m: m.get("id") == 2999, timeout=60)
        before = _resident(server.proc.pid)  # the server's own: it keeps the requests (the worker is bounded)
        _storm(server, uri, 3000, 1000)
        after = _resident(server.proc.pid)
        assert after - before < 512 * 1024, (before, after)  # 2.4 KB a request leaked 2.4 MB here
        time.sleep(0.5)
        assert not [m for m in server.seen if "method" not in m], "an id was answered twice"
        assert server.call("shutdown")["result"] is None
    finally:
        server.stop()


def _frame(body: dict, delta: int = 0) -> bytes:
    data = json.dumps(body).encode()
    return b"Content-Length: %d\r\n\r\n" % (len(data) + delta) + data


@pytest.mark.parametrize("bad", [
    pytest.param(_frame(_hover("file:///x.yaml", 50), -7), id="too-short"),
    pytest.param(_frame(_hover("file:///x.yaml", 50), +9), id="too-long"),
    pytest.param(b"garbage between frames\r\n", id="garbage-line"),
    pytest.param(b"}}} not a header", id="garbage-glued-to-the-next-header"),
])
def test_a_bad_frame_costs_that_frame_only(tmp_path: Path, bad: bytes) -> None:
    server = RawClient(stderr_path=tmp_path / "stderr.txt")
    try:
        server.initialize()
        server.send_bytes(bad)
        for msg_id in (60, 61, 62):
            server.send({"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/documentSymbol",
                         "params": {"textDocument": {"uri": "file:///none.yaml"}}})
        for msg_id in (60, 61, 62):
            assert server.response(msg_id, timeout=20)["result"] == []
    finally:
        assert server.stop() == 0
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()


@linux_only
def test_the_server_and_its_worker_end_when_input_closes(tmp_path: Path) -> None:
    server = RawClient(stderr_path=tmp_path / "stderr.txt")
    server.initialize()
    uri = (tmp_path / "job.yaml").as_uri()
    server.open(uri, JOB)
    server.diagnostics(uri)
    workers = _children(server.proc.pid)
    assert workers
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    assert server.proc.wait(timeout=15) == 1  # no shutdown was asked: 1, as the protocol says
    assert all(_gone(pid, 10) for pid in workers)


@linux_only
def test_the_server_ends_when_the_client_process_is_gone(tmp_path: Path) -> None:
    client_process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    server = RawClient(stderr_path=tmp_path / "stderr.txt")
    try:
        server.call("initialize", {"processId": client_process.pid, "rootUri": None, "capabilities": {}})
        server.notify("initialized", {})
        uri = (tmp_path / "job.yaml").as_uri()
        server.open(uri, JOB)
        server.diagnostics(uri)
        workers = _children(server.proc.pid)
        client_process.kill()
        client_process.wait()
        # the input stays open: only the client's death tells the server to go
        assert server.proc.wait(timeout=20) == 1
        assert all(_gone(pid, 10) for pid in workers)
    finally:
        client_process.kill()
        server.proc.kill()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _tcp_server(tmp_path: Path, *host: str) -> tuple[subprocess.Popen, int]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "wmaplint", "lsp", "--tcp", *host, "--port", str(port)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=open(tmp_path / "stderr.txt", "wb"))
    return proc, port


def _wait_listening(port: int, host: str = "127.0.0.1") -> socket.socket:
    deadline = time.monotonic() + 20
    while True:
        try:
            return socket.create_connection((host, port), timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.mark.parametrize("args, warned", [((), False), (("--host", "0.0.0.0"), True)])
def test_tcp_binds_the_loopback_unless_told_and_warns_when_told(tmp_path: Path, args, warned) -> None:
    proc, port = _tcp_server(tmp_path, *args)
    try:
        connection = _wait_listening(port)  # a loopback connection, in either case
        connection.close()
        assert proc.wait(timeout=20) in (0, 1)
    finally:
        proc.kill()
    stderr = (tmp_path / "stderr.txt").read_text()
    if warned:
        assert stderr.splitlines()[0] == (f"wmaplint: lsp: listening on 0.0.0.0:{port}, reachable from other "
                                          "hosts; the server trusts whoever connects first (default: "
                                          "127.0.0.1)")
    else:
        assert stderr == ""

