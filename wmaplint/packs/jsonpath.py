"""RFC 9535 JSONPath for rule packs: a small evaluator for the queries packs write, the library for the rest.

Pack queries are almost always a chain of names, wildcards, indexes and existence filters, negated and joined
by ``&&`` (``$.spec.structureDefinition.childComponents[?@.specDefinition && !@.scaleDefinition]``). Those
are parsed and run here with the RFC's semantics; any other query (descendants, slices, comparisons,
functions, escapes) is compiled by jsonpath-rfc9535, which is imported only then: with its regex engine it is
a quarter of the start-up of a one-file check. Both give the same ``Query`` shape, so the static walk over
the definition format (``packs.paths``) sees one form.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

Location = tuple[str | int, ...]

MAX_INDEX = 2**53 - 1  # the RFC's I-JSON integer range


class Name:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


class Index:
    __slots__ = ("index",)

    def __init__(self, index: int) -> None:
        self.index = index


class Slice:
    """Only from the library's parse; evaluated by the library."""

    __slots__ = ()


class Wildcard:
    __slots__ = ()


Test = tuple[bool, tuple[str, ...]]  # (negated, relative path): ``@.a.b`` or ``!@.a.b``


class Filter:
    """``?@.a.b && !@.c``: children for which every relative path exists (or, negated, does not); ``tests``
    is None for a filter the library evaluates."""

    __slots__ = ("tests",)

    def __init__(self, tests: tuple[Test, ...] | None) -> None:
        self.tests = tests


class Other:
    """A selector of the library's this module has no name for (the walk treats it as unknown)."""

    __slots__ = ()


Selector = Name | Index | Slice | Wildcard | Filter | Other


class Segment:
    __slots__ = ("selectors", "descendant")

    def __init__(self, selectors: tuple[Selector, ...], descendant: bool = False) -> None:
        self.selectors = selectors
        self.descendant = descendant


class Query:
    """A compiled query; ``compiled`` is the library's query for one outside the subset. (Plain classes:
    dataclasses would cost more to define than this module does to run.)"""

    __slots__ = ("text", "segments", "compiled")

    def __init__(self, text: str, segments: tuple[Segment, ...], compiled: Any = None) -> None:
        self.text = text
        self.segments = segments
        self.compiled = compiled

    def __repr__(self) -> str:
        return f"Query({self.text!r})"

    def finditer(self, data: Json) -> Iterator[tuple[Location, Any]]:
        """Every node the query selects, as (normalized location, value), in the RFC's order."""
        if self.compiled is not None:
            for match in self.compiled.finditer(data):
                yield tuple(match.location), match.value
            return
        yield from _select(self.segments, 0, (), data)


class QueryError(ValueError):
    """``text`` is not an RFC 9535 JSONPath; ``offset`` is where the library stopped, when it says."""

    def __init__(self, reason: str, offset: int | None) -> None:
        super().__init__(reason)
        self.offset = offset


def compile_query(text: str) -> Query:
    """The query of ``text``; raises ``QueryError`` when it is not JSONPath (RecursionError when it nests
    beyond what the library's parser takes)."""
    found = _parse_subset(text)
    if found is not None:
        return found
    import jsonpath_rfc9535 as jp

    try:
        compiled = jp.compile(text)
    except jp.JSONPathError as exc:
        offset = getattr(getattr(exc, "token", None), "index", None)
        raise QueryError(exc.args[0] if exc.args else "invalid JSONPath", offset) from exc
    return Query(text, tuple(_from_library(s) for s in compiled.segments), compiled)


# --- the subset: $ then .name, .*, [selectors] with 'name', "name", index, *, ?@.name.name ----------------

_SHORTHAND = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*|\*)")
_INDEX = re.compile(r"0|-?[1-9][0-9]*")
_QUOTED = re.compile(r"'([^'\\\x00-\x1f]*)'|\"([^\"\\\x00-\x1f]*)\"")
_TEST = re.compile(r"[ \t\n\r]*(!?)[ \t\n\r]*@((?:\.[A-Za-z_][A-Za-z0-9_]*)+)[ \t\n\r]*")


