"""How findings on jq expressions quote the expression and suggest names: an excerpt clipped to a short line,
the did-you-mean of a misspelled function, variable or format (the names from ``wmaplint.spelling``)."""

from __future__ import annotations


def clip(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def did_you_mean(suggestions: list[str]) -> str:
    """The end of a message that offers ``suggestions`` (nothing when there are none)."""
    if not suggestions:
        return ""
    return f"; did you mean {', '.join(f'`{s}`' for s in suggestions)}?"
