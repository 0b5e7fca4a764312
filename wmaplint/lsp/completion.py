"""Completion: field names from the format schema at the cursor's YAML path; component names for refs; the
label keys the controller writes, inside a selector."""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from wmaplint.lsp import controller_facts, format_schema, jqschema
from wmaplint.lsp.snapshot import Snapshot, mentions_definition
from wmaplint.lsp.yamlpath import line_shape, mapping_path
from wmaplint.schema.raw import RawSchema

_KEY_PREFIX = re.compile(r"^(?P<lead>\s*(?:-\s+)*)(?P<word>[A-Za-z_][\w-]*)?$")
_VALUE_PREFIX = re.compile(
    r"^(?P<lead>\s*(?:-\s+)*)(?P<key>[A-Za-z_][\w-]*):\s+(?P<quote>[\"']?)(?P<word>[\w.-]*)$"
)
REFERENCE_KEYS = ("ownerRef", "componentName")


def completions(
    snapshot: Snapshot, position: lsp.Position, schemas: jqschema.SchemaLookup | None = None
) -> list[lsp.CompletionItem]:
    """Completion items; inside a jq expression (with ``schemas``) the fields that may follow a `.`."""
    if not mentions_definition(snapshot.text):
        return []
    keys = controller_facts.label_completions(snapshot, position)
    if keys is not None:
        return keys
    if schemas is not None:
        in_jq = jqschema.completions(snapshot, snapshot.index.offset(position), schemas)
        if in_jq is not None:
            return in_jq
    if snapshot.is_json:
        return []
    index = snapshot.index
    line = index.line(position.line)
    column = index.column(position)
    before = line[:column]
    lines = list(index.lines)
    value = _VALUE_PREFIX.match(before)
    if value is not None:
        return _value_items(snapshot, lines, position, value)
    key = _KEY_PREFIX.match(before)
    if key is None:
        return []
    word = key.group("word") or ""
    key_col = len(before) - len(word)
    lines[position.line] = before  # the rest of the line does not decide where the cursor's mapping is
    found = mapping_path(lines, position.line, key_col)
    if found is None:
        return []
    path, siblings = found
    present = set(siblings) | set(_keys_below(lines, position.line, key_col))
    replace = lsp.Range(
        start=lsp.Position(line=position.line, character=position.character - len(word)), end=position
    )
    items = []
    for name, schema in format_schema.properties_at(path).items():
        if name in present:
            continue
        items.append(
            lsp.CompletionItem(
                label=name,
                kind=lsp.CompletionItemKind.Property,
                detail=format_schema.type_label(schema),
                documentation=lsp.MarkupContent(
                    kind=lsp.MarkupKind.Markdown, value=format_schema.field_markdown(name, schema)
                ),
                text_edit=lsp.TextEdit(range=replace, new_text=_insert_text(name, schema, key_col)),
                sort_text=("0" if format_schema.is_required(path, name) else "1") + name,
            )
        )
    return items


def _insert_text(name: str, schema: RawSchema, column: int) -> str:
    kind = schema.get("type")
    if kind == "object":
        return f"{name}:\n{' ' * (column + 2)}"
    if kind == "array":
        return f"{name}:\n{' ' * (column + 2)}- "
    return f"{name}: "


def _keys_below(lines: list[str], line0: int, column: int) -> list[str]:
    """Keys of the same mapping after the cursor line (until a line left of the mapping)."""
    keys = []
    for line in lines[line0 + 1 : line0 + 500]:
        shape = line_shape(line)
        if shape is None:
            continue
        if shape.key_col < column or (shape.key_col == column and shape.dashes):
            break  # left the mapping, or the next list item started
        if shape.key_col == column and shape.key is not None:
            keys.append(shape.key)
    return keys


def _value_items(
    snapshot: Snapshot, lines: list[str], position: lsp.Position, match: re.Match[str]
) -> list[lsp.CompletionItem]:
    key = match.group("key")
    word = match.group("word")
    replace = lsp.Range(
        start=lsp.Position(line=position.line, character=position.character - len(word)), end=position
    )
    if key in REFERENCE_KEYS:
        names = snapshot.component_names() or _names_from_text(lines)
        return [
            lsp.CompletionItem(
                label=name,
                kind=lsp.CompletionItemKind.Reference,
                detail="component",
                text_edit=lsp.TextEdit(range=replace, new_text=name),
            )
            for name in names
        ]
    key_col = match.end("lead")
    lines[position.line] = match.group("lead") + key
    found = mapping_path(lines, position.line, key_col)
    if found is None:
        return []
    schema = format_schema.properties_at(found[0]).get(key) or {}
    allowed = schema.get("enum")
    return [
        lsp.CompletionItem(
            label=str(v),
            kind=lsp.CompletionItemKind.EnumMember,
            text_edit=lsp.TextEdit(range=replace, new_text=str(v)),
        )
        for v in (allowed if isinstance(allowed, list) else [])
    ]


_NAME_LINE = re.compile(r"^\s*(?:-\s+)?name:\s*['\"]?([\w.-]+)")


def _names_from_text(lines: list[str]) -> list[str]:
    """Component names when the document does not parse: `name:` lines under rootComponent/childComponents."""
    names: list[str] = []
    for i, line in enumerate(lines):
        match = _NAME_LINE.match(line)
        if match is None:
            continue
        shape = line_shape(line)
        found = mapping_path(lines, i, shape.key_col) if shape is not None else None
        if found and len(found[0]) >= 3 and found[0][2] in ("rootComponent", "childComponents"):
            if match.group(1) not in names:
                names.append(match.group(1))
    return names
