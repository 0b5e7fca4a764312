"""Which files a repository's own settings may name: those inside the repository.

A repository's ``.wmaplint.yaml``, ``[tool.wmaplint]`` and test suites are written by whoever can open a pull
request; in CI they are read on a runner that holds other files (credentials, keys). So the paths they name,
after every symbolic link is followed, must lie inside the repository that holds the naming file (the nearest
directory above it with ``.git``; without one, the file's own directory), inside the user's own wmaplint
configuration directory, or inside the data shipped with wmaplint. Paths given on the command line or in the
environment are the user's own choice and are not confined.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from wmaplint.shipped_data import shipped

SCHEMA_SUFFIXES = (".yaml", ".yml", ".json")
MAX_WALKED = 100_000  # entries looked at below one named directory


def repository_of(directory: str | Path) -> Path:
    """The repository holding a directory as it was reached (links not followed): the nearest directory at or
    above it with ``.git``, else the directory itself."""
    directory = Path(os.path.abspath(directory))
    for folder in (directory, *directory.parents):
        if (folder / ".git").exists():
            return folder
    return directory


def user_config_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "wmaplint"


def allowed_roots(directory: str | Path) -> list[Path]:
    """Where files named from a settings file in ``directory`` may lie; the repository comes first."""
    roots = [repository_of(directory), user_config_dir()]
    roots.extend(shipped(name) for name in ("catalog", "packs", "schemas"))
    return [Path(os.path.realpath(root)) for root in roots]


def _inside(path: str, roots: list[Path]) -> bool:
    real = Path(os.path.realpath(path))
    return any(real == root or root in real.parents for root in roots)


def _escaping_link(directory: str, roots: list[Path]) -> str | None:
    """The first schema file below ``directory`` that is a link leading out of ``roots`` (walks as the schema
    store does: links to directories are not entered)."""
    for entry in _walk(directory):
        if entry.name.endswith(SCHEMA_SUFFIXES) and entry.is_symlink() and not _inside(entry.path, roots):
            return entry.path
    return None


def _walk(directory: str) -> Iterator[os.DirEntry[str]]:
    pending = [directory]
    seen = 0
    while pending and seen < MAX_WALKED:
        try:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    seen += 1
                    yield entry
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
        except OSError:
            continue


def file_outside_reason(file: str | Path) -> str | None:
    """Why a settings file found in a repository may not be read there: it is a link leading out of it."""
    roots = allowed_roots(Path(file).parent)
    return None if _inside(str(file), roots) else f"is a link leading outside the repository ({roots[0]})"


def outside_reason(path: str, directory: str | Path) -> str | None:
    """Why ``path`` may not be named by a settings file in ``directory``, or None when it may."""
    roots = allowed_roots(directory)
    if not _inside(path, roots):
        return f"resolves outside the repository ({roots[0]})"
    if os.path.isdir(path):
        link = _escaping_link(path, roots)
        if link is not None:
            return f"holds {os.path.relpath(link, path)}, a link leading outside the repository ({roots[0]})"
    return None
