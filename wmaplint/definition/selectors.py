"""What the format requires of a componentTypeSelector: the two rules the Karta CRD also declares on it."""

from __future__ import annotations

from wmaplint.source import MappingNode, ScalarNode

# the CRD's messages: "at least one of keyPath or matchLabels must be set", "value requires keyPath"
EMPTY = "empty"
VALUE_WITHOUT_KEY_PATH = "value-without-key-path"


def type_selector_fault(selector: MappingNode) -> str | None:
    """``EMPTY`` (neither keyPath nor matchLabels) or ``VALUE_WITHOUT_KEY_PATH`` (a value with no keyPath to
    compare it with) when the selector breaks a rule, else None. An empty or null keyPath or matchLabels
    counts as absent; a value counts as set even when null."""
    key_path = selector.get("keyPath")
    labels = selector.get("matchLabels")
    has_key = isinstance(key_path, ScalarNode) and bool(key_path.value)
    has_labels = isinstance(labels, MappingNode) and bool(labels.pairs)
    if not has_key and not has_labels:
        return EMPTY
    if selector.get("value") is not None and not has_key:
        return VALUE_WITHOUT_KEY_PATH
    return None
