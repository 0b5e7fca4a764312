"""Decode YAML scalars while remembering where every character of the value came from.

jq expressions live inside YAML scalars; a finding at character k of the decoded value has to be reported at
the file position that produced it.  `decode_with_offsets` re-implements the scalar rules of the YAML reader
that wmaplint composes with (libyaml through PyYAML's CSafeLoader) -- escapes, quote doubling, line folding,
block indentation and chomping -- and records for each value character the index of its source character.

Indices are code-point offsets into the text handed to the composer, which is what libyaml's marks count (a
byte order mark is not counted by libyaml, so callers strip it before composing).
"""

from __future__ import annotations

import re

import yaml

from wmaplint.source.lines import LineIndex  # re-exported: the one line model

__all__ = ["LineIndex", "decode_with_offsets", "skip_properties"]

# Line breaks as libyaml reads them inside scalars.  CR LF, CR, LF and NEL become "\n"; LS and PS are kept.
_BREAK_CHARS = "\r\n\x85\u2028\u2029"
_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")
_BLANKS = re.compile(r"[ \t]*")
_SPACES = re.compile(r" *")
# Runs copied verbatim: everything up to the next break (plain), quote (single) or quote/backslash (double).
_PLAIN_RUN = re.compile(r"[^\r\n\x85\u2028\u2029]+")
_SINGLE_RUN = re.compile(r"[^'\r\n\x85\u2028\u2029]+")
_DOUBLE_RUN = re.compile(r'[^"\\\r\n\x85\u2028\u2029]+')
_PROPERTY_STOP = frozenset(" \t,[]{}" + _BREAK_CHARS)
_HEX = re.compile(r"[0-9A-Fa-f]*")

_SIMPLE_ESCAPES = {
    "0": "\x00", "a": "\x07", "b": "\x08", "t": "\t", "\t": "\t", "n": "\n", "v": "\x0b", "f": "\x0c",
    "r": "\r", "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0",
    "L": "\u2028", "P": "\u2029",
}
_HEX_ESCAPE_LENGTHS = {"x": 2, "u": 4, "U": 8}

_Break = tuple[int, int, str]  # (index of the break, its length in the text, the character it reads as)


def _break_at(text: str, pos: int, limit: int) -> _Break | None:
    """The line break starting at `pos`, if any (CR LF only when both characters are before `limit`)."""
    if pos >= limit:
        return None
    ch = text[pos]
    if ch == "\r":
        if pos + 1 < limit and text[pos + 1] == "\n":
            return (pos, 2, "\n")
        return (pos, 1, "\n")
    if ch == "\n" or ch == "\x85":
        return (pos, 1, "\n")
    if ch == "\u2028" or ch == "\u2029":
        return (pos, 1, ch)
    return None


class _Builder:
    """Collects value pieces together with the source index of each character."""

    __slots__ = ("parts", "offsets", "end")

    def __init__(self, content_start: int) -> None:
        self.parts: list[str] = []
        self.offsets: list[int] = []
        self.end = content_start  # index just after the last source character that produced output

    def copy(self, text: str, start: int, stop: int) -> None:
        if stop > start:
            self.parts.append(text[start:stop])
            self.offsets.extend(range(start, stop))
            self.end = stop

    def char(self, ch: str, source: int, source_end: int) -> None:
        self.parts.append(ch)
        self.offsets.append(source)
        self.end = source_end

    def line_break(self, brk: _Break) -> None:
        self.char(brk[2], brk[0], brk[0] + brk[1])

    def fold(self, leading: _Break | None, trailing: list[_Break]) -> None:
        """Join two lines the way flow scalars do: a lone "\\n"-like break reads as a space, further breaks
        as themselves; an LS/PS leading break is kept; after an escaped break (no leading break) only the
        trailing breaks count."""
        if leading is not None and leading[2] == "\n":
            if not trailing:
                self.char(" ", leading[0], leading[0] + leading[1])
        elif leading is not None:
            self.line_break(leading)
        for brk in trailing:
            self.line_break(brk)

    def result(self) -> tuple[str, list[int]]:
        value = "".join(self.parts)
        self.offsets.append(self.end)
        return value, self.offsets


