"""Language server: time to answer `initialize`, and time from an edit to its diagnostics.

Every figure is measured on the whole server process (`python -m wmaplint lsp`) over stdio, from a client in
this process that frames messages itself and timestamps each server message on arrival.

- `initialize` cold: process start to the `initialize` response, with `PYTHONPYCACHEPREFIX` pointing at a new
  empty directory, so the interpreter finds no bytecode for any module it imports (standard library, click,
  wmaplint) and compiles each one: a first start after an install that did not byte-compile. Median of
  COLD_STARTS runs.
- `initialize` warm: the same with the bytecode in place; median and p95 of WARM_STARTS runs.
- change -> diagnostics: the largest catalog definition (Milvus) is opened and linted once; then, ROUNDS times
  each, incremental `didChange` edits (the range and text an editor sends for typing) that alternately add
  and remove an unknown field: a jq path segment the Milvus CRD does not have (`.image` -> `.imagez`,
  WM301 with a related location in the CRD) and a key the definition format does not have (WM112). A sample
  is the time from sending the change to receiving `publishDiagnostics` for that version, less the server's
  debounce; each sample checks that the finding appeared or went away. Median and p95 per edit and overall.

Schemas: ../shared's CRDs and Kubernetes OpenAPI (through WMAPLINT_SCHEMA_PATH) when present, else whatever
the installed wmaplint serves; without a Milvus schema the WM301 edit cannot be measured and the benchmark
stops. The machine is shared: compare figures taken in the same run. The two `TABLE|` rows feed the summary
of `make bench`.
"""

from __future__ import annotations

import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from wmaplint.lsp import rpc
from wmaplint.lsp.server import DEBOUNCE_SECONDS

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEFINITION = ROOT / "catalog" / "milvus-io-milvus-v1beta1.yaml"
COLD_STARTS = 3
WARM_STARTS = 10
PUBLISH = "textDocument/publishDiagnostics"
ROUNDS = 20  # of each edit, each added then removed
PATH_TOKEN = "imagePath: .spec.components.proxy.image //"  # the WM301 edit appends "z" to "image"
KEY_TOKEN = "  structureDefinition:\n"  # the WM112 edit inserts a line after it
UNKNOWN_KEY = "    unknownField: {}\n"


class Server:
    """A language server process (`wmaplint lsp` unless another command is given) and the messages it sent,
    each with its arrival time."""

    def __init__(self, env: dict[str, str], command: list[str] | None = None) -> None:
        self.started = time.perf_counter()
        command = command or [sys.executable, "-m", "wmaplint", "lsp"]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.inbox: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for item in rpc.read_frames(self.proc.stdout):
            if isinstance(item, bytes):
                self.inbox.put((time.perf_counter(), json.loads(item)))

    def send(self, message: dict[str, Any]) -> float:
        return self.send_bytes(rpc.encode({"jsonrpc": "2.0", **message}))

    def send_bytes(self, data: bytes) -> float:
        assert self.proc.stdin is not None
        sent = time.perf_counter()
        self.proc.stdin.write(data)
        self.proc.stdin.flush()
        return sent

    def wait(self, wanted: Any, timeout: float = 120.0) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + timeout
        while True:
            arrived, message = self.inbox.get(timeout=max(0.001, deadline - time.monotonic()))
            if wanted(message):
                return arrived, message

    def initialize(self) -> float:
        self.send({"id": 1, "method": "initialize", "params": {"processId": None, "capabilities": {}}})
        arrived, _ = self.wait(lambda m: m.get("id") == 1)
        self.send({"method": "initialized", "params": {}})
        return arrived - self.started

    def stop(self) -> None:
        self.send({"id": 2, "method": "shutdown"})
        self.wait(lambda m: m.get("id") == 2)
        self.send({"method": "exit"})
        self.proc.wait(timeout=30)


def environment(**extra: str) -> dict[str, str]:
    env = dict(os.environ, **extra)
    if SHARED.is_dir():
        env.setdefault("WMAPLINT_SCHEMA_PATH", f"{SHARED / 'crds'}{os.pathsep}{SHARED / 'k8s-openapi'}")
    return env


