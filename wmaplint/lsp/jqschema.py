"""Schema knowledge inside jq expressions: hover on a path segment, completion of fields after a `.`.

Root-context expressions are typed against every schema source serving the definition's root kind (the
first is shown, the others are named); pod-context expressions against the Pod schema.

It stays with the language server rather than in ``wmaplint.jq``: it reads the editor's snapshot and the typed
paths of ``wmaplint.typecheck``, both layers above jq.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types as lsp

from wmaplint.dataclass import dataclass
from wmaplint.definition.model import Definition, Expr
from wmaplint.jq import words as jqwords
from wmaplint.lsp.snapshot import Snapshot
from wmaplint.lsp.uris import from_path
from wmaplint.schema.types import ANY_KIND, ARRAY, OBJECT, UNION, Property, SchemaType

if TYPE_CHECKING:
    from wmaplint.schema.store import ResolvedSchema, Schemas

MAX_LABEL_DEPTH = 4
MAX_DESCRIPTION = 1500  # characters of a CRD description shown in a completion item
# (definition, "root" | "pod") -> the schema sources to type against, first one shown
SchemaLookup = Callable[[Definition, str], list["ResolvedSchema"]]


@dataclass
class Cursor:
    """The expression under the cursor and the cursor's index into its decoded text."""

    expr: Expr
    index: int


def cursor_in_expression(snapshot: Snapshot, offset: int) -> tuple[Definition, Cursor] | None:
    definition = snapshot.definition_at(offset)
    if definition is None:
        return None
    for expr in definition.expressions():
        node = expr.node
        if node.start <= offset <= node.end and isinstance(node.value, str):
            index = jqwords.value_index(snapshot.text, node, offset)
            if index is None:
                return None
            return definition, Cursor(expr, index)
    return None


def schemas_from_store(store: Schemas | None) -> SchemaLookup:
    """The lookup of a schema store: root kinds (one per distinct file content) or the Pod."""
    from wmaplint.typecheck.paths import POD, distinct

    def lookup(definition: Definition, context: str) -> list[ResolvedSchema]:
        if store is None:
            return []
        if context == "pod":
            return list(store.lookup(*POD))[:1]
        root = definition.root
        kind = root.kind if root is not None else None
        if kind is None or not kind.kind or not kind.version:
            return []
        return distinct(store.lookup(kind.group, kind.version, kind.kind))

    return lookup


# -- labels --------------------------------------------------------------------------------------


def type_label(t: SchemaType, depth: int = 0) -> str:
    """`array of object`, `map of string`, `integer or string`...; nesting is cut short."""
    if depth >= MAX_LABEL_DEPTH:
        return "…"
    if t.kind == ANY_KIND:
        return "any"
    if t.kind == UNION:
        if t.format == "int-or-string":
            return "integer or string"
        return " or ".join(dict.fromkeys(type_label(v, depth + 1) for v in t.variants)) or "nothing"
    if t.kind == OBJECT:
        if t.additional is not None and not t.properties:
            return f"map of {type_label(t.additional, depth + 1)}"
        return "object"
    if t.kind == ARRAY:
        return f"array of {type_label(t.items, depth + 1) if t.items is not None else 'any'}"
    return f"{t.kind} ({t.format})" if t.format else t.kind


def _enum(t: SchemaType) -> tuple[Any, ...]:
    if t.enum:
        return t.enum
    values: list[Any] = []
    for v in t.variants if t.kind == UNION else ():
        values.extend(v.enum or ())
    return tuple(values)


def _location(schema: ResolvedSchema, line: int | None) -> str:
    """Where a schema declares something: a link to the file, or the bundled schema's name (no file)."""
    name = Path(schema.source).name
    if line is None:
        return f"`{name}`"
    if schema.file is None:
        return f"`{schema.label}:{line}`"
    uri = from_path(str(Path(schema.file).resolve()))
    return f"[{name}:{line}]({uri}#L{line})"


