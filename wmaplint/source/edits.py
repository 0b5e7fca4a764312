"""Edits that change one thing in a YAML file and keep every other byte.

A fix says what a value should become (a scalar's new text, a key's new name) or which pair a mapping should
gain or lose; these functions find the smallest change of the text that does it, and prove it by reading the
edited text back: it must parse with no new problem and hold exactly the intended result.

A scalar is changed inside its own style: only the source characters that produced the changed part of its
value are replaced (``scalars.decode_with_offsets`` maps value to source), so anchors, tags, block headers,
chomping and indentation indicators, indentation and the line breaks around stay, and a plain scalar stays
plain. When the style cannot hold the new text in place (a plain scalar that would read as a number, a line
break in a folded block), the content after the anchor and tag is rewritten as a plain (for a plain scalar),
then a quoted scalar, the first that reads back right. No edit is offered when none does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from wmaplint.diagnostics import TextEdit
from wmaplint.source.loader import load_text, scalar_reading_at
from wmaplint.source.nodes import (
    DOUBLE,
    FOLDED,
    LITERAL,
    PLAIN,
    SINGLE,
    MappingNode,
    Node,
    ScalarNode,
    SequenceNode,
    SourceText,
    iter_nodes,
    to_python,
)
from wmaplint.source.scalars import decode_with_offsets, skip_properties

__all__ = ["add_flow_pairs", "remove_pair", "replace_scalar"]

_STYLE_CHARS = {PLAIN: None, SINGLE: "'", DOUBLE: '"', LITERAL: "|", FOLDED: ">"}
_BREAKS = "\r\n\x85\u2028\u2029"
_TRAILING = " \t" + _BREAKS

# (start, end, new text, where the edited node ends in the edited text)
_Candidate = tuple[int, int, str, int]


def replace_scalar(node: ScalarNode, new: str) -> TextEdit | None:
    """An edit after which ``node`` reads as the string ``new``, or None when no safe edit exists."""
    source = node.source
    if source is None or (isinstance(node.value, str) and node.text == new):
        return None
    for start, end, insert, node_end in _scalar_candidates(source.text, node, new):
        if _scalar_reads(source, start, end, insert, node, new, node_end):
            return TextEdit(source.span(start, end), insert)
    return None


def _scalar_candidates(text: str, node: ScalarNode, new: str) -> Iterator[_Candidate]:
    content = skip_properties(text, node.start, node.end)
    if isinstance(node.value, str):
        try:
            value, offsets = decode_with_offsets(text, node.start, node.end, _STYLE_CHARS[node.style])
        except ValueError:
            value, offsets = "", []
        if value == node.text:
            tried = set()
            for prefix, suffix in _alignments(value, new):
                in_place = _in_place(text, node, value, offsets, new, prefix, suffix)
                if in_place is not None and in_place not in tried:
                    tried.add(in_place)
                    start, end, insert = in_place
                    yield start, end, insert, node.end + len(insert) - (end - start)
    end = node.end
    if node.style in (LITERAL, FOLDED):  # keep the line break and blank lines after the block
        while end > content and text[end - 1] in _TRAILING:
            end -= 1
    for rendered in _renderings(new, node.style):
        yield content, end, rendered, content + len(rendered)


def _alignments(old: str, new: str) -> list[tuple[int, int]]:
    """(common prefix, common suffix) lengths: the longest prefix first, then the longest suffix first. They
    differ when the change can sit on either side of a repeated character ("a\n" + "b\n" vs "a" + "\nb");
    in a block scalar only one of them may keep the indentation right."""
    limit = min(len(old), len(new))

    def common(a: str, b: str, most: int) -> int:
        n = 0
        while n < most and a[n] == b[n]:
            n += 1
        return n

    prefix = common(old, new, limit)
    suffix = common(old[::-1], new[::-1], limit - prefix)
    suffix_first = common(old[::-1], new[::-1], limit)
    prefix_second = common(old, new, limit - suffix_first)
    return [(prefix, suffix), (prefix_second, suffix_first)]


def _in_place(text: str, node: ScalarNode, old: str, offsets: list[int], new: str, prefix: int, suffix: int
              ) -> tuple[int, int, str] | None:
    """Replace the source of the part of the value that changes, encoded for the scalar's style."""
    piece = new[prefix:len(new) - suffix]
    start, end = offsets[prefix], offsets[len(old) - suffix]
    style = node.style
    if style == DOUBLE:
        return start, end, _double_escaped(piece)
    if "\n" in piece:
        if style != LITERAL:
            return None
        indent = _block_indent(text, old, offsets)
        if indent is None:
            return None
        piece = piece.replace("\n", _line_break(text) + " " * indent)
    if style == SINGLE:
        piece = piece.replace("'", "''")
    return start, end, piece


