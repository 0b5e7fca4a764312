"""The names a misspelt name most likely meant: the one "did you mean" of every rule and analysis (a field of
the format or of a schema, a component, a condition type, reason or phase, a jq function, variable or
format). A name that differs only in case leads; then the names a few edits away (one for a name of up to
three letters, two for a longer one), the nearest first, which keeps short names (`$a` for `$b`);
then those whose spelling the standard library's ``difflib`` finds close (a ratio of 0.6 or more), which
keeps long names missing a part (`podTemplateSpecPath` for `podTemplateSpec`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6


def suggestions(name: str, known: Iterable[str], most: int = 3) -> list[str]:
    """Up to ``most`` names of ``known`` that ``name`` most likely means, best first (never ``name``)."""
    candidates = [k for k in dict.fromkeys(known) if k != name]
    found = [k for k in candidates if k.lower() == name.lower()][:1]
    budget = 1 if len(name) <= 3 else 2
    near = sorted((_edits(name, k, budget), k) for k in candidates)
    found += [k for distance, k in near if distance <= budget and k not in found]
    found += [k for k in difflib.get_close_matches(name, candidates, n=most, cutoff=CUTOFF) if k not in found]
    return found[:most]


def closest(name: str, known: Iterable[str]) -> str | None:
    """The name of ``known`` that ``name`` most likely means, None when none is close."""
    found = suggestions(name, known, most=1)
    return found[0] if found else None


def _edits(a: str, b: str, limit: int) -> int:
    """The edits (insertions, deletions, substitutions) from ``a`` to ``b``; ``limit + 1`` when more."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]
