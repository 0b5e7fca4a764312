"""pygls 2 beside wmaplint's own protocol layer: the initialize budget, and the two faults the hostile
campaign found in protocol layers (a lying Content-Length, a storm of cancelled requests).

Both servers are whole processes over stdio, driven by the client of bench_lsp.py (it frames messages itself
and timestamps each server message on arrival):
- `wmaplint lsp`, the shipped server (standard-library framing in `wmaplint/lsp/rpc.py`);
- `benchmarks/pygls_server.py`, the smallest pygls 2 server: pygls imported at the top, `initialize`
  answered by pygls, `textDocument/hover` answered after a 20 ms asynchronous wait (where a cancellation
  can arrive).

Figures:
- `import` cold/warm: `python -c "import M"` for `pygls.lsp.server` and for `wmaplint.lsp.rpc`, process start
  to exit; cold with an empty PYTHONPYCACHEPREFIX (every module compiled), warm with bytecode. Median of RUNS.
- `initialize` cold/warm: process start to the `initialize` response, as in bench_lsp.py. Median of RUNS.
- lying frame: after `initialize`, one hover request whose Content-Length says LIE bytes more than its body,
  then FOLLOWERS valid hover requests; counted: follower requests answered within WAIT seconds.
- cancel storm: STORM hover requests, each followed at once by `$/cancelRequest` for it; counted: requests
  answered exactly once within WAIT seconds (LSP: every request gets a response, a cancelled one included).

The machine may be shared: compare the two servers' figures of the same run, not runs of different days.
"""

from __future__ import annotations

import json
import queue
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_lsp import Server, environment, ms

ROOT = Path(__file__).resolve().parents[1]
PYGLS = [sys.executable, str(ROOT / "benchmarks" / "pygls_server.py")]
WMAPLINT = [sys.executable, "-m", "wmaplint", "lsp"]
RUNS = 5
LIE = 40
FOLLOWERS = 5
STORM = 200
WAIT = 10.0
URI = (Path(tempfile.gettempdir()) / "bench-lsp-pygls" / "probe.yaml").as_uri()
TEXT = "apiVersion: workload.codeflare.dev/v1alpha1\nkind: Karta\nmetadata:\n  name: probe\n"


def import_seconds(module: str, cold: bool) -> float:
    with tempfile.TemporaryDirectory() as empty:
        env = environment(**({"PYTHONPYCACHEPREFIX": empty} if cold else {}))
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {module}"], env=env, check=True)
        return time.perf_counter() - started


def initialize_seconds(command: list[str], cold: bool) -> float:
    with tempfile.TemporaryDirectory() as empty:
        server = Server(environment(**({"PYTHONPYCACHEPREFIX": empty} if cold else {})), command)
        seconds = server.initialize()
        server.stop()
        return seconds


def hover(msg_id: int) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "method": "textDocument/hover",
            "params": {"textDocument": {"uri": URI}, "position": {"line": 1, "character": 2}}}


def answers(server: Server, wanted: set[int]) -> dict[int, int]:
    """How many responses each wanted id got within WAIT seconds."""
    counts = dict.fromkeys(wanted, 0)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            _, message = server.inbox.get(timeout=0.2)
        except queue.Empty:
            if all(counts.values()):
                break
            continue
        if message.get("id") in counts and "method" not in message:
            counts[message["id"]] += 1
    return counts


def opened(command: list[str]) -> Server:
    server = Server(environment(), command)
    server.initialize()
    server.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": URI, "languageId": "yaml", "version": 1, "text": TEXT}}})
    return server


def lying_frame(command: list[str]) -> int:
    server = opened(command)
    body = json.dumps(hover(100)).encode()
    server.send_bytes(b"Content-Length: %d\r\n\r\n%s" % (len(body) + LIE, body))
    followers = set(range(101, 101 + FOLLOWERS))
    for msg_id in sorted(followers):
        server.send(hover(msg_id))
    answered = sum(1 for count in answers(server, followers).values() if count == 1)
    server.proc.kill()
    server.proc.wait()
    return answered


def cancel_storm(command: list[str]) -> int:
    server = opened(command)
    ids = set(range(1000, 1000 + STORM))
    for msg_id in sorted(ids):
        server.send(hover(msg_id))
        server.send({"method": "$/cancelRequest", "params": {"id": msg_id}})
    once = sum(1 for count in answers(server, ids).values() if count == 1)
    server.proc.kill()
    server.proc.wait()
    return once


def median(values: list[float]) -> str:
    return ms(statistics.median(values))


def main() -> None:
    for module in ("pygls.lsp.server", "wmaplint.lsp.rpc"):
        cold = [import_seconds(module, True) for _ in range(RUNS)]
        warm = [import_seconds(module, False) for _ in range(RUNS)]
        print(f"import {module}: cold median {median(cold)}, warm median {median(warm)} (whole process)")
    rows = {}
    for name, command in (("pygls 2", PYGLS), ("wmaplint lsp", WMAPLINT)):
        cold = [initialize_seconds(command, True) for _ in range(RUNS)]
        warm = [initialize_seconds(command, False) for _ in range(RUNS)]
        lied = lying_frame(command)
        storm = cancel_storm(command)
        rows[name] = (median(cold), median(warm), lied, storm)
        print(f"{name}: initialize cold median {median(cold)}, warm median {median(warm)}; after a lying "
              f"frame {lied}/{FOLLOWERS} requests answered; cancel storm {storm}/{STORM} answered once")
    pygls, own = rows["pygls 2"], rows["wmaplint lsp"]
    print(f"TABLE|language server, pygls 2 vs wmaplint's protocol layer: initialize warm {pygls[1]} vs "
          f"{own[1]}, cold {pygls[0]} vs {own[0]}; after one lying Content-Length {pygls[2]}/{FOLLOWERS} vs "
          f"{own[2]}/{FOLLOWERS} requests answered; cancel storm {pygls[3]}/{STORM} vs {own[3]}/{STORM} "
          f"answered once")


if __name__ == "__main__":
    main()
