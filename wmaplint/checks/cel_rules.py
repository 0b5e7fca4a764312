"""CEL on definitions: the Karta CRD's own validation rules (WM604) and gang groupByExpressions (WM605).

The CRD's structural schema is not applied here: wmaplint's format checks already cover every declared field,
and know the unreleased fields (groupByExpressions) the copied CRD would prune.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import wmaplint.cel.rules  # noqa: F401  (registers WM604 and WM605)
from wmaplint.checks import Context, check
from wmaplint.definition.model import KARTA, Component, GangMember
from wmaplint.definition.selectors import type_selector_fault
from wmaplint.diagnostics import Diagnostic
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode, find_node, to_python

RULE_VIOLATION = "WM604"
GROUP_BY_EXPRESSION = "WM605"
KARTA_GVK = ("run.ai", "v1alpha1", "Karta")
POD_GVK = ("", "v1", "Pod")

# The Karta CRD's rules on componentTypeSelector, by message, with their text: the format's selector rules
# (wmaplint.definition.selectors) report every object these rules reject (and more: an empty keyPath or
# matchLabels, a null value), so a CEL violation of one is never reported beside them.
SELECTOR_RULES = {
    "at least one of keyPath or matchLabels must be set": "has(self.keyPath) || has(self.matchLabels)",
    "value requires keyPath": "!has(self.value) || has(self.keyPath)",
}


def _store(ctx: Context) -> Any:
    options, config = ctx.options if isinstance(ctx.options, tuple) else (None, None)
    if options is None:
        return None
    return options.schema_store(config)


def _covered(node: Node | None, detail: str, components: list[Component]) -> bool:
    if detail not in SELECTOR_RULES or not isinstance(node, MappingNode):
        return False
    return any(c.type_selector_node is node and type_selector_fault(node) is not None for c in components)


def _rules_of(schema: Any) -> Iterator[Any]:
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


_NATIVE: dict[str, bool] = {}  # by the schema source's sha256


def _all_decided_natively(sha256: str, schema: Any) -> bool:
    found = _NATIVE.get(sha256)
    if found is None:
        found = _NATIVE[sha256] = all(_decided_natively(rule) for rule in _rules_of(schema))
    return found


def _decided_natively(rule: Any) -> bool:
    if not isinstance(rule, dict) or set(rule) - {"rule", "message"}:
        return False
    text = SELECTOR_RULES.get(rule.get("message"))  # type: ignore[arg-type]
    return text is not None and " ".join(str(rule.get("rule", "")).split()) == text


@check
def karta_crd_rules(ctx: Context) -> Iterator[Diagnostic]:
    if ctx.definition.kind != KARTA[1]:
        return
    store = _store(ctx)
    schemas = store.lookup(*KARTA_GVK) if store is not None else []
    if not schemas:
        return
    from wmaplint.cel import validate_object

    schema = schemas[0]
    if _all_decided_natively(schema.sha256, schema.raw):
        return  # the CRD of today: its two rules are the format's selector rules; CEL need not even be loaded
    obj = to_python(ctx.document.root)
    root = ctx.document.root
    seen: set[tuple[int, str]] = set()
    for violation in validate_object(schema.raw, obj, schema.resolve_ref):
        from wmaplint.resolve.validate import anchor_node, unbracket  # resolution code only for a violation

        node = find_node(root, tuple(violation.data_path))
        if _covered(node, violation.detail, ctx.definition.components):
            continue
        anchor = anchor_node(root, tuple(unbracket(p) for p in violation.data_path))
        key = (id(anchor), violation.message)
        if key in seen:
            continue
        seen.add(key)
        rejected = violation.rule == RULE_VIOLATION
        yield ctx.diag(
            violation.rule,
            anchor,
            f"the Karta CRD rejects this: {violation.message}" if rejected else violation.message,
            data={"rule": violation.expression, "field": violation.field_path},
        )


@check
def group_by_expressions(ctx: Context) -> Iterator[Diagnostic]:
    members: list[tuple[GangMember, SequenceNode]] = []
    for member in ctx.definition.gang_members:
        seq = member.node.get("groupByExpressions")
        if isinstance(seq, SequenceNode) and seq.items:
            members.append((member, seq))
    if not members:
        return
    store = _store(ctx)
    pods = store.lookup(*POD_GVK) if store is not None else []
    if not pods:
        return
    from wmaplint.cel import check_pod_expression

    pod = pods[0]
    pod_schema = pod.raw
    for member, seq in members:
        for index, item in enumerate(seq.items):
            if not isinstance(item, ScalarNode) or not isinstance(item.value, str):
                continue  # the format check reports non-strings
            pointer = (*member.pointer, "groupByExpressions", index)
            for issue in check_pod_expression(item.value, pod_schema, pod.resolve_ref, pointer):
                where = item.span if issue.offset is None else item.span_of(issue.offset, issue.offset + 1)
                yield ctx.diag(GROUP_BY_EXPRESSION, where, f"groupByExpressions[{index}]: {issue.message}")
