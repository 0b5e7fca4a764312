"""Which workloads run to completion: bundled knowledge, overridden by the `completes` setting."""

from __future__ import annotations

from collections.abc import Iterable

from wmaplint.definition.model import GVK
from wmaplint.status.knowledge import KindFacts


def config_names(gvk: GVK) -> set[str]:
    """The spellings a `completes` entry may use for a kind: Kind, group/Kind, group/version/Kind (core:
    v1/Kind)."""
    names = {gvk.kind, f"{gvk.version}/{gvk.kind}", str(gvk)}
    if gvk.group:
        names |= {f"{gvk.group}/{gvk.kind}", f"{gvk.group}/{gvk.version}/{gvk.kind}"}
    return names


def completes(gvk: GVK | None, facts: KindFacts | None, configured: Iterable[str] = ()) -> tuple[bool, str]:
    """(whether the kind runs to completion, why we think so)."""
    if gvk is None:
        return False, ""
    configured = tuple(configured)
    if config_names(gvk) & set(configured):
        return True, "listed in the `completes` setting"
    if facts is not None and facts.completes:
        return True, f"{facts.gvk} per schemas/conditions.yaml"
    return False, ""