def skip_properties(text: str, pos: int, end: int) -> int:
    """Skip a node's anchor and tag (libyaml starts the node at them) and the blanks, breaks and comments that
    may follow them."""
    while pos < end and text[pos] in "&!":
        if text.startswith("!<", pos):
            close = text.find(">", pos, end)
            pos = end if close < 0 else close + 1
        else:
            pos += 1
            while pos < end and text[pos] not in _PROPERTY_STOP:
                pos += 1
        pos = _skip_separation(text, pos, end)
    return min(pos, end)


def _skip_separation(text: str, pos: int, end: int) -> int:
    while pos < end:
        ch = text[pos]
        if ch in " \t" or ch in _BREAK_CHARS:
            pos += 1
        elif ch == "#":
            while pos < end and text[pos] not in _BREAK_CHARS:
                pos += 1
        else:
            break
    return pos


def _fold_breaks(text: str, pos: int, limit: int) -> tuple[list[_Break], int]:
    """Read the blank lines after a line break: returns the breaks and the position of the next content."""
    breaks: list[_Break] = []
    while True:
        pos = _BLANKS.match(text, pos, limit).end()  # type: ignore[union-attr]  # matches the empty string: never None
        brk = _break_at(text, pos, limit)
        if brk is None:
            return breaks, pos
        breaks.append(brk)
        pos += brk[1]


def _decode_plain(text: str, start: int, end: int) -> tuple[str, list[int]]:
    out = _Builder(start)
    pos = start
    while pos < end:
        run = _PLAIN_RUN.match(text, pos, end)
        if run is None:
            raise ValueError(f"unexpected line break at index {pos} at the start of a plain scalar line")
        stop = run.end()
        if stop >= end:
            out.copy(text, pos, stop)
            break
        # A break follows: blanks before it do not belong to the value.
        out.copy(text, pos, len(text[pos:stop].rstrip(" \t")) + pos)
        leading = _break_at(text, stop, end)
        assert leading is not None
        trailing, pos = _fold_breaks(text, stop + leading[1], end)
        if pos >= end:
            raise ValueError("plain scalar ends in a line break")
        out.fold(leading, trailing)
    return out.result()


def _decode_quoted(text: str, start: int, end: int, double: bool) -> tuple[str, list[int]]:
    quote = '"' if double else "'"
    if start >= end or text[start] != quote:
        raise ValueError(f"expected {quote} at index {start}")
    run_pattern = _DOUBLE_RUN if double else _SINGLE_RUN
    out = _Builder(start + 1)
    pos = start + 1
    while True:
        run = run_pattern.match(text, pos, end)
        if run is not None:
            stop = run.end()
            if _break_at(text, stop, end) is not None:
                out.copy(text, pos, len(text[pos:stop].rstrip(" \t")) + pos)
            else:
                out.copy(text, pos, stop)
            pos = stop
        if pos >= end:
            raise ValueError(f"unterminated quoted scalar starting at index {start}")
        ch = text[pos]
        if ch == quote:
            if not double and pos + 1 < end and text[pos + 1] == "'":
                out.char("'", pos, pos + 2)
                pos += 2
                continue
            if pos + 1 != end:
                raise ValueError(f"quoted scalar closes at index {pos}, before its end {end}")
            return out.result()
        if ch == "\\":
            pos = _decode_escape(text, pos, end, out)
            continue
        leading = _break_at(text, pos, end)
        assert leading is not None
        trailing, pos = _fold_breaks(text, pos + leading[1], end)
        out.fold(leading, trailing)