def initialize_times() -> tuple[list[float], list[float]]:
    cold = []
    for _ in range(COLD_STARTS):
        with tempfile.TemporaryDirectory() as empty:
            server = Server(environment(PYTHONPYCACHEPREFIX=empty))
            cold.append(server.initialize())
            server.stop()
    warm = []
    for _ in range(WARM_STARTS):
        server = Server(environment())
        warm.append(server.initialize())
        server.stop()
    return cold, warm


def position(text: str, offset: int) -> dict[str, int]:
    before = text[:offset]
    return {"line": before.count("\n"), "character": offset - (before.rfind("\n") + 1)}


def edits(text: str) -> list[tuple[str, str, dict[str, Any], bool]]:
    """(name, rule, the incremental change, whether it adds the finding) for one add-and-remove round."""
    point = position(text, text.index(PATH_TOKEN) + len(PATH_TOKEN) - len(" //"))
    after = {**point, "character": point["character"] + 1}
    key = position(text, text.index(KEY_TOKEN) + len(KEY_TOKEN))
    below = {"line": key["line"] + 1, "character": 0}
    return [
        ("add unknown path field", "WM301", {"range": {"start": point, "end": point}, "text": "z"}, True),
        ("remove unknown path field", "WM301", {"range": {"start": point, "end": after}, "text": ""}, False),
        ("add unknown key", "WM112", {"range": {"start": key, "end": key}, "text": UNKNOWN_KEY}, True),
        ("remove unknown key", "WM112", {"range": {"start": key, "end": below}, "text": ""}, False),
    ]


def change_times() -> tuple[dict[str, list[float]], float]:
    text = DEFINITION.read_text(encoding="utf-8")
    uri = (Path(tempfile.gettempdir()) / "bench-lsp" / DEFINITION.name).as_uri()
    server = Server(environment())
    server.initialize()
    opened = server.send({"method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
    arrived, first = server.wait(lambda m: m.get("method") == PUBLISH)
    if first["params"]["diagnostics"]:
        raise SystemExit(f"the benchmark needs a clean start: {first['params']['diagnostics'][0]['message']}")
    samples: dict[str, list[float]] = {}
    version = 1
    for _ in range(ROUNDS):
        for name, rule, change, adds in edits(text):
            version += 1
            sent = server.send({"method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
            got, message = server.wait(lambda m, v=version: m.get("method") == PUBLISH
                                       and m["params"].get("version") == v)
            if any(d.get("code") == rule for d in message["params"]["diagnostics"]) != adds:
                raise SystemExit(f"{name}: {rule} should be {'present' if adds else 'gone'}")
            samples.setdefault(name, []).append(got - sent - DEBOUNCE_SECONDS)
    server.stop()
    return samples, arrived - opened


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def ms(value: float) -> str:
    return f"{value * 1000:.1f} ms"


def main() -> None:
    cold, warm = initialize_times()
    samples, first_lint = change_times()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"lsp_load_average_1min: {load:.2f} ({os.cpu_count()} CPUs)")
    print(f"lsp_initialize_cold_median: {ms(statistics.median(cold))}")
    print(f"lsp_initialize_warm_median: {ms(statistics.median(warm))}")
    print(f"lsp_initialize_warm_p95: {ms(p95(warm))}")
    print(f"lsp_open_to_first_diagnostics: {ms(first_lint)} (worker start included)")
    print(f"lsp_definition: {DEFINITION.name}, {len(DEFINITION.read_text().splitlines())} lines; "
          f"debounce {DEBOUNCE_SECONDS * 1000:.0f} ms subtracted")
    for name, values in samples.items():
        print(f"lsp_change_to_diagnostics[{name}]: median {ms(statistics.median(values))}, "
              f"p95 {ms(p95(values))}")
    every = [v for values in samples.values() for v in values]
    print(f"lsp_change_to_diagnostics_median: {ms(statistics.median(every))}")
    print(f"lsp_change_to_diagnostics_p95: {ms(p95(every))} ({len(every)} edits)")
    print(f"TABLE|language server: initialize answered: warm median {ms(statistics.median(warm))}, p95 "
          f"{ms(p95(warm))}; cold (no bytecode) median {ms(statistics.median(cold))} (goal <= 500 ms; load "
          f"{load:.1f} on {os.cpu_count()} CPUs)")
    print(f"TABLE|language server, change -> diagnostics p95 after the debounce: {ms(p95(every))} (goal <= "
          f"20 ms; median {ms(statistics.median(every))}; unknown fields added and removed in "
          f"{DEFINITION.name}; load {load:.1f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
