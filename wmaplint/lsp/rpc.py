"""JSON-RPC 2.0 in LSP base-protocol frames (``Content-Length`` headers): bounded reads, classified messages.

Standard library only: the server answers ``initialize`` before anything heavy is imported. A frame that
cannot be read is skipped (the reader resynchronises at the next header block) and answered with an error
where JSON-RPC allows one; nothing here raises for what a client sends.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import IO, Any

from wmaplint.structs import dataclass

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002
REQUEST_FAILED = -32803
REQUEST_CANCELLED = -32800

MAX_HEADER_BYTES = 8 * 1024
# The largest document wmaplint reads is 20 MB; JSON escaping may grow it (\uXXXX for non-ASCII text).
MAX_CONTENT_BYTES = 128 * 1024 * 1024
_CHUNK = 1024 * 1024

Id = int | str


@dataclass(frozen=True, slots=True)
class Message:
    """A request (``id`` set), a notification (``id`` None) or a client's response (``method`` None)."""

    method: str | None
    id: Id | None
    params: Any
    is_request: bool


@dataclass(frozen=True, slots=True)
class Rejected:
    """A frame or message that gets an error response (``id`` None when the request's id is unknown)."""

    id: Id | None
    code: int
    message: str


def read_frames(stream: IO[bytes]) -> Iterator[bytes | Rejected]:
    """Message bodies until the end of the stream; frames that cannot be read come out as `Rejected`."""
    while True:
        length: int | None = None
        problem: str | None = None
        seen = 0
        while True:
            line = stream.readline(MAX_HEADER_BYTES + 1)
            if not line:
                return
            seen += len(line)
            if seen > MAX_HEADER_BYTES:
                problem = problem or f"frame header over {MAX_HEADER_BYTES} bytes"
                seen = 0  # keep skipping until a blank line ends the block
                continue
            if not line.strip():
                if length is None and problem is None and seen == len(line):
                    seen = 0
                    continue  # stray blank line between frames
                break
            name, colon, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                try:
                    length = int(value.strip()) if colon and len(value.strip()) <= 12 else -1
                except ValueError:
                    length = -1
                if length < 0:
                    problem = problem or "Content-Length is not a number"
        if problem is None and length is None:
            problem = "frame without Content-Length"
        if problem is not None:
            yield Rejected(None, PARSE_ERROR, problem)
            continue
        assert length is not None
        if length > MAX_CONTENT_BYTES:
            if not _skip(stream, length):
                return
            yield Rejected(None, INVALID_REQUEST, f"message of {length} bytes is over the "
                           f"{MAX_CONTENT_BYTES // (1024 * 1024)} MB limit")
            continue
        body = _read_exactly(stream, length)
        if body is None:
            return
        yield body


def _read_exactly(stream: IO[bytes], length: int) -> bytes | None:
    parts = []
    left = length
    while left > 0:
        part = stream.read(min(left, _CHUNK))
        if not part:
            return None
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _skip(stream: IO[bytes], length: int) -> bool:
    left = length
    while left > 0:
        part = stream.read(min(left, _CHUNK))
        if not part:
            return False
        left -= len(part)
    return True


def parse(body: bytes) -> Message | Rejected | None:
    """A message, an error to answer, or None for something to ignore (a malformed notification)."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:  # invalid UTF-8 or JSON, nesting or numbers beyond limits
        return Rejected(None, PARSE_ERROR, f"not JSON: {_short(exc)}")
    if not isinstance(data, dict):
        return Rejected(None, INVALID_REQUEST, "a message must be a JSON object")
    has_id = "id" in data and data["id"] is not None
    raw_id = data.get("id")
    valid_id = isinstance(raw_id, str) or (isinstance(raw_id, int) and not isinstance(raw_id, bool))
    msg_id: Id | None = raw_id if valid_id else None
    if has_id and not valid_id:
        return Rejected(None, INVALID_REQUEST, "id must be a number or a string")
    if "method" not in data:
        if has_id and ("result" in data or "error" in data):
            return Message(None, msg_id, None, False)  # a response to a request of ours
        return Rejected(msg_id, INVALID_REQUEST, "a message needs a method") if has_id else None
    method = data["method"]
    if not isinstance(method, str):
        return Rejected(msg_id, INVALID_REQUEST, "method must be a string") if has_id else None
    params = data.get("params")
    if params is not None and not isinstance(params, (dict, list)):
        return Rejected(msg_id, INVALID_PARAMS, "params must be an object or an array") if has_id else None
    return Message(method, msg_id, params, has_id)


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]


def encode(message: dict[str, Any]) -> bytes:
    """One frame. ASCII JSON: a lone surrogate from a client's text cannot break the encoding."""
    body = json.dumps(message, separators=(",", ":")).encode("ascii")
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def response(msg_id: Id | None, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "result": result}


def error(msg_id: Id | None, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def notification(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


class Output:
    """The editor's end of the channel; writes from any thread, one whole frame at a time."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self._lock = threading.Lock()

    def send(self, message: dict[str, Any]) -> bool:
        """Write one message; False when the editor can no longer be reached."""
        data = encode(message)
        with self._lock:
            try:
                self.stream.write(data)
                self.stream.flush()
            except (OSError, ValueError):
                return False
        return True
