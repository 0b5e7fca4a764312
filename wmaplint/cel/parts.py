"""The part of a value an expression reads: a tree of field names (from ``reads.py``), and the value cut down
to it (lists keep their length, presence stays presence), so an evaluation sees the same answers at the cost
of what it reads. No CEL machinery here: a tree remembered from an earlier run is used without it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ANY = "\0*"  # a list item or a map value, whichever key
Reads = dict[str, Any]  # field -> Reads, or WHOLE


class _Whole:
    def __repr__(self) -> str:
        return "WHOLE"


WHOLE: Any = _Whole()  # the value is used as a whole: keep it all
_ABSENT = object()


def merged(first: Reads | Any, second: Reads | Any) -> Reads | Any:
    if first is WHOLE or second is WHOLE:
        return WHOLE
    out = dict(first)
    for key, value in second.items():
        out[key] = merged(out[key], value) if key in out else value
    return out


def pruned(value: object, tree: Reads | Any) -> Any:
    """``value`` with only the parts ``tree`` names (lists keep every item, so sizes stay true)."""
    if tree is WHOLE:
        return value
    if isinstance(value, (dict, Mapping)):  # dict first: the ABC's check costs 8 times as much
        every = tree.get(ANY, _ABSENT)
        out = {}
        for key, item in value.items():
            own = tree.get(key, _ABSENT) if isinstance(key, str) else _ABSENT
            if own is _ABSENT and every is _ABSENT:
                continue
            both = own if every is _ABSENT else every if own is _ABSENT else merged(own, every)
            out[key] = pruned(item, both)
        return out
    if isinstance(value, list):
        item_tree = tree.get(ANY, {})
        return [pruned(item, item_tree) for item in value]
    return value


def to_json(tree: Reads | Any) -> Any:
    """The tree as JSON data (WHOLE is 1)."""
    return 1 if tree is WHOLE else {key: to_json(value) for key, value in tree.items()}


def from_json(data: object, depth: int = 0) -> Reads | Any:
    """A tree from ``to_json``'s data; anything unexpected reads as WHOLE (the whole value kept)."""
    if not isinstance(data, dict) or depth > 300:
        return WHOLE
    return {str(key): from_json(value, depth + 1) for key, value in data.items()}
