"""JSON-RPC 2.0 in LSP base-protocol frames (``Content-Length`` headers): bounded reads, classified messages.

Standard library only: the server answers ``initialize`` before anything heavy is imported. A frame that
cannot be read is skipped (the reader resynchronises at the next header, even one that a lying Content-Length
put inside a body or after leftover bytes) and answered with an error where JSON-RPC allows one; nothing here
raises for what a client sends.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from json.decoder import JSONArray, JSONObject  # type: ignore[attr-defined]
from json.scanner import py_make_scanner  # type: ignore[attr-defined]
from typing import IO, Any

from wmaplint.dataclass import dataclass

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
# The values one message may hold: a document's text is one however long it is, and the largest message of a
# session (initialize, with the client's capabilities) holds a few thousand; bounded by bytes alone, 126 MB
# of `[]` took 3.2 GB to parse.
MAX_VALUES = 1_000_000
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


# A header that starts a frame, where a body should be: a Content-Length line is never valid JSON, so a body
# holding one was declared too long, and the next frame starts there.
_EMBEDDED_HEADER = re.compile(rb"content-length[ \t]*:[ \t]*\d{1,12}\r?\n", re.IGNORECASE)
_HEADER_START = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)
_HEADER_NAME = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an RFC 9110 token
_HEADER_HEAD = b"content-length:"
_HEADER_TAIL = re.compile(rb"[ \t]*\d{0,12}\r?")


class _Input:
    """The editor's stream with bytes pushed back: what resynchronisation read too far is read again."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.pending = b""
        self._read1 = getattr(stream, "read1", None)

    def readline(self, limit: int) -> bytes:
        if not self.pending:
            return self.stream.readline(limit)
        end = self.pending.find(b"\n", 0, limit)
        if end >= 0 or len(self.pending) >= limit:
            cut = end + 1 if end >= 0 else limit
            line, self.pending = self.pending[:cut], self.pending[cut:]
            return line
        line, self.pending = self.pending, b""
        return line + self.stream.readline(limit - len(line))

    def read_some(self, most: int) -> bytes:
        """At least one byte (none at the end of the stream), at most ``most``, without waiting for more
        than the stream has ready."""
        if self.pending:
            part, self.pending = self.pending[:most], self.pending[most:]
            return part
        return self._read1(most) if self._read1 is not None else self.stream.read(most)

    def unread(self, data: bytes) -> None:
        self.pending = data + self.pending


def read_frames(stream: IO[bytes]) -> Iterator[bytes | Rejected]:
    """Message bodies until the end of the stream; frames that cannot be read come out as `Rejected`.

    A frame whose Content-Length lies costs that frame only: bytes before a header are skipped (a body longer
    than declared leaves its tail there), and a body declared longer than it is ends where the next header
    starts (`_EMBEDDED_HEADER`)."""
    source = _Input(stream)
    while True:
        length: int | None = None
        problem: str | None = None
        seen = 0
        while True:
            line = source.readline(MAX_HEADER_BYTES + 1)
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
            if name.strip().lower() != b"content-length":
                start = _HEADER_START.search(line)
                if start is not None and start.start() > 0:  # a header glued to leftovers of a body
                    name, colon, value = line[start.start():].partition(b":")
                elif not (colon and _HEADER_NAME.fullmatch(name.strip())):
                    continue  # not a header: skipped (a block of nothing else is answered below)
            if name.strip().lower() == b"content-length":
                try:
                    length = int(value.strip()) if len(value.strip()) <= 12 else -1
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
            if not _skip(source, length):
                return
            yield Rejected(None, INVALID_REQUEST, f"message of {length} bytes is over the "
                           f"{MAX_CONTENT_BYTES // (1024 * 1024)} MB limit")
            continue
        try:
            body = _read_body(source, length)
        except MemoryError:  # what was read is freed as this unwinds; the rest is skipped to the next header
            yield Rejected(None, INTERNAL_ERROR, "out of memory reading a message")
            continue
        if body is None:
            return
        yield body