def _decode_escape(text: str, pos: int, end: int, out: _Builder) -> int:
    """Decode the escape sequence at `pos` (a backslash) into `out`; return the position after it."""
    if pos + 1 >= end:
        raise ValueError(f"unterminated escape sequence at index {pos}")
    code = text[pos + 1]
    brk = _break_at(text, pos + 1, end)
    if brk is not None:
        # An escaped line break joins the lines without a space; only blank lines in between produce output.
        trailing, after = _fold_breaks(text, pos + 1 + brk[1], end)
        out.fold(None, trailing)
        return after
    simple = _SIMPLE_ESCAPES.get(code)
    if simple is not None:
        out.char(simple, pos, pos + 2)
        return pos + 2
    length = _HEX_ESCAPE_LENGTHS.get(code)
    if length is None:
        raise ValueError(f"unknown escape character {code!r} at index {pos}")
    digits = text[pos + 2:pos + 2 + length]
    if len(digits) != length or _HEX.fullmatch(digits) is None or pos + 2 + length > end:
        raise ValueError(f"escape at index {pos} needs {length} hexadecimal digits")
    value = int(digits, 16)
    if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        raise ValueError(f"escape at index {pos} is not a Unicode scalar value")
    out.char(chr(value), pos, pos + 2 + length)
    return pos + 2 + length


class _IndentFound(Exception):
    def __init__(self, indent: int) -> None:
        self.indent = indent


class _IndentProbe(yaml.reader.Reader, yaml.scanner.Scanner):
    """Scans tokens until the block scalar at `target` and reports the enclosing block indentation there
    (the value an indentation indicator is relative to)."""

    def __init__(self, stream: str, target: int) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        self.target = target

    def scan_block_scalar(self, style):  # type: ignore[no-untyped-def]  # overrides PyYAML's, unannotated
        if self.index == self.target:
            raise _IndentFound(self.indent)
        return super().scan_block_scalar(style)


def _document_start(text: str, before: int) -> int:
    """Start of the line holding the last document marker (--- or ...) before `before`, else 0.

    A marker at column 0 ends whatever scalar or collection precedes it, so scanning can restart there."""
    best = 0
    for marker in ("---", "..."):
        pos = text.rfind(marker, 0, before)
        while pos > 0:
            after = pos + 3
            if text[pos - 1] in "\r\n" and (after >= len(text) or text[after] in " \t\r\n"):
                break
            pos = text.rfind(marker, 0, pos)
        best = max(best, pos)
    return best


def _enclosing_indent(text: str, header: int) -> int | None:
    """The block indentation (libyaml's parser indent) in force at the block scalar header at `header`."""
    base = _document_start(text, header)
    probe = _IndentProbe(text[base:header + 1], header - base)
    try:
        while probe.check_token():
            probe.get_token()  # type: ignore[no-untyped-call]  # PyYAML's stubs leave it unannotated
    except _IndentFound as found:
        return found.indent
    except yaml.YAMLError:
        return None
    return None


