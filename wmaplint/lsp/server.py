"""`wmaplint lsp`: start the language server and answer ``initialize`` before anything else is imported.

Until ``initialize`` is answered this process holds only the standard library and the framing code (the
launcher starts it without the command-line library, ``wmaplint.launch``);
then it starts the lint worker (which imports the engine meanwhile) and hands the stream to the session
(`session.py`). Positions are UTF-16 code units whatever the client offers (every client supports them).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import IO, Any

from wmaplint import __version__
from wmaplint.childproc import process_alive
from wmaplint.lsp import rpc

DEBOUNCE_SECONDS = 0.15
LINT_TIMEOUT_SECONDS = 10.0

CAPABILITIES: dict[str, Any] = {
    "positionEncoding": "utf-16",
    "textDocumentSync": {"openClose": True, "change": 2, "save": True},  # 2: incremental
    "hoverProvider": True,
    "completionProvider": {"triggerCharacters": [" ", "."]},
    "definitionProvider": True,
    "documentSymbolProvider": True,
    "codeActionProvider": {"codeActionKinds": ["quickfix"]},
}


def initialize(frames: Iterator[bytes | rpc.Rejected], output: rpc.Output) -> int | bool:
    """Answer messages until ``initialize`` is answered (the client's process id to watch, or True when it
    gave none) or the editor leaves first (False)."""
    for item in frames:
        message = rpc.parse(item) if isinstance(item, bytes) else item
        if isinstance(message, rpc.Rejected):
            output.send(rpc.error(message.id, message.code, message.message))
        elif message is None or message.method is None:
            continue
        elif message.is_request and message.method == "initialize":
            info = {"name": "wmaplint", "version": __version__}
            if not output.send(rpc.response(message.id, {"capabilities": CAPABILITIES, "serverInfo": info})):
                return False
            return _client_process(message.params) or True
        elif message.is_request:
            output.send(rpc.error(message.id, rpc.SERVER_NOT_INITIALIZED, "initialize first"))
        elif message.method == "exit":
            return False
    return False


def run(stdin: IO[bytes], stdout: IO[bytes], debounce: float = DEBOUNCE_SECONDS,
        lint_timeout: float = LINT_TIMEOUT_SECONDS) -> int:
    """Serve one editor on a pair of streams; the exit code (0 after shutdown and exit)."""
    frames = rpc.read_frames(stdin)
    output = rpc.Output(stdout)
    started = initialize(frames, output)
    if not started:
        return 1
    import asyncio
    import logging

    from wmaplint.lsp.session import Session

    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    session = Session(output, debounce, lint_timeout)
    client = started if started is not True else None
    # Not asyncio.run: its teardown waits for every task still running, and the process ends right after
    # this returns (exit_now), its worker with it; a session that ended must not wait on anything.
    loop = asyncio.new_event_loop()
    return loop.run_until_complete(session.serve(frames, client_process=client))


def _client_process(params: object) -> int | None:
    """The ``processId`` of initialize, when it names a process this server can see (a client in another
    pid namespace names one it cannot: no watch then)."""
    pid = params.get("processId") if isinstance(params, dict) else None
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0 or pid == os.getpid():
        return None
    return pid if process_alive(pid) else None


def serve(tcp: bool = False, host: str = "127.0.0.1", port: int = 2087,
          lint_timeout: float = LINT_TIMEOUT_SECONDS) -> int:
    """Serve one editor on stdio, or on the first TCP connection to ``host:port``; the exit code."""
    if tcp:
        import socket

        if not _loopback(host):
            sys.stderr.write(f"wmaplint: lsp: listening on {host}:{port}, reachable from other hosts; the "
                             "server trusts whoever connects first (default: 127.0.0.1)\n")
            sys.stderr.flush()
        with socket.create_server((host, port)) as listener:
            connection, _ = listener.accept()
        with connection, connection.makefile("rb") as reader, connection.makefile("wb") as writer:
            return run(reader, writer, lint_timeout=lint_timeout)
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to the log, not to the editor
    sys.stdout = sys.stderr
    return run(sys.stdin.buffer, stdout, lint_timeout=lint_timeout)


def _loopback(host: str) -> bool:
    import ipaddress

    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: whatever it resolves to, it is not known to be this machine only


def exit_now(code: int) -> None:
    """End the process: the reader thread may still wait on the editor's stream, so do not wait for it."""
    sys.stderr.flush()
    os._exit(code)
