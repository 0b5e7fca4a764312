"""CEL's ``matches`` without the runtime: RE2 patterns of a plain subset, matched in time linear in the text.

The subset is literals, classes (ranges, negation, ``\\d \\s \\w``), ``.``, the anchors ``^`` and ``$``,
groups, alternation and repetition (``* + ? {n} {n,} {n,m}``, lazy or not: a yes-or-no search cannot tell).
In it, RE2 and this module mean the same; anything else, including what RE2 would refuse, gives None, and the
caller leaves the call to the runtime. Python's ``re`` is not used: it backtracks, and a pattern RE2 runs in
linear time can take it exponential time. Matching here walks a DFA built lazily from the pattern's NFA, as
RE2 does.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

from wmaplint import memo

MAX_STATES = 2_000  # NFA states after repetitions are spelled out
MAX_NESTING = 100  # groups within groups
MAX_DFA_STATES = 1_000  # remembered per pattern; past this the DFA is built afresh
SEARCH_WORK = 50_000  # NFA states visited building DFA states in one search; past it, no answer
MAX_REPEAT = 1_000  # RE2's limit, on one count and on the product of nested counts
MAX_CODE_POINT = 0x10FFFF

Ranges = tuple[tuple[int, int], ...]
# A parsed pattern, tagged by its first item: ("cat", [RegexNode]), ("alt", [RegexNode]),
# ("repeat", RegexNode, least, most or None), ("chars", Ranges), ("bol",), ("eol",); a union of these
# tuples would not narrow on the tag.
RegexNode = tuple[Any, ...]
_DIGITS: Ranges = ((0x30, 0x39),)
_SPACE: Ranges = ((0x09, 0x0A), (0x0C, 0x0D), (0x20, 0x20))  # RE2's \s has no \v
_WORD: Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_CLASS_ESCAPES = {"d": _DIGITS, "s": _SPACE, "w": _WORD}
_CHAR_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v"}
_LITERAL_ESCAPES = frozenset(string.punctuation + " ")
_META = frozenset("\\.+*?()|[]{}^$")


class _Refused(Exception):
    """The pattern is outside the subset."""


def _complement(ranges: Iterable[tuple[int, int]]) -> Ranges:
    out = []
    low = 0
    for start, end in sorted(ranges):
        if start > low:
            out.append((low, start - 1))
        low = max(low, end + 1)
    if low <= MAX_CODE_POINT:
        out.append((low, MAX_CODE_POINT))
    return tuple(out)


# Parsed patterns are small tuples: ("chars", ranges), ("cat", parts), ("alt", parts),
# ("repeat", part, least, most or None), ("bol",), ("eol",).
class _Parser:
    def __init__(self, pattern: str) -> None:
        self.text = pattern
        self.pos = 0

    def peek(self, ahead: int = 0) -> str:
        at = self.pos + ahead
        return self.text[at] if at < len(self.text) else ""

    def take(self) -> str:
        char = self.peek()
        if not char:
            raise _Refused
        self.pos += 1
        return char

    def alternation(self, depth: int) -> RegexNode:
        if depth > MAX_NESTING:
            raise _Refused
        parts = [self.concatenation(depth)]
        while self.peek() == "|":
            self.pos += 1
            parts.append(self.concatenation(depth))
        return parts[0] if len(parts) == 1 else ("alt", parts)

    def concatenation(self, depth: int) -> RegexNode:
        parts: list[RegexNode] = []
        while self.peek() not in ("", "|", ")"):
            parts.append(self.repetition(self.atom(depth)))
        return ("cat", parts)

    def repetition(self, atom: RegexNode) -> RegexNode:
        char = self.peek()
        if char not in ("*", "+", "?", "{"):
            return atom
        if atom[0] in ("bol", "eol"):
            raise _Refused
        self.pos += 1
        if char == "*":
            least, most = 0, None
        elif char == "+":
            least, most = 1, None
        elif char == "?":
            least, most = 0, 1
        else:
            least, most = self.counts()
        if self.peek() == "?":  # lazy: the same yes-or-no answer
            self.pos += 1
        if self.peek() in ("*", "+", "?", "{"):
            raise _Refused  # RE2: bad repetition operator
        return ("repeat", atom, least, most)

    def counts(self) -> tuple[int, int | None]:
        least = self.number()
        most: int | None = least
        if self.peek() == ",":
            self.pos += 1
            most = self.number() if self.peek() != "}" else None
        if self.take() != "}" or least > MAX_REPEAT or (most is not None and not least <= most <= MAX_REPEAT):
            raise _Refused
        return least, most

    def number(self) -> int:
        start = self.pos
        while self.peek().isascii() and self.peek().isdigit():
            self.pos += 1
        if self.pos == start or self.pos - start > 4:
            raise _Refused
        return int(self.text[start : self.pos])

    def atom(self, depth: int) -> RegexNode:
        char = self.take()
        if char == "(":
            if self.peek() == "?":
                if self.peek(1) != ":":
                    raise _Refused
                self.pos += 2
            inner = self.alternation(depth + 1)
            if self.take() != ")":
                raise _Refused
            return inner
        if char == "[":
            return ("chars", self.character_class())
        if char == ".":
            return ("chars", _complement([(0x0A, 0x0A)]))
        if char == "^":
            return ("bol",)
        if char == "$":
            return ("eol",)
        if char == "\\":
            return ("chars", self.escape(in_class=False))
        if char in _META:
            raise _Refused
        return ("chars", ((ord(char), ord(char)),))

    def escape(self, in_class: bool) -> Ranges:
        char = self.take()
        if char in _CLASS_ESCAPES:
            return _CLASS_ESCAPES[char]
        if char.lower() in _CLASS_ESCAPES and not in_class:
            return _complement(_CLASS_ESCAPES[char.lower()])
        if char in _CHAR_ESCAPES:
            code = ord(_CHAR_ESCAPES[char])
            return ((code, code),)
        if char in _LITERAL_ESCAPES:
            return ((ord(char), ord(char)),)
        raise _Refused

    def class_char(self) -> int:
        """One character of a class, plain or escaped; a class escape (``\\d``) is no range end."""
        char = self.take()
        if char == "[":
            raise _Refused  # POSIX classes, which Python and RE2 read differently
        if char != "\\":
            return ord(char)
        ranges = self.escape(in_class=True)
        if len(ranges) != 1 or ranges[0][0] != ranges[0][1]:
            raise _Refused
        return ranges[0][0]

    def character_class(self) -> Ranges:
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        ranges: list[tuple[int, int]] = []
        first = True
        while first or self.peek() != "]":
            char = self.peek()
            if char == "]" and first:  # a leading ] is itself
                self.pos += 1
                ranges.append((0x5D, 0x5D))
            elif char == "-" and not first and self.peek(1) != "]":
                raise _Refused  # a dash neither first, last nor in a range
            elif char == "\\" and self.peek(1) in _CLASS_ESCAPES:
                ranges.extend(_CLASS_ESCAPES[self.peek(1)])
                self.pos += 2
                if self.peek() == "-" and self.peek(1) != "]":
                    raise _Refused
            else:
                low = self.class_char()
                high = low
                if self.peek() == "-" and self.peek(1) not in ("]", ""):
                    self.pos += 1
                    high = self.class_char()
                    if high < low:
                        raise _Refused
                ranges.append((low, high))
            first = False
        self.pos += 1
        return _complement(ranges) if negated else tuple(sorted(ranges))


def _within_repeat_limit(node: RegexNode, allowed: int = MAX_REPEAT, depth: int = 0) -> bool:
    """RE2 refuses a pattern whose nested repetition counts multiply past 1,000 (``(x{100}){100}``)."""
    if depth > 2 * MAX_NESTING + 10:
        return False
    if node[0] == "repeat":
        _, part, least, most = node
        count = max(most if most is not None else least, 1)
        return count <= allowed and _within_repeat_limit(part, allowed // count, depth + 1)
    if node[0] in ("cat", "alt"):
        return all(_within_repeat_limit(part, allowed, depth + 1) for part in node[1])
    return True


CHAR, SPLIT, BOL, EOL, MATCH = range(5)


class _Nfa:
    """States as parallel lists; built backwards, each construct given the state that follows it."""

    def __init__(self) -> None:
        self.kind: list[int] = []
        self.ranges: list[Ranges] = []
        self.out: list[int] = []
        self.alt: list[int] = []

    def add(self, kind: int, out: int = -1, alt: int = -1, ranges: Ranges = ()) -> int:
        if len(self.kind) >= MAX_STATES:
            raise _Refused
        self.kind.append(kind)
        self.ranges.append(ranges)
        self.out.append(out)
        self.alt.append(alt)
        return len(self.kind) - 1

    def build(self, node: RegexNode, follow: int, depth: int = 0) -> int:
        if depth > 2 * MAX_NESTING + 10:
            raise _Refused
        kind = node[0]
        if kind == "chars":
            return self.add(CHAR, follow, ranges=node[1])
        if kind == "bol":
            return self.add(BOL, follow)
        if kind == "eol":
            return self.add(EOL, follow)
        if kind == "cat":
            for part in reversed(node[1]):
                follow = self.build(part, follow, depth + 1)
            return follow
        if kind == "alt":
            starts = [self.build(part, follow, depth + 1) for part in node[1]]
            start = starts[-1]
            for other in reversed(starts[:-1]):
                start = self.add(SPLIT, other, start)
            return start
        _, part, least, most = node
        if most is None:  # part{least,}: least - 1 copies, then part+ (or part* for least 0)
            loop = self.add(SPLIT)
            body = self.build(part, loop, depth + 1)
            self.out[loop], self.alt[loop] = body, follow
            tail = loop if least == 0 else body
            for _ in range(max(least - 1, 0)):
                tail = self.build(part, tail, depth + 1)
            return tail
        tail = follow
        for _ in range(most - least):  # each optional copy may be skipped to the end
            tail = self.add(SPLIT, self.build(part, tail, depth + 1), follow)
        for _ in range(least):
            tail = self.build(part, tail, depth + 1)
        return tail


class _DfaState:
    __slots__ = ("chars", "ends", "accepting", "next")

    def __init__(self, chars: tuple[int, ...], ends: tuple[int, ...], accepting: bool) -> None:
        self.chars = chars  # NFA character states: what the next character can match
        self.ends = ends  # NFA $ states: satisfied only at the end of the text
        self.accepting = accepting
        self.next: dict[str, _DfaState] = {}


class Pattern:
    """A compiled pattern; ``search`` says whether it matches anywhere in a text (RE2's partial match)."""

    def __init__(self, nfa: _Nfa, start: int) -> None:
        self._nfa = nfa
        self._start = start
        # Built as texts need it. Threads may race to add a state: each builds a correct one, one is kept.
        self._states: dict[frozenset[int], _DfaState] = {}

    def _closure(self, seeds: Iterable[int], at_start: bool, at_end: bool, work: list[int]) -> frozenset[int]:
        nfa = self._nfa
        seen: set[int] = set()
        stack = list(seeds)
        while stack:
            state = stack.pop()
            if state < 0 or state in seen:
                continue
            seen.add(state)
            kind = nfa.kind[state]
            if kind == SPLIT:
                stack += (nfa.out[state], nfa.alt[state])
            elif (kind == BOL and at_start) or (kind == EOL and at_end):
                stack.append(nfa.out[state])
        work[0] += len(seen)
        return frozenset(s for s in seen if nfa.kind[s] in (CHAR, EOL, MATCH))

    def _state(self, members: frozenset[int]) -> _DfaState:
        found = self._states.get(members)
        if found is None:
            if len(self._states) >= MAX_DFA_STATES:
                self._states = {}
            kind = self._nfa.kind
            found = _DfaState(tuple(s for s in members if kind[s] == CHAR),
                              tuple(s for s in members if kind[s] == EOL),
                              any(kind[s] == MATCH for s in members))
            self._states[members] = found
        return found

    def _step(self, state: _DfaState, char: str, work: list[int]) -> _DfaState:
        code = ord(char)
        nfa = self._nfa
        targets = [self._start]  # a match may begin at any position
        for member in state.chars:
            if any(low <= code <= high for low, high in nfa.ranges[member]):
                targets.append(nfa.out[member])
        following = self._state(self._closure(targets, False, False, work))
        state.next[char] = following
        return following

    def search(self, text: str) -> bool | None:
        """Whether the pattern matches somewhere in ``text``; None when the work to tell passed its bound."""
        work = [0]
        state = self._state(self._closure([self._start], True, False, work))
        for char in text:
            if state.accepting:
                return True
            following = state.next.get(char)
            state = following if following is not None else self._step(state, char, work)
            if work[0] > SEARCH_WORK:
                return None
        if state.accepting:
            return True
        ends = [self._nfa.out[s] for s in state.ends]
        return any(self._nfa.kind[s] == MATCH for s in self._closure(ends, not text, True, work))


_compiled: dict[str, Pattern | None] = memo.kept(__name__, "_compiled", {}, pure=True)
MAX_REMEMBERED = 256


def compile_pattern(pattern: str) -> Pattern | None:
    """The pattern compiled, or None when it is outside the subset (remembered either way)."""
    if pattern in _compiled:
        return _compiled[pattern]
    try:
        if any(0xD800 <= ord(char) <= 0xDFFF for char in pattern):
            raise _Refused
        parser = _Parser(pattern)
        tree = parser.alternation(0)
        if parser.pos != len(pattern) or not _within_repeat_limit(tree):
            raise _Refused  # an unopened ), or counts RE2 refuses
        nfa = _Nfa()
        compiled: Pattern | None = Pattern(nfa, nfa.build(tree, nfa.add(MATCH)))
    except (_Refused, RecursionError):
        compiled = None
    if len(_compiled) >= MAX_REMEMBERED:
        _compiled.clear()
    _compiled[pattern] = compiled
    return compiled
