"""Hover: field descriptions from the format schema, builtin docs inside jq expressions, and what the
controller model says of a label key, a condition type or a phase value."""

from __future__ import annotations

from lsprotocol import types as lsp

from wmaplint.jq import words as jqwords
from wmaplint.lsp import controller_facts, format_schema, jqschema
from wmaplint.lsp.snapshot import Snapshot
from wmaplint.lsp.yamlpath import locate
from wmaplint.source import ScalarNode


def _markdown(text: str, rng: lsp.Range) -> lsp.Hover:
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text), range=rng)


def hover(
    snapshot: Snapshot, position: lsp.Position, schemas: jqschema.SchemaLookup | None = None
) -> lsp.Hover | None:
    """Hover text at a position; ``schemas`` (when given) types jq path segments against the CRDs."""
    offset = snapshot.index.offset(position)
    definition = snapshot.definition_at(offset)
    if definition is None:
        return None
    fact = controller_facts.hover(snapshot, offset, definition)
    if fact is not None:
        return fact
    if schemas is not None:
        on_segment = jqschema.hover(snapshot, offset, schemas)
        if on_segment is not None:
            return on_segment
    found = locate(definition.document_node, offset)
    if found is None:
        return None
    if found.key is not None:
        schema = format_schema.schema_at(found.pointer)
        if schema is None:
            return None
        name = str(found.key.value)
        required = format_schema.is_required(found.pointer[:-1], name)
        return _markdown(
            format_schema.field_markdown(name, schema, required), snapshot.index.range(found.key.span)
        )
    node = found.value
    if not isinstance(node, ScalarNode) or not isinstance(node.value, str):
        return None
    schema = format_schema.schema_at(found.pointer)
    if not schema or "x-wmaplint-jq" not in schema:
        return None
    index = jqwords.value_index(snapshot.text, node, offset)
    if index is None:
        return None
    word = jqwords.word_at(node.value, index)
    if word is None:
        return None
    text = jqwords.builtin_markdown(word.name, word.arity)
    if text is None:
        return None
    return _markdown(text, snapshot.index.range(node.span_of(word.start, word.end)))
