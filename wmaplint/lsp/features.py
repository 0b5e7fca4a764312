"""The requests the worker answers: their parameter types and what computes each result.

Positions are clamped to the document first (the protocol's rule for a character past the end of a line; a
line past the end means the end of the document), so no feature sees a position outside its text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lsprotocol import types as lsp

from wmaplint.dataclass import dataclass
from wmaplint.lsp import actions, completion, hover, navigation
from wmaplint.lsp.documents import utf16_len
from wmaplint.lsp.snapshot import Snapshot


@dataclass(frozen=True)
class Feature:
    params: type
    compute: Callable[[Any, Snapshot, str, Any], Any]


def clamp(snapshot: Snapshot, position: lsp.Position) -> lsp.Position:
    index = snapshot.index
    line = min(position.line, index.line_count - 1)
    width = utf16_len(index.line(line))
    character = width if position.line > line else min(position.character, width)
    return lsp.Position(line=line, character=character)


def _hover(worker: Any, snapshot: Snapshot, uri: str, params: lsp.HoverParams) -> lsp.Hover | None:
    return hover.hover(snapshot, clamp(snapshot, params.position), worker.schemas_for(snapshot.path))


def _completion(worker: Any, snapshot: Snapshot, uri: str, params: lsp.CompletionParams) -> Any:
    position = clamp(snapshot, params.position)
    items = completion.completions(snapshot, position, worker.schemas_for(snapshot.path))
    return lsp.CompletionList(is_incomplete=False, items=items)


def _definition(worker: Any, snapshot: Snapshot, uri: str, params: lsp.DefinitionParams) -> Any:
    return navigation.definition(snapshot, uri, clamp(snapshot, params.position))


def _symbols(worker: Any, snapshot: Snapshot, uri: str, params: lsp.DocumentSymbolParams) -> Any:
    return navigation.document_symbols(snapshot)


def _code_actions(worker: Any, snapshot: Snapshot, uri: str, params: lsp.CodeActionParams) -> Any:
    return actions.code_actions(snapshot, uri, list(params.context.diagnostics))


FEATURES: dict[str, Feature] = {
    lsp.TEXT_DOCUMENT_HOVER: Feature(lsp.HoverParams, _hover),
    lsp.TEXT_DOCUMENT_COMPLETION: Feature(lsp.CompletionParams, _completion),
    lsp.TEXT_DOCUMENT_DEFINITION: Feature(lsp.DefinitionParams, _definition),
    lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL: Feature(lsp.DocumentSymbolParams, _symbols),
    lsp.TEXT_DOCUMENT_CODE_ACTION: Feature(lsp.CodeActionParams, _code_actions),
}
