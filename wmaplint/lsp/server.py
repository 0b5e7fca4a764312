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


def initialize(frames: Iterator[bytes | rpc.Rejected], output: rpc.Output) -> bool:
    """Answer messages until ``initialize`` is answered (True) or the editor leaves first (False)."""
    for item in frames:
        message = rpc.parse(item) if isinstance(item, bytes) else item
        if isinstance(message, rpc.Rejected):
            output.send(rpc.error(message.id, message.code, message.message))
        elif message is None or message.method is None:
            continue
        elif message.is_request and message.method == "initialize":
            info = {"name": "wmaplint", "version": __version__}
            return output.send(rpc.response(message.id, {"capabilities": CAPABILITIES, "serverInfo": info}))
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
    if not initialize(frames, output):
        return 1
    import asyncio
    import logging

    from wmaplint.lsp.session import Session

    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    session = Session(output, debounce, lint_timeout)
    return asyncio.run(session.serve(frames))


def serve(tcp: bool = False, host: str = "127.0.0.1", port: int = 2087,
          lint_timeout: float = LINT_TIMEOUT_SECONDS) -> int:
    """Serve one editor on stdio, or on the first TCP connection to ``host:port``; the exit code."""
    if tcp:
        import socket

        with socket.create_server((host, port)) as listener:
            connection, _ = listener.accept()
        with connection, connection.makefile("rb") as reader, connection.makefile("wb") as writer:
            return run(reader, writer, lint_timeout=lint_timeout)
    stdout = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print goes to the log, not to the editor
    sys.stdout = sys.stderr
    return run(sys.stdin.buffer, stdout, lint_timeout=lint_timeout)


def exit_now(code: int) -> None:
    """End the process: the reader thread may still wait on the editor's stream, so do not wait for it."""
    sys.stderr.flush()
    os._exit(code)
