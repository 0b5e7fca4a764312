"""File URIs and paths, both ways (standard library only)."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import unquote, urlsplit


def to_path(uri: str) -> str | None:
    """The local path of a ``file:`` URI, or None for other schemes (``untitled:``, ``git:``...)."""
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if parts.scheme.lower() != "file":
        return None
    path = unquote(parts.path)
    if parts.netloc and parts.netloc.lower() != "localhost":
        return f"//{parts.netloc}{path}"  # a UNC share
    if os.name == "nt" and len(path) > 2 and path[0] == "/" and path[2] == ":":
        path = path[1:]  # /C:/x -> C:/x
    return path or None


def path_or_uri(uri: str) -> str:
    """What wmaplint calls the document: its path, or the URI itself when it names no local file."""
    return to_path(uri) or uri


def from_path(path: str) -> str:
    return Path(os.path.abspath(path)).as_uri()
