"""Path options checked when the command line is parsed: a path the user names that cannot be read is one
line and exit 2, also when no definition of the run would have needed it (a `--crds ./typo` once passed
silently).

Only ``os.stat`` and ``os.access`` are used, never ``open``: a FIFO or a device named by mistake is refused
without blocking on it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import Any

import click

EXIT_USAGE = 2


class UnreadablePath(click.ClickException):
    """A path option that cannot be used: ``wmaplint: --crds ./typo: no such file or directory``, exit 2."""

    exit_code = EXIT_USAGE


def problem(path: str, accepts: str) -> str | None:
    """Why ``path`` cannot be read as ``accepts`` ("file", "file or directory", "directory"), or None.

    ``-`` (standard input) is not a path and is left to the command."""
    if path == "-":
        return None
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return "no such file or directory"
    except OSError as exc:  # a name too long, a loop of links, no permission on a parent
        return f"cannot read ({exc.strerror or exc})"
    if stat.S_ISDIR(mode):
        if "directory" not in accepts:
            return "is a directory, not a file"
        if not os.access(path, os.R_OK | os.X_OK):
            return "cannot read the directory (permission denied)"
        return None
    if not stat.S_ISREG(mode):
        return f"is not a regular {'file' if accepts == 'file' else accepts} (a device, FIFO or socket)"
    if accepts == "directory":
        return "is a file, not a directory"
    if not os.access(path, os.R_OK):
        return "cannot read (permission denied)"
    return None


def output_problem(path: str) -> str | None:
    """Why a file cannot be written at ``path`` (its directory is missing or not one), or None."""
    if os.path.isdir(path):
        return "is a directory"
    parent = os.path.dirname(path) or os.curdir
    if not os.path.isdir(parent):
        return f"cannot write: the directory {parent} does not exist"
    return None


def readable(accepts: str) -> Callable[[click.Context, click.Parameter, Any], Any]:
    """A click callback refusing, for an option that names paths to read, any that cannot be read."""

    def check(ctx: click.Context, param: click.Parameter, value: object) -> Any:
        values = value if isinstance(value, tuple) else (value,)
        for item in values:
            if item is None:
                continue
            reason = problem(str(item), accepts)
            if reason is not None:
                raise UnreadablePath(f"{_option(param)} {item}: {reason}")
        return value

    return check


def writable(ctx: click.Context, param: click.Parameter, value: object) -> Any:
    """A click callback for an option naming a file to write: its directory must exist."""
    if value is not None and value != "-":
        reason = output_problem(str(value))
        if reason is not None:
            raise UnreadablePath(f"{_option(param)} {value}: {reason}")
    return value


def _option(param: click.Parameter) -> str:
    names = [name for name in getattr(param, "opts", ()) if name.startswith("--")]
    return names[0] if names else str(param.name)
