"""What the controller model says at the cursor: hover on a label key a selector reads, a condition type or a
phase value a matcher compares; completion of the label keys the controller writes on a component's pods."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from wmaplint.controllers import KindModel, WrittenLabel
from wmaplint.controllers.project import model_near
from wmaplint.controllers.reading import created_pods_of, label_keys
from wmaplint.jq import words as jqwords
from wmaplint.lsp.yamlpath import locate
from wmaplint.source import ScalarNode

if TYPE_CHECKING:
    from wmaplint.definition.model import Component, Definition
    from wmaplint.lsp.snapshot import Snapshot

# the pod-context fields whose expressions read labels: selectors and gang keys
POD_FIELDS = ("keyPath", "idPath", "groupByKeyPaths", "filters")
# `.metadata.labels["` or `.metadata.labels.` with the key typed so far
_OPEN_KEY = re.compile(
    r'\.metadata\s*\??\s*\.labels\s*\??\s*(?:\[\s*"(?P<quoted>[^"\\]*)|\.(?P<plain>[\w-]*))$'
)


def kind_model(definition: Definition, path: str) -> KindModel | None:
    """The controller model of the definition's root kind, as `check` sees it for the file at ``path`` (the
    project's own model files and pinned releases)."""
    root = definition.root
    if root is None or root.kind is None:
        return None
    return model_near(path).model_for(root.kind.group, root.kind.kind, root.kind.version)


def component_at(definition: Definition, pointer: tuple[object, ...]) -> Component | None:
    """The component whose mapping holds ``pointer`` (a gang member's component for a gang key)."""
    if len(pointer) >= 3 and pointer[2] == "rootComponent":
        return definition.root
    if len(pointer) >= 4 and pointer[2] == "childComponents" and isinstance(pointer[3], int):
        children = definition.children
        return children[pointer[3]] if pointer[3] < len(children) else None
    for member in definition.gang_members:
        if tuple(pointer[: len(member.pointer)]) == tuple(member.pointer):
            return definition.component(member.component or "")
    return None


def label_markdown(model: KindModel, label: WrittenLabel, component: Component | None = None) -> str:
    lines = [f"**label `{label.key}`** ({label.role}): {label.value}"]
    if label.of:
        lines.append(f"names the entries of `{label.of}`")
    if label.on:
        lines.append(f"written on the {', '.join(label.on)} pods only")
    if component is not None:
        created = created_pods_of(model, component)
        if created is not None and not label.written_on(created.name):
            lines.append(f"**not written on the pods of `{component.name}`** ({created.name})")
    if label.derive:
        lines.append(f"value: `{label.derive}`")
    lines.append(f"source: {label.source} ({model.where})")
    return "\n\n".join(lines)


def _markdown(text: str, rng: lsp.Range) -> lsp.Hover:
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=rng)


def hover(snapshot: Snapshot, offset: int, definition: Definition) -> lsp.Hover | None:
    """The model's fact at ``offset``: a label key in a selector or gang key, a byConditions type, a byPhase
    value; None elsewhere, or where the model does not know the kind."""
    found = locate(definition.document_node, offset)
    if found is None or found.key is not None or not isinstance(found.value, ScalarNode):
        return None
    node = found.value
    if not isinstance(node.value, str):
        return None
    model = kind_model(definition, snapshot.path)
    if model is None:
        return None
    field = next((p for p in reversed(found.pointer) if isinstance(p, str)), "")
    rng = snapshot.index.range(node.span)
    if field in POD_FIELDS:
        index = jqwords.value_index(snapshot.text, node, offset)
        if index is None:
            return None
        for key, start, end in label_keys(node.value):
            label = model.label(key)
            if start <= index <= end and label is not None:
                component = component_at(definition, found.pointer)
                return _markdown(label_markdown(model, label, component),
                                 snapshot.index.range(node.span_of(start, end)))
        return None
    if field == "type" and "byConditions" in found.pointer:
        return _markdown(_condition_markdown(model, node.value), rng)
    if field == "byPhase":
        return _phase_markdown(model, definition, node.value, rng)
    return None


def _condition_markdown(model: KindModel, ctype: str) -> str:
    status = model.status
    fact = model.condition(ctype)
    if fact is not None:
        reasons = f"\n\nreasons: {', '.join(fact.reasons)}" if fact.reasons else ""
        return (f"**condition `{ctype}`** of {model.gvk()}: {fact.source}{reasons}\n\n"
                f"source: {status.source if status else model.source} ({model.where})")
    known = ", ".join(model.condition_types()) or "none"
    if status is not None and status.exhaustive:
        return f"**condition `{ctype}`**: never set by {model.gvk()} (it sets {known}; {model.where})"
    return (f"**condition `{ctype}`**: not in the model of {model.gvk()}, whose list is not exhaustive "
            f"({known})")


def _phase_markdown(model: KindModel, definition: Definition, value: str, rng: lsp.Range) -> lsp.Hover | None:
    root = definition.root
    path = root.status.phase_path.text if root and root.status and root.status.phase_path else None
    phase = model.phase(path) if path else None
    if phase is None:
        return None
    said = "one of the values" if value in phase.values else "**not** a value"
    values = ", ".join(f"`{v}`" if v else '`""`' for v in phase.values)
    return _markdown(f"**phase `{value}`**: {said} {model.gvk()} sets at `{phase.path}` ({values})\n\n"
                     f"source: {phase.source} ({model.where})", rng)


def label_completions(snapshot: Snapshot, position: lsp.Position) -> list[lsp.CompletionItem] | None:
    """The label keys the controller writes on the pods of the component whose selector the cursor is in,
    after `.metadata.labels["` or `.metadata.labels.`; None when the cursor is not there."""
    index = snapshot.index
    before = index.line(position.line)[: index.column(position)]
    opened = _OPEN_KEY.search(before)
    if opened is None:
        return None
    offset = index.offset(position)
    definition = snapshot.definition_at(offset)
    if definition is None:
        return None
    model = kind_model(definition, snapshot.path)
    if model is None or model.pods is None:
        return None
    found = locate(definition.document_node, offset)
    component = component_at(definition, found.pointer) if found is not None else None
    created = created_pods_of(model, component) if component is not None else None
    labels = model.pod_labels(created.name if created is not None else None)
    typed = opened.group("quoted") if opened.group("quoted") is not None else opened.group("plain") or ""
    replace = lsp.Range(start=lsp.Position(line=position.line, character=position.character - len(typed)),
                        end=position)
    plain = opened.group("plain") is not None
    items = []
    for key, label in sorted(labels.items()):
        if plain and not re.fullmatch(r"[A-Za-z_]\w*", key):
            continue  # `.metadata.labels.` takes plain names only
        items.append(lsp.CompletionItem(
            label=key, kind=lsp.CompletionItemKind.Value, detail=f"{label.role}: {label.value}",
            documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=label_markdown(model, label)),
            text_edit=lsp.TextEdit(range=replace, new_text=key),
            sort_text=("0" if label.role in ("workload", "component", "entry", "replica") else "1") + key))
    return items
