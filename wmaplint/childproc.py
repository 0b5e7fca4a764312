"""What wmaplint's own child processes share (the jq worker of `tree` and `test`, the language server's lint
worker): ending with the process that started them; and the language server's watch of its editor's
process, which it ends with."""

from __future__ import annotations

import os
import signal
import sys

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
