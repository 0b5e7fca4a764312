"""Positions between wmaplint (1-based lines, code-point columns) and LSP (0-based lines, UTF-16 units)."""

from __future__ import annotations

from lsprotocol import types as lsp

from wmaplint.diagnostics import Span


def split_lines(text: str) -> list[str]:
    """Lines without terminators; `\\r\\n`, `\\n` and a lone `\\r` all end a line (as in YAML and LSP)."""
    lines: list[str] = []
    start = 0
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n" or ch == "\r":
            lines.append(text[start:i])
            if ch == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
            start = i + 1
        i += 1
    lines.append(text[start:])
    return lines


def utf16_len(text: str) -> int:
    # characters above the BMP take two UTF-16 code units
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class LineIndex:
    """One document's lines, for converting positions both ways."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines = split_lines(text)
        self.starts: list[int] = []
        offset = 0
        for line in self.lines:
            self.starts.append(offset)
            offset += len(line)
            if offset < len(text):  # skip the terminator (one or two characters)
                offset += 2 if text.startswith("\r\n", offset) else 1

    def line(self, number0: int) -> str:
        return self.lines[number0] if 0 <= number0 < len(self.lines) else ""

    def position(self, line: int, col: int) -> lsp.Position:
        """LSP position of a 1-based line and code-point column (clamped to the document)."""
        if line < 1:
            return lsp.Position(line=0, character=0)
        if line > len(self.lines):
            last = len(self.lines) - 1
            return lsp.Position(line=last, character=utf16_len(self.lines[last]))
        text = self.lines[line - 1]
        return lsp.Position(line=line - 1, character=utf16_len(text[: max(0, col - 1)]))

    def range(self, span: Span) -> lsp.Range:
        start = self.position(span.start_line, span.start_col)
        end = self.position(span.end_line, span.end_col)
        if (end.line, end.character) < (start.line, start.character):
            end = start
        return lsp.Range(start=start, end=end)

    def column(self, position: lsp.Position) -> int:
        """0-based code-point column of an LSP position on its line (a split surrogate pair rounds down)."""
        text = self.line(position.line)
        units = 0
        for index, ch in enumerate(text):
            width = 2 if ord(ch) > 0xFFFF else 1
            if units + width > position.character:
                return index
            units += width
        return len(text)

    def offset(self, position: lsp.Position) -> int:
        """Code-point offset into the text of an LSP position."""
        if position.line >= len(self.lines):
            return len(self.text)
        return self.starts[position.line] + self.column(position)