def property_markdown(prop: Property, required: bool | None, source: ResolvedSchema | None) -> str:
    """Name, type, required/optional, description, enum, default and where it is declared."""
    head = f"**{prop.name}**: {type_label(prop.type)}"
    if required is not None:
        head += " — required" if required else " — optional"
    lines = [head]
    if prop.description:
        lines += ["", prop.description]
    enum = _enum(prop.type)
    if enum:
        lines += ["", "Allowed: " + ", ".join(f"`{json.dumps(v)}`" for v in enum)]
    if prop.type.has_default:
        lines += ["", f"Default: `{json.dumps(prop.type.default, default=str)}`"]
    if source is not None:  # the ResolvedSchema the property comes from
        lines += ["", f"Declared in {_location(source, prop.line)}"]
    return "\n".join(lines)


# -- features ------------------------------------------------------------------------------------


def hover(snapshot: Snapshot, offset: int, schemas: SchemaLookup) -> lsp.Hover | None:
    """The CRD property of the path segment under the cursor, or None."""
    from wmaplint.jq.inference.queries import types_at
    from wmaplint.schema.served import object_meta_from

    found = cursor_in_expression(snapshot, offset)
    if found is None:
        return None
    definition, cursor = found
    expr = cursor.expr
    sources = schemas(definition, expr.context)
    object_meta = object_meta_from(schemas(definition, "pod"))
    shown = None
    others: list[str] = []
    for schema in sources:
        info = types_at(expr.node.value, schema.type, cursor.index, object_meta=object_meta)
        if shown is None:
            if info is not None and info.declared:
                shown = (info, schema)
            else:
                others.append(f"`{Path(schema.source).name}` (not declared)")
        elif info is not None and info.declared:
            _, prop = info.declared[0]
            others.append(f"{_location(schema, prop.line)} ({type_label(info.type)})")
        else:
            others.append(f"`{Path(schema.source).name}` (not declared)")
    if shown is None:
        return None
    info, schema = shown
    _, prop = info.declared[0]
    text = property_markdown(prop, info.required, schema)
    if len(info.declared) > 1:
        text += f"\n\n(declared by {len(info.declared)} object types this path can reach)"
    context = "a Pod" if expr.context == "pod" else f"{schema.gvk[2]} ({_gvk(schema.gvk)})"
    text += f"\n\nTyped against {context}"
    if others:
        text += "; also served by " + ", ".join(others)
    rng = snapshot.index.range(expr.node.span_of(info.start, info.end))
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=rng)


def _gvk(gvk: tuple[str, str, str]) -> str:
    return f"{gvk[0]}/{gvk[1]}" if gvk[0] else gvk[1]


def completions(snapshot: Snapshot, offset: int, schemas: SchemaLookup) -> list[lsp.CompletionItem] | None:
    """Fields after a `.` in a jq expression; None when the cursor is not in an expression (so the
    YAML completions apply), an empty list when it is but nothing is known."""
    from wmaplint.jq.inference.queries import members_at
    from wmaplint.schema.served import object_meta_from

    found = cursor_in_expression(snapshot, offset)
    if found is None:
        return None
    definition, cursor = found
    expr = cursor.expr
    text: str = expr.node.value
    start = cursor.index
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = cursor.index
    replace = snapshot.index.range(expr.node.span_of(start, end))
    items: dict[str, lsp.CompletionItem] = {}
    object_meta = object_meta_from(schemas(definition, "pod"))
    for schema in schemas(definition, expr.context):
        for prop in members_at(text, schema.type, cursor.index, object_meta=object_meta):
            if prop.name in items:
                continue
            doc = property_markdown(prop, None, schema)
            if len(doc) > MAX_DESCRIPTION:
                doc = doc[:MAX_DESCRIPTION] + "…"
            items[prop.name] = lsp.CompletionItem(
                label=prop.name,
                kind=lsp.CompletionItemKind.Field,
                detail=type_label(prop.type),
                documentation=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=doc),
                text_edit=lsp.TextEdit(range=replace, new_text=_key(prop.name)),
                filter_text=prop.name,
            )
    return list(items.values())


def _key(name: str) -> str:
    """A field name as written after `.`: bare when it is an identifier, else quoted."""
    if name and (name[0].isalpha() or name[0] == "_") and all(c.isalnum() or c == "_" for c in name):
        return name
    return json.dumps(name)
