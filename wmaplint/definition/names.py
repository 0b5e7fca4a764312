"""Component names: the components by name."""

from __future__ import annotations

from wmaplint.definition.model import Component, Definition


def by_name(definition: Definition) -> dict[str, Component]:
    """Each component with a name that is not empty, by its name; the first, when names repeat."""
    found: dict[str, Component] = {}
    for c in definition.components:
        if c.name and c.name not in found:
            found[c.name] = c
    return found