def _decode_block(text: str, start: int, end: int, folded: bool) -> tuple[str, list[int]]:
    header = start
    indicator = "|>"[folded]
    if header >= len(text) or text[header] != indicator:
        raise ValueError(f"expected {indicator!r} at index {header}")
    pos = header + 1
    chomping = 0
    increment = 0
    for _ in range(2):
        if pos < len(text) and text[pos] in "+-" and chomping == 0:
            chomping = 1 if text[pos] == "+" else -1
            pos += 1
        elif pos < len(text) and text[pos] in "123456789" and increment == 0:
            increment = int(text[pos])
            pos += 1
    pos = _BLANKS.match(text, pos).end()  # type: ignore[union-attr]  # matches the empty string: never None
    if pos < len(text) and text[pos] == "#":
        while pos < len(text) and text[pos] not in _BREAK_CHARS:
            pos += 1
    brk = _break_at(text, pos, len(text))
    if brk is None and pos < len(text):
        raise ValueError(f"block scalar header at index {header} is not followed by a line break")
    body = pos + (brk[1] if brk else 0)

    indent: int | None = None
    if increment:
        parent = _enclosing_indent(text, header)
        if parent is None:
            # Fall back to the indentation of the least indented content line.
            parent = _least_content_indent(text, body, end) - increment
        indent = parent + increment if parent >= 0 else increment

    out = _Builder(body)
    trailing, pos, column, max_indent = _block_breaks(text, body, indent)
    if indent is None:
        # The first content line sets the indentation.  Whether it belongs to this scalar at all (rather than
        # ending it) depends on the enclosing indentation, which the node's end mark already tells.
        if pos < end:
            if column != max_indent or column < 1:
                raise ValueError(f"inconsistent indentation in the block scalar at index {header}")
            indent = column
        else:
            indent = -1

    leading: _Break | None = None
    leading_blank = False
    while pos < len(text) and column == indent:
        trailing_blank = text[pos] in " \t"
        if folded and leading is not None and leading[2] == "\n" and not leading_blank and not trailing_blank:
            if not trailing:
                out.char(" ", leading[0], leading[0] + leading[1])
        elif leading is not None:
            out.line_break(leading)
        leading = None
        for item in trailing:
            out.line_break(item)
        leading_blank = trailing_blank
        run = _PLAIN_RUN.match(text, pos)
        stop = run.end() if run is not None else pos
        out.copy(text, pos, stop)
        leading = _break_at(text, stop, len(text))
        pos = stop + (leading[1] if leading else 0)
        trailing, pos, column, _ = _block_breaks(text, pos, indent)
    if chomping != -1 and leading is not None:
        out.line_break(leading)
    if chomping == 1:
        for item in trailing:
            out.line_break(item)
    return out.result()


def _block_breaks(text: str, pos: int, indent: int | None) -> tuple[list[_Break], int, int, int]:
    """Read indentation and empty lines of a block scalar from the start of a line.

    Returns the breaks read, the position and column where the next line's content starts (at the
    indentation, or where a less indented line starts) and the largest indentation seen (used while it is
    still unknown)."""
    breaks: list[_Break] = []
    max_indent = 0
    size = len(text)
    while True:
        line_start = pos
        limit = size if indent is None else min(size, line_start + indent)
        pos = _SPACES.match(text, pos, limit).end()  # type: ignore[union-attr]  # matches the empty string: never None
        column = pos - line_start
        max_indent = max(max_indent, column)
        if pos < size and text[pos] == "\t" and (indent is None or column < indent):
            raise ValueError(f"tab character where an indentation space is expected at index {pos}")
        brk = _break_at(text, pos, size)
        if brk is None:
            return breaks, pos, column, max_indent
        breaks.append(brk)
        pos += brk[1]


def _least_content_indent(text: str, body: int, end: int) -> int:
    least: int | None = None
    for line in _BREAK.split(text[body:end]):
        stripped = line.lstrip(" ")
        if stripped:
            least = len(line) - len(stripped) if least is None else min(least, len(line) - len(stripped))
    return least if least is not None else 1


def decode_with_offsets(text: str, start: int, end: int, style: str | None) -> tuple[str, list[int]]:
    """Decode the scalar text[start:end] as YAML does; return (value, offsets).

    `start`/`end` are a scalar node's start_mark.index / end_mark.index and `style` its style (None or ''
    plain, "'", '"', '|', '>').  `offsets` has len(value) + 1 entries: offsets[i] is the index in `text` of
    the source character that produced value[i] (the first character of an escape sequence; the line break for
    a folded space or newline), and the last entry is the index just after the last source character that
    produced the value (for an empty value, the index where the content starts).  Raises ValueError when the
    text is not a scalar of that style."""
    if not 0 <= start <= end <= len(text):
        raise ValueError(f"scalar range {start}..{end} is outside the text")
    pos = skip_properties(text, start, end)
    if style is None or style == "":
        return _decode_plain(text, pos, end)
    if style == "'" or style == '"':
        return _decode_quoted(text, pos, end, style == '"')
    if style == "|" or style == ">":
        return _decode_block(text, pos, end, style == ">")
    raise ValueError(f"unknown scalar style {style!r}")
