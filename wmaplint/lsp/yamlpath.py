"""Where the cursor is in a YAML document: a key path from the text (works while typing) or from the tree."""

from __future__ import annotations

import re

from wmaplint.dataclass import dataclass
from wmaplint.source import MappingNode, Node, ScalarNode, SequenceNode

Step = str | int
MAX_SCAN_LINES = 5000  # upward scan limit, so a huge file cannot stall a completion request

_KEY = re.compile(r"""^(?P<key>"[^"]*"|'[^']*'|[^\s#'"{\[][^:#]*?)\s*:(?:\s|$)""")


@dataclass
class LineShape:
    indent: int  # column of the first non-space character
    dashes: int  # "- " list markers at the start
    key_col: int  # column where the content after the dashes starts
    key: str | None  # the mapping key that starts the content, if any
    rest: str  # text after "key:" (stripped), or the whole content


def line_shape(line: str) -> LineShape | None:
    """The structure of one block-style YAML line; None for blank, comment and document-marker lines."""
    stripped = line.lstrip(" ")
    if not stripped or stripped.startswith("#") or line.startswith(("---", "...")):
        return None
    indent = len(line) - len(stripped)
    col, dashes = indent, 0
    while line.startswith("- ", col) or line[col:] == "-":
        dashes += 1
        col += 2
        while col < len(line) and line[col] == " ":
            col += 1
    content = line[col:]
    match = _KEY.match(content)
    if match is None:
        return LineShape(indent, dashes, col, None, content.strip())
    key = match.group("key").strip()
    if key[:1] in "\"'":
        key = key[1:-1]
    return LineShape(indent, dashes, col, key, content[match.end() :].strip())


def _opens_block(rest: str) -> bool:
    """Whether the text after ``key:`` leaves the value to the following lines as a collection."""
    rest = rest.split(" #", 1)[0].strip() if not rest.startswith("#") else ""
    return all(part.startswith(("&", "!")) for part in rest.split())


def mapping_path(lines: list[str], line0: int, column: int) -> tuple[list[Step], list[str]] | None:
    """Key path (from the document root) of the block mapping whose keys start at ``column`` on ``line0``,
    and the sibling keys already present above the line. None when the line is not inside block-style
    YAML we can follow (flow collections, block scalars)."""
    reversed_path: list[Step] = []
    siblings: list[str] = []
    target, list_col, in_list = column, -1, False
    current = line_shape(lines[line0]) if 0 <= line0 < len(lines) else None
    if current is not None and current.dashes == 1 and current.key_col == column:
        reversed_path.append(0)
        in_list, list_col = True, current.indent
    first_level = not in_list
    lowest = max(-1, line0 - MAX_SCAN_LINES)
    for i in range(line0 - 1, lowest, -1):
        line = lines[i]
        if line.startswith(("---", "...")):
            break
        shape = line_shape(line)
        if shape is None:
            continue
        if not in_list:
            if shape.key_col > target or (shape.key_col == target and shape.key is None):
                continue
            if shape.key_col == target:
                if first_level:
                    siblings.append(str(shape.key))
                if shape.dashes:
                    if shape.dashes > 1:
                        return None
                    reversed_path.append(0)
                    in_list, list_col, first_level = True, shape.indent, False
                continue
            owner_ok = shape.key is not None and _opens_block(shape.rest)
        else:
            if shape.indent > list_col or (shape.dashes and shape.indent == list_col):
                continue
            owner_ok = shape.key is not None and _opens_block(shape.rest) and shape.key_col <= list_col
        if not owner_ok or shape.dashes > 1:
            return None
        first_level = False
        reversed_path.append(str(shape.key))
        if shape.dashes:
            reversed_path.append(0)
            in_list, list_col = True, shape.indent
        else:
            in_list, target = False, shape.key_col
    if in_list or target != 0:
        return None
    reversed_path.reverse()
    return reversed_path, siblings


@dataclass
class Located:
    pointer: tuple[Step, ...]  # key path of the value (or of the key's value when on a key)
    key: ScalarNode | None  # set when the offset is on a mapping key
    value: Node | None  # the innermost node holding the offset


def locate(root: Node | None, offset: int) -> Located | None:
    """The innermost node at a text offset, with its key path (iterative; depth-safe)."""
    if root is None or not (root.start <= offset <= root.end):
        return None
    pointer: list[Step] = []
    node: Node = root
    while True:
        if isinstance(node, MappingNode):
            nxt = None
            for key, value in node.pairs:
                if key.start <= offset <= key.end and key.end > key.start:
                    return Located((*pointer, str(key.value)), key, None)
                if value.start <= offset <= value.end and (value.end > value.start or value.start == offset):
                    nxt = (str(key.value), value)
                    break
            if nxt is None:
                return Located(tuple(pointer), None, node)
            pointer.append(nxt[0])
            node = nxt[1]
        elif isinstance(node, SequenceNode):
            found = None
            for index, item in enumerate(node.items):
                if item.start <= offset <= item.end:
                    found = (index, item)
                    break
            if found is None:
                return Located(tuple(pointer), None, node)
            pointer.append(found[0])
            node = found[1]
        else:
            return Located(tuple(pointer), None, node)
