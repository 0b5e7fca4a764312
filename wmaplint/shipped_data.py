"""Where the data shipped with wmaplint lives: the source tree in a checkout or an editable install, else the
copy that the wheel carries inside the package (``wmaplint/_shipped/<name>``)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The directory of shipped data ``name`` (``catalog``, ``packs`` or ``schemas``)."""
    in_tree = _PACKAGE.parent / name
    if in_tree.is_dir():
        return in_tree
    return _PACKAGE / "_shipped" / name
