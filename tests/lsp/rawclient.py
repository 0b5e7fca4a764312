"""A bare LSP client over the server's stdio, for what pytest-lsp cannot send: malformed frames, bad params,
bursts. It reads every message the server writes on a thread and lets a test wait for one."""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from wmaplint.lsp import rpc

Predicate = Callable[[dict[str, Any]], bool]


class RawClient:
    def __init__(self, *args: str, stderr_path: Path | None = None,
                 env: dict[str, str] | None = None) -> None:
        self._stderr = open(stderr_path, "wb") if stderr_path is not None else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "wmaplint", "lsp", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, env=env or dict(os.environ),
        )
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for item in rpc.read_frames(self.proc.stdout):
            if isinstance(item, bytes):
                self.messages.put(json.loads(item))
        self.messages.put(None)

    # -- sending ----------------------------------------------------------------------------------

    def send_bytes(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message: dict[str, Any]) -> None:
        self.send_bytes(rpc.encode(message))

    def request(self, method: str, params: Any = None, msg_id: Any = None) -> Any:
        msg_id = next(self._ids) if msg_id is None else msg_id
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return msg_id

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    # -- waiting ----------------------------------------------------------------------------------

    def wait_for(self, predicate: Predicate, timeout: float = 30.0) -> dict[str, Any]:
        for message in self.seen:
            if predicate(message):
                self.seen.remove(message)
                return message
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the server sent no such message in time")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise AssertionError("the server closed its output")
            if predicate(message):
                return message
            self.seen.append(message)

    def response(self, msg_id: Any, timeout: float = 30.0) -> dict[str, Any]:
        return self.wait_for(lambda m: "method" not in m and m.get("id") == msg_id, timeout)

    def call(self, method: str, params: Any = None, timeout: float = 30.0) -> dict[str, Any]:
        return self.response(self.request(method, params), timeout)

    def diagnostics(self, uri: str, version: int | None = None,
                    timeout: float = 30.0) -> list[dict[str, Any]]:
        def wanted(m: dict[str, Any]) -> bool:
            if m.get("method") != "textDocument/publishDiagnostics" or m["params"]["uri"] != uri:
                return False
            return version is None or m["params"].get("version") == version

        return self.wait_for(wanted, timeout)["params"]["diagnostics"]

    # -- documents --------------------------------------------------------------------------------

    def initialize(self) -> dict[str, Any]:
        reply = self.call("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.notify("initialized", {})
        return reply

    def open(self, uri: str, text: str, version: int = 1, language: str = "yaml") -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": language,
                                                              "version": version, "text": text}})

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})

    def close(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def stop(self) -> int:
        try:
            self.call("shutdown", timeout=10)
            self.notify("exit")
            return self.proc.wait(timeout=10)
        except (AssertionError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            return self.proc.wait()
        finally:
            if self._stderr is not subprocess.DEVNULL:
                self._stderr.close()
