"""The lexical layer of jq text the editor reads without parsing it: which characters are code, and which sit
inside a string literal (interpolations included) or a comment."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator


def scan(text: str, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, str, bool]]:
    """Each character of ``text[start:stop]`` with its offset and whether the text after it is code: False
    inside a string (its opening quote included) or a comment. ``start`` must be outside both."""
    quoted = comment = escaped = False
    for i in range(start, len(text) if stop is None else min(stop, len(text))):
        ch = text[i]
        if comment:
            comment = ch != "\n"
        elif quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch == "#":
            comment = True
        yield i, ch, not (quoted or comment)


def in_literal(text: str, offset: int) -> bool:
    """Whether ``offset`` is inside a string literal or a comment."""
    last = deque(scan(text, 0, offset), maxlen=1)
    return bool(last) and not last[0][2]


def closers(text: str) -> str:
    """The brackets that close what ``text`` leaves open, innermost first (strings and comments skipped)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack: list[str] = []
    for _, ch, code in scan(text):
        if not code:
            continue
        if ch in pairs:
            stack.append(pairs[ch])
        elif ch in ")]}" and stack and stack[-1] == ch:
            stack.pop()
    return "".join(reversed(stack))


def argument_count(text: str, opening: int) -> int:
    """How many arguments the call whose ``(`` stands at ``opening`` passes (``;`` at its own depth)."""
    depth, count = 0, 1
    for _, ch, code in scan(text, opening):
        if not code:
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return count
        elif ch == ";" and depth == 1:
            count += 1
    return count
