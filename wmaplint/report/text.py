"""Human-readable output: one header line per finding, the source line with an underline, notes, help.

    defs/jobset.yaml:12:27: error: unknown field "replicaz" [WMnnn rule-name]
       12 |       replicasPath: .spec.replicaz
          |                           ^~~~~~~~
      note: crds/jobset.yaml:40:9: JobSet.spec is defined here
      help: replace with "replicas"

The header's column counts UTF-16 code units, as in every other output (``report/common.py``). The underline
is computed in display cells: tabs expand to the next multiple of four, East Asian wide characters take two
cells and combining marks none, so the caret stays under the token in a terminal.
Control characters from the file or the message are shown as visible escapes, never sent raw.
"""

from __future__ import annotations

import unicodedata

from wmaplint.diagnostics import CheckOutcome, Diagnostic, Severity
from wmaplint.report.common import (
    SourceLines,
    count,
    output_span,
    related_where,
    sorted_diagnostics,
    summary_line,
)

TAB_WIDTH = 4
# Long lines (minified JSON, generated YAML) are shown as a window around the span.
MAX_SHOWN = 200
CONTEXT_BEFORE = 60

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_SEVERITY_STYLE = {
    Severity.ERROR: "\x1b[1;31m",
    Severity.WARNING: "\x1b[1;33m",
    Severity.INFO: "\x1b[1;36m",
}
_GUTTER_STYLE = "\x1b[1;34m"
_NOTE_STYLE = "\x1b[1;36m"
_HELP_STYLE = "\x1b[1;32m"
_DIM = "\x1b[2m"


class _Painter:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, style: str, text: str) -> str:
        if not self.color or not text:
            return text
        return f"{style}{text}{_RESET}"


def _visible(ch: str) -> str:
    """A printable stand-in for a control character (terminal escapes must not reach the terminal)."""
    code = ord(ch)
    if code < 0x20 or 0x7F <= code < 0xA0:
        return f"\\x{code:02x}"
    return ch


def _cell_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    return 1


def layout_line(line: str) -> tuple[str, list[int]]:
    """Render ``line`` for a terminal and give the display cell where each code point starts.

    The returned list has one entry per code point plus one for the end of the line.
    """
    pieces: list[str] = []
    starts: list[int] = []
    cell = 0
    for ch in line:
        starts.append(cell)
        if ch == "\t":
            width = TAB_WIDTH - cell % TAB_WIDTH
            pieces.append(" " * width)
        else:
            shown = _visible(ch)
            width = len(shown) if shown != ch else _cell_width(ch)
            pieces.append(shown)
        cell += width
    starts.append(cell)
    return "".join(pieces), starts


def underline(line: str, start_col: int, end_col: int | None) -> tuple[str, str]:
    """The displayed line and its underline for code-point columns ``start_col`` to ``end_col`` (exclusive).

    ``end_col`` None means "to the end of the line" (the first line of a multi-line span). The underline
    is at least one caret wide, even for an empty span or one that points past the end of the line.
    A line longer than ``MAX_SHOWN`` code points is cut to a window around the span, marked with ``…``.
    """
    last = len(line) + 1
    first = min(max(start_col, 1), last)
    stop = last if end_col is None else min(max(end_col, first), last)
    cut_left = cut_right = 0
    if len(line) > MAX_SHOWN:
        cut_left = max(0, first - 1 - CONTEXT_BEFORE)
        cut_right = min(len(line), cut_left + MAX_SHOWN)
        line = line[cut_left:cut_right]
        first -= cut_left
        stop = min(stop - cut_left, len(line) + 1)
    shown, starts = layout_line(line)
    begin_cell = starts[first - 1]
    width = max(starts[stop - 1] - begin_cell, 1)
    if cut_left:
        shown, begin_cell = "\u2026" + shown, begin_cell + 1
    if cut_right and cut_right < last - 1:
        shown += "\u2026"
    return shown, " " * begin_cell + "^" + "~" * (width - 1)


def _clean_message(message: str) -> str:
    lines = message.splitlines() or [""]
    cleaned = ["".join(_visible(ch) if ch != "\t" else " " for ch in text) for text in lines]
    return "\n    ".join(cleaned)


def _render_one(diagnostic: Diagnostic, lines: SourceLines, paint: _Painter) -> list[str]:
    severity = Severity(diagnostic.severity)
    span = diagnostic.span
    tag = f"{diagnostic.rule} {diagnostic.name}".strip()
    column = output_span(lines, diagnostic.path, span).start_col
    header = (
        paint(_BOLD, f"{diagnostic.path}:{span.start_line}:{column}:")
        + " "
        + paint(_SEVERITY_STYLE[severity], severity.label + ":")
        + " "
        + paint(_BOLD, _clean_message(diagnostic.message))
        + " "
        + paint(_DIM, f"[{tag}]")
    )
    out = [header]
    source_line = lines.line(diagnostic.path, span.start_line)
    if source_line is not None:
        end_col = span.end_col if span.end_line == span.start_line else None
        shown, marks = underline(source_line, span.start_col, end_col)
        number = str(span.start_line)
        out.append(paint(_GUTTER_STYLE, f"  {number} |") + (" " + shown if shown else ""))
        indent = len(marks) - len(marks.lstrip(" "))
        gutter = paint(_GUTTER_STYLE, f"  {' ' * len(number)} |")
        out.append(f"{gutter} {' ' * indent}{paint(_SEVERITY_STYLE[severity], marks[indent:])}")
    for related in diagnostic.related:
        where = related_where(related, lines)
        out.append(f"  {paint(_NOTE_STYLE, 'note:')} {where}: {_clean_message(related.message)}")
    for fix in diagnostic.fixes:
        description = fix.description
        if not description and len(fix.edits) == 1:
            description = f"replace with {fix.edits[0].new_text!r}"
        out.append(f"  {paint(_HELP_STYLE, 'help:')} {_clean_message(description)}")
    return out


def render_text(report: CheckOutcome, *, color: bool = False) -> str:
    paint = _Painter(color)
    lines = SourceLines(report.sources)
    blocks = ["\n".join(_render_one(d, lines, paint)) for d in sorted_diagnostics(report.diagnostics)]
    summary = paint(_BOLD, summary_line(count(report)))
    return "\n\n".join([*blocks, summary]) + "\n"
