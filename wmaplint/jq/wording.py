"""How findings on jq expressions quote the expression and suggest names: an excerpt clipped to a short line,
the did-you-mean of a misspelled function, variable or format."""

from __future__ import annotations

from collections.abc import Iterable


def clip(text: str, limit: int = 60) -> str:
    """``text`` on one line, cut to ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _edit_distance(a: str, b: str, limit: int = 3) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def close_names(name: str, candidates: Iterable[str], limit: int = 3) -> list[str]:
    """The candidates within a few edits of ``name`` (fewer for a short name), nearest first."""
    budget = 1 if len(name) <= 3 else 2 if len(name) <= 6 else 3
    scored = sorted((_edit_distance(name, c, budget), c) for c in candidates if c != name)
    return [c for d, c in scored if d <= budget][:limit]


def did_you_mean(suggestions: list[str]) -> str:
    """The end of a message that offers ``suggestions`` (nothing when there are none)."""
    if not suggestions:
        return ""
    return f"; did you mean {', '.join(f'`{s}`' for s in suggestions)}?"
