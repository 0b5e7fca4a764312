"""Every file wmaplint writes, written in its place: the one writer of `--fix`, `test --update`, `--output`.

A regular file is replaced through a temporary file in its own directory (synced to disk before the rename,
the directory synced after it), with the file's mode and owner kept; a new file gets the mode a plain
``open`` would give it. Nothing here follows a symbolic link unless the caller resolved it on the user's
word, and nothing replaces what is not a regular file: `output_target` tells the caller what an ``--output``
name is (a file to replace, a device or pipe to write into, an open descriptor) before anything is written.

A run killed mid-write leaves a temporary file named ``.wmaplint-write-<pid>-*.tmp``: the next write in that
directory removes those whose process is gone, and walks never read them (they are hidden).
"""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
import tempfile

from wmaplint.dataclass import dataclass

TEMP_PREFIX = ".wmaplint-write-"
TEMP_SUFFIX = ".tmp"
# The system's names of descriptors this process already has open: writing to one writes into the descriptor.
_OPEN_DESCRIPTOR = re.compile(
    r"/(?:dev/(?:fd/(?P<fd>\d+)|(?P<std>stdout|stderr))|proc/self/fd/(?P<proc>\d+))")


class WriteError(Exception):
    """A file that is not written: one line saying why."""


def replace_file(target: str, data: bytes, *, shown: str, refusal: str) -> None:
    """Replace (or create) the regular file ``target`` by ``data``, whole or not at all. ``shown`` names it in
    messages, ``refusal`` ends them ("not fixed", "nothing written"); WriteError when it cannot be."""
    try:
        info: os.stat_result | None = os.lstat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise WriteError(f"{shown}: {exc.strerror or exc}; {refusal}") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise WriteError(f"{shown}: not a regular file; {refusal}")
    directory = os.path.dirname(target) or "."
    sweep_temporary_files(directory)
    try:
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=f"{TEMP_PREFIX}{os.getpid()}-",
                                         suffix=TEMP_SUFFIX)
    except OSError as exc:
        raise WriteError(f"{shown}: cannot write beside it ({exc.strerror or exc}); {refusal}") from None
    try:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                if info is not None and (info.st_uid, info.st_gid) != _owner(handle.fileno()):
                    os.fchown(handle.fileno(), info.st_uid, info.st_gid)
                # after chown, which clears the set-id bits
                os.fchmod(handle.fileno(), stat.S_IMODE(info.st_mode) if info is not None else _new_mode())
                os.fsync(handle.fileno())
        except PermissionError:
            raise WriteError(f"{shown}: its owner could not be kept; {refusal}") from None
        os.replace(temporary, target)
    except BaseException as exc:
        _remove(temporary)
        if isinstance(exc, OSError):
            raise WriteError(f"{shown}: cannot replace it ({exc.strerror or exc}); {refusal}") from None
        raise
    _sync_directory(directory)


def _new_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


@dataclass(frozen=True)
class OutputTarget:
    """Where an ``--output`` goes: ``path`` a regular file to replace (or create), or ``fd`` a descriptor open
    for writing (a device, a pipe, standard output), written into and left open only when ``borrowed``."""

    shown: str  # how messages name it: "--output sarif=FILE"
    name: str  # the name the user gave
    path: str | None = None
    fd: int | None = None
    borrowed: bool = False
    identity: tuple[int, int] | None = None  # (st_dev, st_ino) of an existing regular file


REFUSED = "nothing written"


def _lstat(shown: str, path: str) -> os.stat_result | None:
    """What stands at ``path`` itself (a link is not followed), None when nothing does."""
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise WriteError(f"{shown}: {exc.strerror or exc}; {REFUSED}") from None


def output_target(name: str, *, shown: str, follow_symlinks: bool,
                  link_hint: str = " (--follow-symlinks writes to its target)") -> OutputTarget:
    """Decide how to write ``name``; WriteError (one line) for a link not to be followed, a directory, a
    block device, a pipe no one reads. A device or pipe is opened here (a refusal comes before any write).
    ``link_hint`` ends the refusal of a link: how this command follows one, if it can."""
    match = _OPEN_DESCRIPTOR.fullmatch(name)
    if match is not None:
        fd = int(match["fd"] or match["proc"]) if not match["std"] else (1 if match["std"] == "stdout" else 2)
        try:
            os.fstat(fd)
        except OSError:
            raise WriteError(f"{shown}: descriptor {fd} is not open; {REFUSED}") from None
        return OutputTarget(shown, name, fd=fd, borrowed=True)
    path = name
    info = _lstat(shown, path)
    if info is not None and stat.S_ISLNK(info.st_mode):
        if not follow_symlinks:
            raise WriteError(f"{shown}: is a symbolic link; {REFUSED}{link_hint}")
        path = os.path.realpath(name)
        info = _lstat(shown, path)
    if info is None:
        return OutputTarget(shown, name, path=path)  # a new file
    mode = info.st_mode
    if stat.S_ISREG(mode):
        return OutputTarget(shown, name, path=path, identity=(info.st_dev, info.st_ino))
    if stat.S_ISDIR(mode):
        raise WriteError(f"{shown}: is a directory; {REFUSED}")
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return OutputTarget(shown, name, fd=_open_for_writing(path, shown, stat.S_ISFIFO(mode)))
    kind = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file"
    raise WriteError(f"{shown}: is {kind}; {REFUSED}")


def _open_for_writing(path: str, shown: str, fifo: bool) -> int:
    # Non-blocking open: a pipe that no process reads is an error now, not a run that never ends.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        if fifo and exc.errno == errno.ENXIO:
            raise WriteError(f"{shown}: no process reads this pipe; {REFUSED}") from None
        raise WriteError(f"{shown}: cannot open it for writing ({exc.strerror or exc}); {REFUSED}") from None
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags & ~os.O_NONBLOCK)
    return fd


def write_target(target: OutputTarget, data: bytes) -> None:
    """Write ``data`` to a target `output_target` made; WriteError when it cannot be."""
    if target.path is not None:
        replace_file(target.path, data, shown=target.shown, refusal=REFUSED)
        return
    assert target.fd is not None
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(target.fd, view):]
    except OSError as exc:
        raise WriteError(f"{target.shown}: cannot write ({exc.strerror or exc})") from None
    finally:
        if not target.borrowed:
            os.close(target.fd)


def refuse_inputs(target: OutputTarget, inputs: list[str]) -> None:
    """WriteError when the file ``target`` would replace is one of ``inputs``, by resolved name or by device
    and inode (another name of the same file): an input of a run is never its output."""
    if target.path is None:
        return
    names = {os.path.realpath(p) for p in inputs if p != "-"}
    identities = {identity(p) for p in inputs if p != "-"} - {None}
    same_file = target.identity is not None and target.identity in identities
    if os.path.realpath(target.path) in names or same_file:
        raise WriteError(f"{target.shown}: {target.name} is an input of this run; {REFUSED}")


def identity(path: str) -> tuple[int, int] | None:
    """The device and inode of the file ``path`` names (links followed), or None when there is none."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def _owner(fd: int) -> tuple[int, int]:
    info = os.fstat(fd)
    return info.st_uid, info.st_gid


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_directory(directory: str) -> None:
    """Make the rename itself durable (best effort: not every file system lets a directory be synced)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sweep_temporary_files(directory: str) -> list[str]:
    """Remove the temporary files of runs that died before renaming them; returns their names."""
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    removed = []
    for name in names:
        if not (name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX)):
            continue
        pid = name[len(TEMP_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            _remove(os.path.join(directory, name))
            removed.append(name)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, owned by someone else
    return True
