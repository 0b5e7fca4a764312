"""Files of the user cache: data only, in a directory only the user can write, never read or written through a
link.

A cache shared between CI jobs or restored from a CI cache is a way in for whoever wrote it, so what is read
back from it is held to this:

* A directory of the cache (from the user's wmaplint directory down) is used only when it is a directory (not
  a link to one) owned by the user and writable by no one else; otherwise the run goes on without the cache
  and says so in one line on standard error, once (``refused``). Directories the cache makes are made 0700.
* A record is a regular file (opened with ``O_NOFOLLOW | O_NONBLOCK``: a link, a FIFO or a device is no
  record) of at most ``MAX_RECORD_BYTES``, framed as ``wmaplint-cache <kind> <version> <sha256 of the
  payload>\\n<payload>``. A record of another kind or version, or whose payload does not hash to its
  digest, or that holds more than ``MAX_RECORD_VALUES`` values (which would take far more memory than
  bytes), is ignored and rebuilt (``-v`` says so, in one line). Payloads are JSON (or the framing its
  reader gives them); nothing in the cache is ever code.
* A record is written to a fresh temporary file made in its directory (``mkstemp``: ``O_EXCL``, a random
  name, so a planted ``.tmp`` link is never followed) and renamed over its place, which replaces a link
  there rather than writing through it.
* Eviction removes only regular files and links themselves (``lstat``), and only empty directories.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path

from wmaplint import memo

MAX_RECORD_BYTES = 32 * 1024 * 1024
# Values (counted by their separators and openings) a payload may hold: the largest record of a real CRD (a
# 2 MB schema) holds about 100,000 and takes 23 bytes a value; a planted 28 MB record of one value in every
# three bytes took 800 MB to read. Past this it is not read.
MAX_RECORD_VALUES = 3_000_000
_MAGIC = b"wmaplint-cache"
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) \
    | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)

# directories already judged in this process: path -> why it is refused, or None
_JUDGED: dict[str, str | None] = memo.kept(__name__, "_JUDGED", {})
_SAID: set[str] = memo.kept(__name__, "_SAID", set())
# what was ignored in the cache (damaged or foreign records), for -v
notes: list[str] = memo.kept(__name__, "notes", [])


def _note(line: str) -> None:
    if line not in notes and len(notes) < 20:
        notes.append(line)


def _problem(path: Path, st: os.stat_result, own: bool) -> str | None:
    if not stat.S_ISDIR(st.st_mode):
        return "is a link or not a directory" if own else "is not a directory"
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        return f"is owned by another user (uid {st.st_uid})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"is writable by others (mode {stat.S_IMODE(st.st_mode):04o}; `chmod go-w {path}` fixes it)"
    return None


def refused(directory: Path, root: Path) -> str | None:
    """Why the cache directory ``directory`` (``root``, the user's wmaplint cache directory, or below it) is
    not used, or None; a directory that does not exist yet is fine (the cache makes it, 0700). The first
    refusal of a run is said once on standard error."""
    key = str(directory)
    if key in _JUDGED:
        return _JUDGED[key]
    problem: str | None = None
    chain = [directory]
    try:
        inside = directory.relative_to(root)
        chain = [root, *(root / Path(*inside.parts[: i + 1]) for i in range(len(inside.parts)))]
    except ValueError:
        pass
    for i, path in enumerate(chain):
        try:
            # the user's own directory may be a link the user made (~/.cache on another disk); below it, none
            st = os.stat(path) if i == 0 else os.lstat(path)
        except FileNotFoundError:
            break
        except OSError as exc:
            problem = f"cache directory {path} cannot be read ({exc.strerror or exc})"
            break
        reason = _problem(path, st, own=i > 0)
        if reason is not None:
            problem = f"cache directory {path} {reason}; the cache is not used"
            break
    _JUDGED[key] = problem
    if problem is not None and problem not in _SAID:
        _SAID.add(problem)
        try:
            sys.stderr.write(f"wmaplint: {problem}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
    return problem


def frame(kind: str, version: int, payload: bytes) -> bytes:
    digest = hashlib.sha256(payload).hexdigest()
    return b"%s %s %d %s\n" % (_MAGIC, kind.encode(), version, digest.encode()) + payload


def unframe(data: bytes, kind: str, version: int, name: str = "") -> bytes | None:
    """The payload of a framed record of ``kind`` and ``version`` whose digest holds; None otherwise."""
    head, newline, payload = data.partition(b"\n")
    parts = head.split(b" ")
    if not newline or len(parts) != 4 or parts[0] != _MAGIC:
        _note(f"cache record {name} is not a wmaplint cache record; ignored")
        return None
    if parts[1] != kind.encode() or parts[2] != str(version).encode():
        return None  # another version's record: rebuilt silently
    if hashlib.sha256(payload).hexdigest().encode() != parts[3]:
        _note(f"cache record {name} does not match its checksum; ignored and rebuilt")
        return None
    if payload.count(b",") + payload.count(b"[") + payload.count(b"{") > MAX_RECORD_VALUES:
        _note(f"cache record {name} holds more than {MAX_RECORD_VALUES:,} values; ignored and rebuilt")
        return None
    return payload


def read_file(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes | None:
    """The bytes of a cache file: a regular file, not a link, of at most ``limit`` bytes; None otherwise."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        return None  # missing, a link (ELOOP), or unreadable
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            _note(f"cache record {path.name} is not a regular file of at most {limit >> 20} MB; ignored")
            return None
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
        return None  # it grew past the cap while read
    except OSError:
        return None
    finally:
        os.close(fd)


def read_record(path: Path, kind: str, version: int, root: Path) -> bytes | None:
    """The payload of the record at ``path`` (see the module's rules), or None."""
    if refused(path.parent, root) is not None:
        return None
    data = read_file(path)
    return unframe(data, kind, version, path.name) if data is not None else None


def make_dirs(directory: Path, root: Path) -> bool:
    """Make ``directory`` and its missing parents below ``root`` (0700); whether it is usable."""
    if refused(directory, root) is not None:
        return False
    missing = [directory, *directory.parents]
    missing = missing[: next((i for i, p in enumerate(missing) if p.exists()), len(missing))]
    try:
        for path in reversed(missing):  # each level 0700 (``mkdir(parents=True)`` makes parents 0777 - umask)
            path.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return False
    _JUDGED.pop(str(directory), None)
    return refused(directory, root) is None


def write_file(target: Path, data: bytes, root: Path) -> bool:
    """Write ``data`` whole at ``target`` (a temporary file of its own, renamed over it); whether it was."""
    import tempfile  # only when an entry is written, not on every read

    if not make_dirs(target.parent, root):
        return False
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-")
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, target)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False  # a read-only or full cache only costs speed


