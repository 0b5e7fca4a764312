"""Bounded reads: every file and stream the tool reads comes through here.

Only regular files are read, or standard input; both in chunks up to a size cap, so a device (``/dev/zero``),
a FIFO with no writer or a file that grows while read never hangs the tool or fills its memory. A file that
cannot be read is an ``InputError`` with one line: the path, then the reason.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

MAX_FILE_BYTES = 20 * 1024 * 1024
CHUNK_BYTES = 1 << 20
_MB = 1024 * 1024
# Non-blocking: a FIFO put in place of a checked file opens at once instead of waiting for a writer.
_OPEN_FLAGS = os.O_RDONLY
for _flag in ("O_NONBLOCK", "O_NOCTTY", "O_CLOEXEC", "O_BINARY"):  # each where the platform has it
    _OPEN_FLAGS |= getattr(os, _flag, 0)


class InputError(Exception):
    """A file that cannot be read (missing, special, binary, not UTF-8, too large): one line, exit 2."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a directory"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a regular file (`-` reads standard input)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def _too_large(limit: int) -> str:
    return f"over the {limit // _MB} MB limit"


def _cannot_read(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    return f"cannot read ({exc.strerror or exc})"


def read_bytes(path: str | Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or InputError."""
    name = str(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputError(name, _cannot_read(exc)) from None
    except ValueError:  # a NUL byte in the name
        raise InputError(name, "invalid file name") from None
    if not stat.S_ISREG(mode):  # refused before opening: opening a device or FIFO can block or act
        raise InputError(name, _kind(mode))
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise InputError(name, _cannot_read(exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped for something else since the check above
            raise InputError(name, _kind(info.st_mode))
        if info.st_size > limit:
            raise InputError(name, f"file is {info.st_size // _MB} MB, {_too_large(limit)}")
        with os.fdopen(fd, "rb", closefd=False) as stream:
            return _read_capped(stream, name, limit)
    except OSError as exc:
        raise InputError(name, _cannot_read(exc)) from None
    finally:
        os.close(fd)


def _read_capped(stream: BinaryIO, name: str, limit: int) -> bytes:
    """Read to the end in chunks, stopping one byte past ``limit`` (the file may grow while read)."""
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = stream.read(min(CHUNK_BYTES, limit + 1 - total))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise InputError(name, f"input is {_too_large(limit)}")


def read_stdin(name: str = "<stdin>", limit: int = MAX_FILE_BYTES) -> bytes:
    """Standard input up to ``limit`` bytes (it may be a terminal, a pipe or a device: all read in chunks)."""
    stream = sys.stdin.buffer if sys.stdin is not None else None
    if stream is None:
        raise InputError(name, "standard input is closed")
    try:
        return _read_capped(stream, name, limit)
    except OSError as exc:
        raise InputError(name, _cannot_read(exc)) from None


# The encodings YAML 1.2 allows a stream (section 5.2), told by a byte order mark; UTF-32's before UTF-16's,
# whose mark begins UTF-32 LE's. Without a mark a stream is UTF-8 (JSON's only encoding, RFC 8259).
BYTE_ORDER_MARKS = (
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32"), (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32"),
    (b"\xff\xfe", "utf-16-le", "UTF-16"), (b"\xfe\xff", "utf-16-be", "UTF-16"),
    (b"\xef\xbb\xbf", "utf-8", "UTF-8"),
)


def encoding_of(data: bytes) -> tuple[str, str, int]:
    """The codec, the name and the length of the byte order mark ``data`` starts with (UTF-8 without one)."""
    for mark, codec, name in BYTE_ORDER_MARKS:
        if data.startswith(mark):
            return codec, name, len(mark)
    return "utf-8", "UTF-8", 0


def decode_bytes(data: bytes, path: str) -> str:
    """The text of a stream in UTF-8, or in UTF-16 or UTF-32 with a byte order mark (the mark is dropped), or
    InputError for binary input or bytes that are not of their encoding."""
    if len(data) > MAX_FILE_BYTES:
        raise InputError(path, f"input is {_too_large(MAX_FILE_BYTES)}")
    codec, name, mark = encoding_of(data)
    if codec == "utf-8" and b"\x00" in data[:8192]:
        raise InputError(path, "binary file (contains NUL bytes), not YAML or JSON")
    try:
        return data[mark:].decode(codec)
    except UnicodeDecodeError as exc:
        bad = data[mark + exc.start : mark + exc.end][:4]
        raise InputError(path, f"not valid {name} (byte {mark + exc.start}: {bad!r})") from None


def read_path(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """A regular file as UTF-8 text, or InputError with a one-line reason."""
    return decode_bytes(read_bytes(path, limit), str(path))
