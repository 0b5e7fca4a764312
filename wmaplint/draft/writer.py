"""YAML text written by hand, in the catalog's style, so that comments survive.

A document is built from :class:`Map`, :class:`Seq` and plain Python scalars; entries and items carry comment
lines written above them. Short mappings and lists are written in flow style when asked (``flow=True``) and
they fit; long strings are folded (``>-``). :func:`render` reads its own text back and refuses to return text
whose data differs from what was built.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Union

import yaml

from wmaplint import memo
from wmaplint.dataclass import dataclass, field

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

WIDTH = 110
INDENT = 2

Node = Union["Map", "Seq", str, int, bool, None]


@dataclass
class Entry:
    """A key and its value; an entry without a key is only its comments (about a field left out)."""

    key: str | None
    value: Node
    comments: list[str] = field(default_factory=list)


@dataclass
class Map:
    entries: list[Entry] = field(default_factory=list)
    flow: bool = False

    def add(self, key: str, value: Node, *comments: str) -> Map:
        self.entries.append(Entry(key, value, [c for c in comments if c]))
        return self

    def note(self, *comments: str) -> Map:
        """Comment lines where a field would be, for one left out."""
        self.entries.append(Entry(None, None, list(comments)))
        return self

    def get(self, key: str) -> Node:
        return next((e.value for e in self.entries if e.key == key), None)


@dataclass
class Item:
    value: Node
    comments: list[str] = field(default_factory=list)


@dataclass
class Seq:
    items: list[Item] = field(default_factory=list)
    flow: bool = False

    def add(self, value: Node, *comments: str) -> Seq:
        self.items.append(Item(value, [c for c in comments if c]))
        return self


class WriterError(Exception):
    """The text written does not read back as the data it was written from (a bug, never bad input)."""


def data(node: Node) -> Json:
    """The plain data a node stands for."""
    if isinstance(node, Map):
        return {e.key: data(e.value) for e in node.entries if e.key is not None}
    if isinstance(node, Seq):
        return [data(i.value) for i in node.items]
    return node


def render(document: Map, header: Sequence[str] = ()) -> str:
    """The document as YAML text, ``header`` comment lines first."""
    lines = _comments(list(header), 0)
    lines.extend(_block_map(document, 0))
    text = "\n".join(lines) + "\n"
    try:
        back = yaml.load(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        raise WriterError(f"the draft is not valid YAML: {exc}") from None
    if back != data(document):
        raise WriterError("the draft does not read back as the data it was written from")
    return text


# -- scalars -------------------------------------------------------------------------------------------------

_PLAIN_START = re.compile(r"[-?:,\[\]{}#&*!|>'\"%@`\s]")
_FLOW_UNSAFE = re.compile(r"[,\[\]{}]")


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@memo.lru_cache(maxsize=4096, pure=True)
def _reads_back(text: str) -> object:
    try:
        return yaml.load(f"k: {text}\n", Loader=_LOADER)
    except yaml.YAMLError:
        return None


def _reads_as(text: str, value: object) -> bool:
    return _reads_back(text) == {"k": value}


def scalar(value: Json, flow: bool = False) -> str:
    """A scalar as it can be written on one line: plain when that reads back the same, else quoted."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    plain_ok = (
        text != ""
        and text == text.strip()
        and not _PLAIN_START.match(text)
        and ": " not in text
        and " #" not in text
        and not text.endswith(":")
        and "\n" not in text
        and not (flow and _FLOW_UNSAFE.search(text))
    )
    if plain_ok and _reads_as(text, value):
        return text
    if ('"' in text or "\\" in text) and "'" not in text and text.isprintable():
        return "'" + text + "'"  # a jq expression reads best without escapes
    return json.dumps(text, ensure_ascii=False)


# words a folded jq expression is best broken before: its pipes and operators
_BREAK_BEFORE = frozenset({"|", "and", "or", "//", "*", "then", "else", "elif", "end"})


