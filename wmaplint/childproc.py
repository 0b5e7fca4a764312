"""What wmaplint's own child processes share (the jq worker of `tree` and `test`, the language server's lint
worker, the children forked for work on another CPU): ending with the process that started them; the
language server's watch of its editor's process, which it ends with; how many CPUs are idle, and one
computation run apart in a forked child, its result read back.

A forked child starts with everything the parent has loaded (modules, schemas, rule packs, the documents
read), where a spawned one would import and load it all again (about 0.3 s of CPU, as much as it saves on
two cores). Only Linux forks a warm process safely; elsewhere, and where threads run (a fork copies only
the thread that calls it, with whatever locks the others held), the work is done in this process.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Have the kernel kill this process when ``parent`` dies (Linux); elsewhere a worker ends when it reads
    end-of-file from its parent. ``parent`` 0: not known, only the kernel's watch is set up."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if parent and os.getppid() != parent:
        os._exit(0)  # the parent died before the kernel was told to tell us


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # exists (another user's), or beyond what this system numbers: nothing to watch
    return True


T = TypeVar("T")


def busy_elsewhere(loadavg: str = "/proc/loadavg") -> float | None:
    """How many other processes want a CPU now: the kernel's count of runnable tasks less this one. (The
    1-minute load average, the fallback, still counts this tool's own previous runs: checks run back to back
    would never see the idle core.)"""
    try:
        with open(loadavg, encoding="ascii") as handle:
            running = int(handle.read().split()[3].split("/")[0])
        return float(max(0, running - 1))
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def can_fork() -> bool:
    """Whether a warm child can be forked here: Linux, and no other thread running."""
    return sys.platform == "linux" and hasattr(os, "fork") and threading.active_count() == 1


def idle_cpus() -> int:
    """The CPUs this process may use that no other process wants now (at least 1: this one); 1 where a warm
    child cannot be forked. On a busy machine a second process only competes for the same cores, and was
    slower than one."""
    if not can_fork():
        return 1
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    busy = busy_elsewhere()
    idle = cpus - busy if busy is not None else 1.0
    return max(1, int(idle + 0.5))


class Apart(Generic[T]):
    """``work()`` run in a forked child while this process goes on; ``result()`` is its value. Where the
    child cannot be forked, or ends without a value (killed, out of memory, an exception), ``result()`` runs
    ``work()`` here: the value is the same either way, only where it was computed differs. ``work`` must
    leave this process's state as it found it (the child's changes are lost), and its value pickle."""

    def __init__(self, work: Callable[[], T], *, fork: bool = True) -> None:
        self._work = work
        self._pid = 0
        self._read = -1
        if not (fork and can_fork()):
            return
        import pickle
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            return
        if pid == 0:  # the child: its value down the pipe, then out without the parent's exit handlers
            status = 1
            try:
                os.close(read)
                data = pickle.dumps(work(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as out:
                    out.write(data)
                status = 0
            finally:
                os._exit(status)
        os.close(write)
        self._pid, self._read = pid, read

    def result(self) -> T:
        if not self._pid:
            return self._work()
        chunks: list[bytes] = []
        with os.fdopen(self._read, "rb") as pipe:
            while chunk := pipe.read(1 << 16):
                chunks.append(chunk)
        _, status = os.waitpid(self._pid, 0)
        self._pid = 0
        if os.waitstatus_to_exitcode(status) == 0:
            import pickle

            try:
                value: T = pickle.loads(b"".join(chunks))
            except Exception:  # a value cut short: computed here instead
                return self._work()
            return value
        return self._work()

    def cancel(self) -> None:
        """End the child without its value (the parent stopped before it needed it)."""
        if self._pid:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except OSError:
                pass
            os.waitpid(self._pid, 0)
            os.close(self._read)
            self._pid = 0
