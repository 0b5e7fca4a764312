"""Plain JSON values of manifests and pods: looking up a field, showing a value in a message."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

MAX_SHOWN = 60


def get(value: Any, *keys: str | int) -> Any:
    """value[k1][k2]..., or None when any step is missing or of the wrong type."""
    for key in keys:
        if isinstance(key, int):
            if not isinstance(value, list) or not -len(value) <= key < len(value):
                return None
        # parsed YAML/JSON gives plain dicts; testing dict is much faster than Mapping
        elif not isinstance(value, dict):
            return None
        value = value[key] if isinstance(key, int) else value.get(key)
    return value


def show(value: Json) -> str:
    """A value as short JSON text (cut at MAX_SHOWN characters)."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[: MAX_SHOWN - 3] + "..."