def _wrapped(words: list[str], room: int, before: frozenset[str] = _BREAK_BEFORE) -> list[str]:
    """Words joined into lines of at most ``room`` characters (longer words alone on a line), broken before
    an operator when one is in the second half of the line."""
    lines: list[str] = []
    current: list[str] = []
    for word in words:
        if current and len(" ".join([*current, word])) > room:
            cut = max((i for i, w in enumerate(current) if w in before and i > 0), default=0)
            if cut and len(" ".join(current[:cut])) > room // 2:
                lines.append(" ".join(current[:cut]))
                current = current[cut:]
            else:
                lines.append(" ".join(current))
                current = []
        current.append(word)
    lines.append(" ".join(current))
    return lines


def _folded(text: str, indent: int) -> list[str] | None:
    """``text`` folded over lines at ``indent``, or None when folding would change it (breaks only at single
    spaces, never before a space or at a line's start)."""
    if "\n" in text or "  " in text or text != text.strip() or not text.isprintable():
        return None
    return [" " * indent + line for line in _wrapped(text.split(" "), max(40, WIDTH - indent))]


def _comments(texts: list[str], indent: int) -> list[str]:
    """Comment lines at ``indent``, each wrapped to the line length."""
    out = []
    for text in texts:
        if not text:
            out.append(" " * indent + "#")
            continue
        lines = _wrapped(text.split(" "), WIDTH - indent - 2, frozenset())
        out.extend(" " * indent + "# " + line for line in lines)
    return out


# -- collections ---------------------------------------------------------------------------------------------

def _flow(node: Node) -> str:
    if isinstance(node, Map):
        return "{" + ", ".join(f"{scalar(e.key, True)}: {_flow(e.value)}" for e in node.entries
                               if e.key is not None) + "}"
    if isinstance(node, Seq):
        return "[" + ", ".join(_flow(i.value) for i in node.items) + "]"
    return scalar(node, flow=True)


def _inline(node: Node, room: int) -> str | None:
    """The node on the rest of a line when it is a scalar, or a flow collection that fits in ``room``."""
    if isinstance(node, (Map, Seq)):
        if not node.flow and (node.entries if isinstance(node, Map) else node.items):
            return None
        text = _flow(node)
        if isinstance(node, Map) and not node.entries:
            return "{}"
        if isinstance(node, Seq) and not node.items:
            return "[]"
        return text if len(text) <= room and _no_comments(node) else None
    text = scalar(node)
    return text if len(text) <= room or not isinstance(node, str) or _folded(node, 0) is None else None


def _no_comments(node: Node) -> bool:
    if isinstance(node, Map):
        return all(not e.comments and e.key is not None and _no_comments(e.value) for e in node.entries)
    if isinstance(node, Seq):
        return all(not i.comments and _no_comments(i.value) for i in node.items)
    return True


def _block_map(node: Map, indent: int) -> list[str]:
    lines: list[str] = []
    for entry in node.entries:
        lines.extend(_comments(entry.comments, indent))
        if entry.key is None:
            continue
        head = " " * indent + scalar(entry.key) + ":"
        lines.extend(_value(head, entry.value, indent))
    return lines


def _value(head: str, value: Node, indent: int) -> list[str]:
    """Lines for ``head`` (a key or a list dash) followed by its value."""
    inline = _inline(value, WIDTH - len(head) - 1)
    if inline is not None:
        return [f"{head} {inline}"]
    if isinstance(value, str):
        folded = _folded(value, indent + INDENT)
        if folded is not None:
            return [f"{head} >-", *folded]
        return [f"{head} {scalar(value)}"]
    if isinstance(value, Map):
        return [head, *_block_map(value, indent + INDENT)]
    assert isinstance(value, Seq)
    return [head, *_block_seq(value, indent + INDENT)]


def _block_seq(node: Seq, indent: int) -> list[str]:
    lines: list[str] = []
    for item in node.items:
        lines.extend(_comments(item.comments, indent))
        value = item.value
        if isinstance(value, Map) and value.entries and _inline(value, WIDTH - indent - 2) is None:
            first, *rest = value.entries
            # the first entry shares the dash's line; its comments go above the dash
            lines.extend(_comments(first.comments, indent))
            lines.extend(_value(" " * indent + "- " + scalar(first.key) + ":", first.value, indent + 2))
            lines.extend(_block_map(Map(rest), indent + 2))
        else:
            lines.extend(_value(" " * indent + "-", value, indent))
    return lines
