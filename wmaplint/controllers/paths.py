"""Paths as the model writes them: a phase path as a phaseDefinition writes it, compared without blanks or a
trailing default; an integer field as ``.spec.a[].b``, the plain navigation a replicas path reads."""

from __future__ import annotations

import re

_WS = re.compile(r"\s+")
_DEFAULT = re.compile(r'^(.*?)//(""|null)$')


def normalise_path(text: str) -> str:
    """A phase path without blanks, outer parentheses or a trailing `// ""` default, for comparing paths."""
    text = _WS.sub("", text)
    for _ in range(8):  # a few layers of `( ... // "" )` at most; more is not a plain path anyway
        before = text
        if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
            text = text[1:-1]
        m = _DEFAULT.match(text)
        if m:
            text = m.group(1)
        if text == before:
            break
    return text


_FIELD = re.compile(r"^(\.[A-Za-z_][A-Za-z0-9_]*(\[\])?)+$")


def field_path(text: str) -> str | None:
    """``.spec.a[]?.b`` as ``.spec.a[].b``; None when the text is not a plain navigation."""
    text = _WS.sub("", text).replace("[]?", "[]").replace("?", "")
    return text if _FIELD.match(text) else None
