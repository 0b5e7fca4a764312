"""The one line model behind every position wmaplint reads or reports: CLI, reporters, fixes, editor.

A line ends at LF, CR LF or a lone CR -- the line breaks of YAML 1.2, JSON and the Language Server Protocol,
and the ones editors count -- and at nothing else. NEL (U+0085), LINE SEPARATOR (U+2028) and PARAGRAPH
SEPARATOR (U+2029) are ordinary characters of their line, one column each. libyaml reads YAML 1.1, where those
three also break lines, and Python's ``str.splitlines`` breaks at even more characters; so positions are never
taken from libyaml's line and column counts when a text holds one of the three, nor from ``splitlines``: they
come from character offsets through this module. (Values are unaffected: inside scalars libyaml folds those
characters as YAML 1.1 says, as Kubernetes' go-yaml does.)
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from operator import add

LINE_BREAK = re.compile(r"\r\n?|\n")
# Characters that end a line for libyaml (YAML 1.1) but not here.
YAML11_ONLY_BREAKS = "\x85\u2028\u2029"


def line_starts(text: str) -> list[int]:
    """Offsets where each line starts; a text that ends with a line break has an empty last line."""
    if "\r" in text:
        starts = [0]
        starts.extend(match.end() for match in LINE_BREAK.finditer(text))
        return starts
    # LF only: C-level passes instead of a loop over the lines (a megabyte CRD has tens of thousands)
    lines = text.split("\n")
    return [0, *map(add, accumulate(map(len, lines)), range(1, len(lines)))]


def split_lines(text: str) -> list[str]:
    """The lines of a text without their line breaks (always at least one, possibly empty)."""
    return LINE_BREAK.split(text) if "\r" in text else text.split("\n")


def has_yaml11_breaks(text: str) -> bool:
    """Whether libyaml's line numbers for this text differ from ours."""
    return any(ch in text for ch in YAML11_ONLY_BREAKS)


class LineIndex:
    """Maps text indices to 1-based (line, column) positions and back; columns count code points."""

    __slots__ = ("_text", "_length", "_starts")

    def __init__(self, text: str) -> None:
        self._text = text
        self._length = len(text)
        self._starts = line_starts(text)

    @property
    def line_count(self) -> int:
        return len(self._starts)

    @property
    def starts(self) -> list[int]:
        return self._starts

    def position(self, index: int) -> tuple[int, int]:
        """(line, column) of the character at `index` (0 <= index <= len(text)); ValueError otherwise."""
        if not 0 <= index <= self._length:
            raise ValueError(f"index {index} is outside the text (length {self._length})")
        line = bisect_right(self._starts, index) - 1
        return line + 1, index - self._starts[line] + 1

    def line_bounds(self, line: int) -> tuple[int, int]:
        """Start and end (before the line break) offsets of 1-based ``line``; ValueError outside the text."""
        if not 1 <= line <= len(self._starts):
            raise ValueError(f"line {line} is outside the text ({len(self._starts)} lines)")
        start = self._starts[line - 1]
        stop = self._starts[line] if line < len(self._starts) else self._length
        while stop > start and self._text[stop - 1] in "\r\n":
            stop -= 1
        return start, stop

    def line_text(self, line: int) -> str:
        """The text of 1-based ``line`` without its line break ("" outside the text)."""
        if not 1 <= line <= len(self._starts):
            return ""
        start, stop = self.line_bounds(line)
        return self._text[start:stop]

    def index(self, line: int, column: int) -> int:
        """Inverse of `position`; a column past the end of the line is clamped to the line's end."""
        start, stop = self.line_bounds(line)
        return min(start + max(column, 1) - 1, stop)