def _read_body(source: _Input, length: int) -> bytes | None:
    """``length`` bytes, or fewer when the next frame's header turns up inside them (pushed back)."""
    data = bytearray()
    while len(data) < length:
        part = source.read_some(min(length - len(data), _CHUNK))
        if not part:
            return bytes(data) if data else None
        scan_from = max(0, len(data) - 64)
        data += part
        embedded = _EMBEDDED_HEADER.search(data, scan_from)
        if embedded is not None:
            source.unread(bytes(data[embedded.start():]))
            return bytes(data[:embedded.start()])
    # A body declared a little too long ends in the first bytes of the next header ("...}Content-Le", maybe
    # after a line of junk): give them back, so the next frame is read whole.
    end = data.rfind(b"}") + 1
    if 0 < end < len(data) and _header_prefix(bytes(data[end:]).rsplit(b"\n", 1)[-1]):
        source.unread(bytes(data[end:]))
        del data[end:]
    return bytes(data)


def _header_prefix(tail: bytes) -> bool:
    """Whether ``tail`` is the start of a Content-Length header line (after blank lines, which the header
    reader skips)."""
    lowered = tail.lstrip(b" \t\r\n").lower()
    if not lowered:
        return False
    if _HEADER_HEAD.startswith(lowered):
        return True
    rest = lowered[len(_HEADER_HEAD):]
    return lowered.startswith(_HEADER_HEAD) and _HEADER_TAIL.fullmatch(rest) is not None


def _skip(source: _Input, length: int) -> bool:
    left = length
    while left > 0:
        part = source.read_some(min(left, _CHUNK))
        if not part:
            return False
        left -= len(part)
    return True


def parse(body: bytes, most: int = MAX_VALUES) -> Message | Rejected | None:
    """A message, an error to answer, or None for something to ignore (a malformed notification). A message
    of more than ``most`` values is not read: its error names the id found before its first nested value."""
    try:
        data = json.loads(body) if len(body) <= most else _counted(body, most)
    except _TooMany:
        return Rejected(id_of(body), INVALID_REQUEST, f"a message of more than {most:,} values; not read")
    except MemoryError:  # what was parsed is freed as this unwinds
        return Rejected(id_of(body), INTERNAL_ERROR, "out of memory reading the message")
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


class _TooMany(Exception):
    pass


def _counted(body: bytes, most: int) -> Any:
    """``json.loads(body)``, counting the values inside arrays and objects as they are parsed: past ``most``,
    ``_TooMany``. The standard library's scanner in Python, with its strings read in C (a long text costs
    what it costs ``json.loads``), and used only for a body longer than ``most`` bytes, which alone may hold
    that many values."""
    left = most

    def counting(scan_once: Any) -> Any:
        def scan(string: str, index: int) -> Any:
            nonlocal left
            left -= 1
            if left < 0:
                raise _TooMany
            return scan_once(string, index)

        return scan

    decoder = json.JSONDecoder()
    decoder.parse_array = lambda start, scan_once: JSONArray(start, counting(scan_once))  # type: ignore[attr-defined]
    decoder.parse_object = (  # type: ignore[attr-defined]
        lambda start, strict, scan_once, *rest: JSONObject(start, strict, counting(scan_once), *rest))
    decoder.scan_once = py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder.decode(body.decode(json.detect_encoding(body), "surrogatepass"))


_ID = re.compile(rb'"id"[ \t\r\n]*:[ \t\r\n]*(-?[0-9]{1,18}|"(?:[^"\\]|\\.){0,200}")')


def id_of(body: bytes) -> Id | None:
    """The id of a message too large to read, when it stands before the first nested value (as clients write
    them: jsonrpc, id, method, then params), else None."""
    start = body.find(b"{")
    if start < 0:
        return None
    head = start + 4096
    nested = [i for i in (body.find(b"{", start + 1, head), body.find(b"[", start + 1, head)) if i > 0]
    found = _ID.search(body, start, min(nested, default=head))
    if found is None:
        return None
    try:
        value = json.loads(found.group(1))
    except ValueError:
        return None
    return value if isinstance(value, (int, str)) else None


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
