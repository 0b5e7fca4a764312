"""Where schemas come from, in DESIGN.md order: explicit paths, WMAPLINT_SCHEMA_PATH, the user cache.

``WMAPLINT_CACHE_DIR`` replaces the whole per-user directory (``$XDG_CACHE_HOME/wmaplint``): schemas added or
pulled live in its ``schemas/`` and parsed-schema caches in ``parsed-6/`` (the format version: a cache of an
older version, in ``parsed/``, is never read).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

SCHEMA_SUFFIXES = (".yaml", ".yml", ".json")


def user_dir(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    override = env.get("WMAPLINT_CACHE_DIR")
    if override:
        return Path(override)
    xdg = env.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "wmaplint"


def user_schema_dir(env: Mapping[str, str] | None = None) -> Path:
    """Schemas added with ``wmaplint schemas add`` / ``pull``: the last source searched."""
    return user_dir(env) / "schemas"


def parsed_cache_dir(env: Mapping[str, str] | None = None) -> Path:
    return user_dir(env) / "parsed-6"


def env_schema_paths(env: Mapping[str, str] | None = None) -> list[str]:
    env = os.environ if env is None else env
    return [p for p in env.get("WMAPLINT_SCHEMA_PATH", "").split(os.pathsep) if p.strip()]


def ordered_sources(explicit: Iterable[str | Path], env: Mapping[str, str] | None = None) -> list[str]:
    """Explicit paths, then WMAPLINT_SCHEMA_PATH, then the user schema dir (only if it exists)."""
    out: list[str] = [str(p) for p in explicit]
    out.extend(env_schema_paths(env))
    cache = user_schema_dir(env)
    if cache.is_dir():
        out.append(str(cache))
    seen: set[str] = set()
    unique = []
    for p in out:
        if p not in seen:
            seen.add(p)
            unique.append(p)
    return unique


def schema_files(explicit: Iterable[str | Path], env: Mapping[str, str] | None = None) -> list[str]:
    """Every schema file a run with ``explicit`` sources reads (``ordered_sources``, each expanded): what an
    output of the run must never replace."""
    return [str(f) for source in ordered_sources(explicit, env) for f in expand(source)]


def expand(source: str) -> list[Path]:
    """A file is itself; a directory is every schema file below it, sorted for a stable order."""
    path = Path(source)
    if path.is_dir():
        files = [p for p in path.rglob("*") if p.suffix in SCHEMA_SUFFIXES and p.is_file()]
        return sorted(files, key=lambda p: str(p))
    return [path]
