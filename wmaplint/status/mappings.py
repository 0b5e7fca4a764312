"""A definition's status mappings as the runtime reads them: the root's statusDefinition (the only one it
reads), the matchers and condition entries of a statusDefinition, and what its conditionsDefinition reads."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.model import Component, Definition, Matcher, StatusDefinition
from wmaplint.source import MappingNode, ScalarNode


def runtime_status(definition: Definition) -> tuple[Component, StatusDefinition] | None:
    """The root component and its statusDefinition, the only one the runtime reads (None without either)."""
    root = definition.root
    if root is None or root.status is None:
        return None
    return root, root.status


def declared_statuses(definition: Definition) -> Iterator[StatusDefinition]:
    """The statusDefinition of every component that has one (the runtime reads the root's only)."""
    for component in definition.components:
        if component.status is not None:
            yield component.status


def matchers(status: StatusDefinition) -> Iterator[tuple[str, Matcher]]:
    """Every matcher with the status it reports, in the order written."""
    for key, listed in status.mappings.items():
        for matcher in listed:
            yield key, matcher


def condition_entries(status: StatusDefinition) -> Iterator[tuple[str, MappingNode]]:
    """Every byConditions entry with the status its matcher reports."""
    for key, matcher in matchers(status):
        for entry in matcher.by_conditions:
            yield key, entry


def condition_type(entry: MappingNode) -> ScalarNode | None:
    """The type of a byConditions entry, when it is a string."""
    type_node = entry.get("type")
    return type_node if isinstance(type_node, ScalarNode) and isinstance(type_node.value, str) else None


def condition_label(entry: MappingNode) -> str:
    """The condition type of a byConditions entry as written, for messages ("?" when it has none)."""
    type_node = entry.get("type")
    return type_node.text if isinstance(type_node, ScalarNode) else "?"


def reads_reasons(status: StatusDefinition) -> bool:
    """Whether condition reasons are read: only with a reasonFieldName (a non-empty string)."""
    if status.conditions_node is None:
        return False
    field = status.conditions_node.get("reasonFieldName")
    return isinstance(field, ScalarNode) and isinstance(field.value, str) and bool(field.value)