def _parse_subset(text: str) -> Query | None:
    """The query when ``text`` is in the subset, else None (the library decides, and explains errors)."""
    if not text.startswith("$"):
        return None
    segments: list[Segment] = []
    pos = 1
    while pos < len(text):
        shorthand = _SHORTHAND.match(text, pos)
        if shorthand is not None:
            word = shorthand.group(1)
            segments.append(Segment((Wildcard() if word == "*" else Name(word),)))
            pos = shorthand.end()
            continue
        if text[pos] != "[":
            return None
        selectors: list[Selector] = []
        pos += 1
        while True:
            selector, pos = _selector(text, _blank(text, pos))
            if selector is None:
                return None
            selectors.append(selector)
            pos = _blank(text, pos)
            if text.startswith(",", pos):
                pos += 1
                continue
            if text.startswith("]", pos):
                pos += 1
                break
            return None
        segments.append(Segment(tuple(selectors)))
    return Query(text, tuple(segments))


def _blank(text: str, pos: int) -> int:
    """Past the blank space (space, tab, LF, CR) the RFC allows around selectors inside brackets."""
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def _selector(text: str, pos: int) -> tuple[Selector | None, int]:
    if text.startswith("*", pos):
        return Wildcard(), pos + 1
    quoted = _QUOTED.match(text, pos)
    if quoted is not None:
        name = quoted.group(1) if quoted.group(1) is not None else quoted.group(2)
        return Name(name), quoted.end()
    if text.startswith("?", pos):
        return _filter(text, pos + 1)
    index = _INDEX.match(text, pos)
    if index is not None and abs(int(index.group(0))) <= MAX_INDEX:
        return Index(int(index.group(0))), index.end()
    return None, pos


def _filter(text: str, pos: int) -> tuple[Selector | None, int]:
    """Existence tests, each possibly negated, joined by ``&&``; anything else is left to the library."""
    tests: list[Test] = []
    while True:
        test = _TEST.match(text, pos)
        if test is None:
            return None, pos
        tests.append((test.group(1) == "!", tuple(test.group(2)[1:].split("."))))
        pos = test.end()
        if not text.startswith("&&", pos):
            return Filter(tuple(tests)), pos
        pos += 2


# --- evaluation (RFC 9535 §2.3, §2.5) ----------------------------------------------------------------------

def _select(segments: tuple[Segment, ...], at: int, location: Location, value: Any) -> Iterator[
        tuple[Location, Any]]:
    if at == len(segments):
        yield location, value
        return
    for selector in segments[at].selectors:
        for key, child in _apply(selector, value):
            yield from _select(segments, at + 1, (*location, key), child)


def _children(value: Json) -> Iterator[tuple[str | int, Any]]:
    if isinstance(value, dict):
        yield from value.items()
    elif isinstance(value, list):
        yield from enumerate(value)


def _apply(selector: Selector, value: Json) -> Iterator[tuple[str | int, Any]]:
    if isinstance(selector, Name):
        if isinstance(value, dict) and selector.name in value:
            yield selector.name, value[selector.name]
    elif isinstance(selector, Wildcard):
        yield from _children(value)
    elif isinstance(selector, Index):
        if isinstance(value, list):
            index = selector.index + len(value) if selector.index < 0 else selector.index
            if 0 <= index < len(value):
                yield index, value[index]
    elif isinstance(selector, Filter) and selector.tests is not None:
        for key, child in _children(value):
            if all(_exists(child, names) != negated for negated, names in selector.tests):
                yield key, child


def _exists(value: object, names: tuple[str, ...]) -> bool:
    """Whether the relative singular path selects a node (its value may be null or false)."""
    for name in names:
        if not isinstance(value, dict) or name not in value:
            return False
        value = value[name]
    return True


# --- the library's parse, in this module's shape (for the static walk) ------------------------------------

def _from_library(segment: Any) -> Segment:
    from jsonpath_rfc9535 import segments as seg
    from jsonpath_rfc9535 import selectors as sel

    converted: list[Selector] = []
    for selector in segment.selectors:
        if isinstance(selector, sel.NameSelector):
            converted.append(Name(selector.name))
        elif isinstance(selector, sel.IndexSelector):
            converted.append(Index(selector.index))
        elif isinstance(selector, sel.SliceSelector):
            converted.append(Slice())
        elif isinstance(selector, sel.WildcardSelector):
            converted.append(Wildcard())
        elif isinstance(selector, sel.FilterSelector):
            converted.append(Filter(None))
        else:
            converted.append(Other())
    return Segment(tuple(converted), isinstance(segment, seg.JSONPathRecursiveDescentSegment))