def write_record(target: Path, kind: str, version: int, payload: bytes, root: Path) -> bool:
    return write_file(target, frame(kind, version, payload), root)


def entries(directory: Path) -> list[tuple[Path, os.stat_result]]:
    """The entries of a cache directory as they are (``lstat``: a link is a link, never its target)."""
    out = []
    try:
        with os.scandir(directory) as found:
            for entry in found:
                try:
                    out.append((Path(entry.path), entry.stat(follow_symlinks=False)))
                except OSError:
                    continue
    except OSError:
        return []
    return out


def remove(path: Path, st: os.stat_result) -> None:
    """Remove one cache entry: a file or a link is unlinked (a link's target is untouched), a directory only
    when it is empty."""
    try:
        if stat.S_ISDIR(st.st_mode):
            os.rmdir(path)
        else:
            os.unlink(path)
    except OSError:
        pass


def discard(path: Path, why: str) -> None:
    """Remove a record found unusable only once read (so the next run rebuilds it), and say so under -v."""
    _note(f"cache record {path.name} {why}; ignored and rebuilt")
    try:
        if not stat.S_ISDIR(os.lstat(path).st_mode):
            os.unlink(path)
    except OSError:
        pass


def forget() -> None:
    """Forget the directories judged (for tests and long-lived servers, whose cache may change hands)."""
    _JUDGED.clear()
