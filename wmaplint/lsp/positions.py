"""Positions between wmaplint (1-based lines, code-point columns) and LSP (0-based lines, UTF-16 units).

Lines are those of `wmaplint.source.lines` (LF, CR LF, CR), which is also how LSP clients count them.
"""

from __future__ import annotations

from functools import cached_property

from lsprotocol import types as lsp

from wmaplint.diagnostics import Span
from wmaplint.lsp.documents import utf16_column, utf16_len
from wmaplint.source import lines as line_model


class LspPositions:
    """One document's positions both ways: wmaplint's (1-based lines, code-point columns) and LSP's."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._lines = line_model.LineIndex(text)
        self.starts = self._lines.starts
        self.line_count = self._lines.line_count

    @cached_property
    def lines(self) -> list[str]:
        return line_model.split_lines(self.text)

    def line(self, number0: int) -> str:
        """The text of 0-based line ``number0`` without its line break ("" outside the document)."""
        return self._lines.line_text(number0 + 1) if number0 >= 0 else ""

    def position(self, line: int, col: int) -> lsp.Position:
        """LSP position of a 1-based line and code-point column (clamped to the document)."""
        if line < 1:
            return lsp.Position(line=0, character=0)
        if line > self.line_count:
            last = self.line_count - 1
            return lsp.Position(line=last, character=utf16_len(self.line(last)))
        text = self.line(line - 1)
        return lsp.Position(line=line - 1, character=utf16_len(text[: max(0, col - 1)]))

    def range(self, span: Span) -> lsp.Range:
        start = self.position(span.start_line, span.start_col)
        end = self.position(span.end_line, span.end_col)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return lsp.Range(start=start, end=end)

    def column(self, position: lsp.Position) -> int:
        """0-based code-point column of an LSP position on its line."""
        return utf16_column(self.line(position.line), position.character)

    def offset(self, position: lsp.Position) -> int:
        """Code-point offset into the text of an LSP position (clamped to the document)."""
        if position.line >= self.line_count:
            return len(self.text)
        return self.starts[position.line] + self.column(position)
