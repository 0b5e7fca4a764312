"""Component names: the components by name, and the names a misspelled reference is closest to."""

from __future__ import annotations

import difflib

from wmaplint.definition.model import Component, Definition


def by_name(definition: Definition) -> dict[str, Component]:
    """Each component with a name that is not empty, by its name; the first, when names repeat."""
    found: dict[str, Component] = {}
    for c in definition.components:
        if c.name and c.name not in found:
            found[c.name] = c
    return found


def closest_names(name: str, names: list[str]) -> list[str]:
    """The names a reference to ``name`` most likely meant, best first."""
    return difflib.get_close_matches(name, names, n=3, cutoff=0.5)