def _block_indent(text: str, value: str, offsets: list[int]) -> int | None:
    """The content indentation of a block scalar: the column of a value character that starts a line."""
    for i, ch in enumerate(value):
        if ch != "\n" and (i == 0 or value[i - 1] == "\n"):
            at = offsets[i]
            line_start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
            return at - line_start
    return None


def _line_break(text: str) -> str:
    """The file's own line break, for breaks a fix adds."""
    if "\r\n" in text:
        return "\r\n"
    return "\r" if "\r" in text else "\n"


def _renderings(new: str, style: str) -> Iterator[str]:
    """Whole-content rewrites, most like the old style first."""
    if style == PLAIN and not any(ch in new for ch in _BREAKS):
        yield new
    single = "'" + new.replace("'", "''") + "'" if not any(ch in new for ch in _BREAKS) else None
    double = '"' + _double_escaped(new) + '"'
    plain_double = double if double[1:-1] == new else None
    order = [single, double] if style == SINGLE else [plain_double, single, double]
    if style == DOUBLE:
        order = [double]
    seen = set()
    for rendered in order:
        if rendered is not None and rendered not in seen:
            seen.add(rendered)
            yield rendered


def _double_escaped(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif code < 0x20 or 0x7F <= code <= 0x9F or ch in "\u2028\u2029\ufeff":
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return "".join(out)


def _scalar_reads(source: SourceText, start: int, end: int, insert: str, node: ScalarNode, new: str,
                  node_end: int) -> bool:
    """Whether the text with ``insert`` in place of ``start:end`` reads ``node`` as ``new``, ending at
    ``node_end``, and parses with no new problem. The document that holds the node is read on its own first:
    a fix in a file of many documents must not read them all again."""
    text = source.text
    low, high = source.document_around(node.start)
    if low <= start <= end <= high:
        if _reads_on_its_line(source, low, high, start, end, insert, node, new, node_end):
            return True
        window = text[low:start] + insert + text[end:high]
        reading = scalar_reading_at(window, node.start - low)
        if reading is not None and reading[1] is not None:
            read_end, value, repeated = reading
            return read_end == node_end - low and value == new and not repeated
    edited = text[:start] + insert + text[end:]
    after = load_text(edited, source.path)
    if not _no_new_problems(after.problems, source):
        return False
    for document in after.documents:
        if document.root is None:
            continue
        for found in iter_nodes(document.root):
            if isinstance(found, ScalarNode) and found.start == node.start:
                return found.end == node_end and isinstance(found.value, str) and found.value == new
    return False


def _reads_on_its_line(source: SourceText, low: int, high: int, start: int, end: int, insert: str,
                       node: ScalarNode, new: str, node_end: int) -> bool:
    """Whether the edited document, read only up to the end of the edited scalar's line, reads the scalar as
    the value ``new`` ending at ``node_end``; False when that does not tell (then the whole document is read).

    It tells for a scalar value on one line, edited without a line break, in a document that composed whole:
    the text before the edit is the same, and a value token that reads the same kind of scalar ending at the
    same place leaves the scanner, parser and composer as they were, so the rest of the document, unchanged,
    reads as it did (on the same line: it is in the text read). A mapping key is not told this way, since a
    repeat of it among its later siblings would make it read differently. Reading the document only up to the
    scalar's line is several times cheaper in a large document than reading it whole."""
    text = source.text
    if not source.composed or node.style not in (PLAIN, SINGLE, DOUBLE):
        return False
    if _break_in(text, node.start, node.end) or _break_in(insert, 0, len(insert)):
        return False
    cut = _line_end(text, end, high)
    window = text[low:start] + insert + text[end:cut]
    reading = scalar_reading_at(window, node.start - low, keys=False)
    if reading is None or reading[1] is None:
        return False
    read_end, value, _ = reading
    return read_end == node_end - low and value == new


def _break_in(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` holds a line break, as YAML 1.1 (libyaml) counts them too."""
    return any(text.find(ch, start, end) >= 0 for ch in _BREAKS)


def _line_end(text: str, start: int, high: int) -> int:
    """Where the line holding ``start`` ends (its first line break, as libyaml counts them), at most
    ``high``."""
    found = [at for at in (text.find(ch, start, high) for ch in _BREAKS) if at >= 0]
    return min(found) if found else high


def _no_new_problems(problems: list[Any], source: SourceText) -> bool:
    return not problems or len(problems) <= len(load_text(source.text, source.path).problems)


# ------------------------------------------------------------------------------------------- mapping pairs
def remove_pair(mapping: MappingNode, key: ScalarNode) -> TextEdit | None:
    """An edit that removes ``key`` and its value from ``mapping`` (its whole lines in a block mapping, the
    pair and one separating comma in a flow mapping), or None."""
    source = key.source
    index = next((i for i, (k, _) in enumerate(mapping.pairs) if k is key), None)
    if source is None or index is None:
        return None
    text = source.text
    value = mapping.pairs[index][1]
    if _is_flow(text, mapping):
        if index > 0:
            start, end = _node_end(text, mapping.pairs[index - 1][1]), _node_end(text, value)
        elif len(mapping.pairs) > 1:
            start, end = key.start, mapping.pairs[1][0].start
        else:
            start, end = key.start, _node_end(text, value)
    else:
        start = max(text.rfind("\n", 0, key.start), text.rfind("\r", 0, key.start)) + 1
        line_end = _line_end_after(text, _node_end(text, value))
        if text[start:key.start].strip(" \t") or line_end is None:
            return None  # something else shares the line (a "- " of a sequence item, another node)
        end = line_end

    def expected(data: dict[str, Any]) -> None:
        del data[str(key.value)]

    return _mapping_edit(source, mapping, start, end, "", expected)


def add_flow_pairs(mapping: MappingNode, pairs: list[tuple[str, str]]) -> TextEdit | None:
    """An edit that appends ``key: value`` pairs (plain text, as given) to a non-empty flow mapping, or
    None."""
    source = mapping.pairs[0][0].source if mapping.pairs else None
    if source is None or not _is_flow(source.text, mapping):
        return None
    at = _node_end(source.text, mapping.pairs[-1][1])
    insert = "".join(f", {k}: {v}" for k, v in pairs)

    def expected(data: dict[str, Any]) -> None:
        data.update(pairs)

    return _mapping_edit(source, mapping, at, at, insert, expected)


def _is_flow(text: str, mapping: MappingNode) -> bool:
    return text[mapping.start:mapping.start + 1] == "{"


def _node_end(text: str, node: Node) -> int:
    """Where a node's own text ends (a block scalar's node also spans the line breaks after it)."""
    end = node.end
    if isinstance(node, ScalarNode) and node.style in (LITERAL, FOLDED):
        while end > node.start and text[end - 1] in _TRAILING:
            end -= 1
    return end


def _line_end_after(text: str, pos: int) -> int | None:
    """The start of the next line when only blanks or a comment follow ``pos`` on its line, else None."""
    i = pos
    while i < len(text) and text[i] in " \t":
        i += 1
    if i < len(text) and text[i] == "#":
        while i < len(text) and text[i] not in "\r\n":
            i += 1
    if i < len(text) and text[i] not in "\r\n":
        return None
    if text.startswith("\r\n", i):
        return i + 2
    return min(i + 1, len(text))


def _mapping_edit(source: SourceText, mapping: MappingNode, start: int, end: int, insert: str,
                  expected: Callable[[dict[str, Any]], None]) -> TextEdit | None:
    """The edit, when the edited text reads as every document did with ``expected`` applied to the data of
    ``mapping``."""
    before = load_text(source.text, source.path)
    wanted: list[Any] = []
    changed = False
    for document in before.documents:
        data = to_python(document.root)
        pointer = _pointer_to(document.root, mapping)
        if pointer is not None:
            target = data
            for part in pointer:
                target = target[part]
            expected(target)
            changed = True
        wanted.append(data)
    if not changed:
        return None
    after = load_text(source.text[:start] + insert + source.text[end:], source.path)
    if len(after.problems) > len(before.problems) or [to_python(d.root) for d in after.documents] != wanted:
        return None
    return TextEdit(source.span(start, end), insert)


def _pointer_to(root: Node | None, target: MappingNode) -> tuple[str | int, ...] | None:
    """The key path of a mapping equal in place to ``target`` (same start and end) in a freshly read
    document."""
    if root is None:
        return None
    stack: list[tuple[Node, tuple[str | int, ...]]] = [(root, ())]
    while stack:
        node, pointer = stack.pop()
        if isinstance(node, MappingNode):
            if node.start == target.start and node.end == target.end:
                return pointer
            stack.extend((v, (*pointer, k.value if isinstance(k.value, str) else str(k.value)))
                         for k, v in node.pairs)
        elif isinstance(node, SequenceNode):
            stack.extend((item, (*pointer, i)) for i, item in enumerate(node.items))
    return None
