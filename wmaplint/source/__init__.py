"""Positioned YAML: documents -> nodes with exact spans; offsets inside scalars."""

from wmaplint.diagnostics import Span
from wmaplint.source.loader import FILE_LIMITS, Document, ReadLimits, SourceFile, load_path, load_text
from wmaplint.source.nodes import (
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    SourceText,
    anchor_node,
    content_span,
    find_node,
    iter_nodes,
    to_python,
)
from wmaplint.source.reading import InputError, decode_bytes, read_bytes, read_path, read_stdin


def find_span(document: Document, pointer: tuple[str | int, ...]) -> Span | None:
    """The span of the value at a key path in a document, or None."""
    node = find_node(document.root, pointer)
    return node.span if node is not None else None


__all__ = [
    "FILE_LIMITS", "Document", "InputError", "MappingNode", "Node", "ReadLimits", "ScalarNode",
    "SequenceNode", "SourceFile", "SourceText", "anchor_node", "content_span", "decode_bytes", "find_node",
    "find_span", "iter_nodes", "load_path", "load_text", "read_bytes", "read_path", "read_stdin", "to_python",
]
