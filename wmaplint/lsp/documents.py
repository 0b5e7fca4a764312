"""Open documents as the client edits them: full and incremental changes in the LSP line model.

Lines end at LF, CR LF or CR (`wmaplint.source.lines`), as LSP clients count them, so an incremental edit
after a NEL, U+2028 or U+2029 lands where the client meant it. Columns are UTF-16 code units. Positions past
the end of a line or of the document are clamped, as the protocol asks. Standard library only.
"""

from __future__ import annotations

from typing import Any

from wmaplint.dataclass import dataclass, field
from wmaplint.source.lines import LineIndex


def utf16_len(text: str) -> int:
    """UTF-16 code units of a text (characters above the BMP take two)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def utf16_column(line: str, units: int) -> int:
    """Code points of ``line`` before UTF-16 offset ``units`` (inside a surrogate pair: before the character;
    past the end: the line's length)."""
    if line.isascii():
        return min(units, len(line))
    count = 0
    for index, ch in enumerate(line):
        count += 2 if ord(ch) > 0xFFFF else 1
        if count > units:
            return index
    return len(line)


def offset_of(lines: LineIndex, text: str, line: int, character: int) -> int:
    """Character offset of a 0-based LSP position, clamped to its line and to the text."""
    if line >= lines.line_count:
        return len(text)
    start, stop = lines.line_bounds(line + 1)
    return start + utf16_column(text[start:stop], character)


@dataclass
class TextDocument:
    uri: str
    language_id: str
    version: int | None
    text: str
    _lines: LineIndex | None = field(default=None, repr=False)
    ours: tuple[str, bool] | None = field(default=None, repr=False)  # (text, attach.is_ours) of a version

    @property
    def lines(self) -> LineIndex:
        if self._lines is None:
            self._lines = LineIndex(self.text)
        return self._lines

    def apply(self, change: dict[str, Any]) -> None:
        """One content change (already validated): a range and its new text, or the whole new text."""
        rng = change.get("range")
        if rng is None:
            self.text = change["text"]
        else:
            start = offset_of(self.lines, self.text, rng["start"]["line"], rng["start"]["character"])
            end = offset_of(self.lines, self.text, rng["end"]["line"], rng["end"]["character"])
            start, end = min(start, end), max(start, end)
            self.text = self.text[:start] + change["text"] + self.text[end:]
        self._lines = None
