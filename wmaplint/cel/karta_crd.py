"""The Karta CRD's own validation rules, run on a definition.

The CRD's structural schema is not applied here: wmaplint's format checks already cover every declared field,
and know the unreleased fields (groupByExpressions) the copied CRD would prune. Its two rules on
componentTypeSelectors are decided natively: the format's selector rules report every selector they reject
(and more), so CEL is not even loaded for them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.definition.fields import KARTA
from wmaplint.definition.selectors import type_selector_fault
from wmaplint.diagnostics import Span
from wmaplint.source import MappingNode, Node, anchor_node, find_node, to_python

if TYPE_CHECKING:
    from wmaplint.cel.issues import ObjectFinding
    from wmaplint.definition.model import Component, Definition
    from wmaplint.schema.store import Schemas
    from wmaplint.source import Document

KARTA_GVK = ("run.ai", "v1alpha1", "Karta")

# The Karta CRD's rules on componentTypeSelector, by message, with their text: the format's selector rules
# (wmaplint.definition.selectors) report every object these rules reject (and more: an empty keyPath or
# matchLabels, a null value), so a CEL violation of one is never reported beside them.
SELECTOR_RULES = {
    "at least one of keyPath or matchLabels must be set": "has(self.keyPath) || has(self.matchLabels)",
    "value requires keyPath": "!has(self.value) || has(self.keyPath)",
}


def _covered(node: Node | None, detail: str, components: list[Component]) -> bool:
    if detail not in SELECTOR_RULES or not isinstance(node, MappingNode):
        return False
    return any(c.type_selector_node is node and type_selector_fault(node) is not None for c in components)


def _validation_rules_of(schema: object) -> Iterator[Any]:
    """Every entry of every ``x-kubernetes-validations`` list in a schema (the Karta CRD's has no $ref)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            rules = node.get("x-kubernetes-validations")
            yield from rules if isinstance(rules, list) else ()
            stack.extend(v for k, v in node.items() if k != "x-kubernetes-validations")
        elif isinstance(node, list):
            stack.extend(node)


_NATIVE: dict[str, bool] = memo.kept(__name__, "_NATIVE", {}, pure=True)  # by the schema source's sha256


def _all_decided_natively(sha256: str, schema: object) -> bool:
    found = _NATIVE.get(sha256)
    if found is None:
        found = _NATIVE[sha256] = all(_decided_natively(rule) for rule in _validation_rules_of(schema))
    return found


def _decided_natively(rule: object) -> bool:
    if not isinstance(rule, dict) or set(rule) - {"rule", "message"}:
        return False
    message = rule.get("message")
    text = SELECTOR_RULES.get(message) if isinstance(message, str) else None
    return text is not None and " ".join(str(rule.get("rule", "")).split()) == text


def karta_crd_findings(
    path: str, document: Document, definition: Definition, store: Schemas | None
) -> list[ObjectFinding]:
    """What the validation rules of the Karta CRD (as the schema store serves it) find on a Karta
    definition, placed in its file ``path``: each finding once a node, none the selector rules report."""
    if definition.kind != KARTA[1] or store is None:
        return []
    schemas = store.lookup(*KARTA_GVK)
    if not schemas:
        return []
    schema = schemas[0]
    if _all_decided_natively(schema.sha256, schema.raw):
        return []  # the CRD of today: CEL need not even be loaded
    from wmaplint.cel import validate_object

    root = document.root
    findings: list[ObjectFinding] = []
    seen: set[tuple[int, str]] = set()
    for violation in validate_object(schema.raw, to_python(root), schema.resolve_ref):
        if _covered(find_node(root, tuple(violation.data_path)), violation.detail, definition.components):
            continue
        anchor = anchor_node(root, violation.key_path)
        key = (id(anchor), violation.message)
        if key in seen:
            continue
        seen.add(key)
        if anchor is not None:
            span = anchor.span
        else:
            start = definition.document_node.span
            span = Span(start.start_line, start.start_col, start.start_line, start.start_col + 1)
        findings.append(violation.at(path, span, definition=True,
                                  data={"rule": violation.expression, "field": violation.field_path}))
    return findings
