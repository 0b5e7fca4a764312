"""Which statuses a definition can report, and whether its kind runs to completion (the controller model,
overridden by the `completes` setting)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from wmaplint.definition.model import GVK, Component, Definition, StatusDefinition
from wmaplint.source import Node
from wmaplint.status.mappings import runtime_status

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel

def reported_statuses(status: StatusDefinition) -> frozenset[str]:
    """The statuses that have at least one matcher."""
    return frozenset(key for key, matchers in status.mappings.items() if matchers)


def unreported(definition: Definition, key: str) -> tuple[Component, StatusDefinition] | None:
    """The root and the statusDefinition the runtime reads, when none of its matchers reports ``key``."""
    found = runtime_status(definition)
    if found is None or key in reported_statuses(found[1]):
        return None
    return found


def mappings_node(status: StatusDefinition) -> Node:
    """Where the statuses of a definition are listed: the statusMappings key (else the statusDefinition)."""
    return status.node.key_node("statusMappings") or status.node


def config_names(gvk: GVK) -> set[str]:
    """The spellings a `completes` entry may use for a kind: Kind, group/Kind, group/version/Kind (core:
    v1/Kind)."""
    names = {gvk.kind, f"{gvk.version}/{gvk.kind}", str(gvk)}
    if gvk.group:
        names |= {f"{gvk.group}/{gvk.kind}", f"{gvk.group}/{gvk.version}/{gvk.kind}"}
    return names


def completes(
    gvk: GVK | None, controller: KindModel | None, configured: Iterable[str] = ()
) -> tuple[bool, str]:
    """(whether the kind runs to completion, why we think so)."""
    if gvk is None:
        return False, ""
    configured = tuple(configured)
    if config_names(gvk) & set(configured):
        return True, "listed in the `completes` setting"
    if controller is not None and controller.status is not None and controller.status.completes:
        return True, f"{controller.gvk()} per the controller model"
    return False, ""
