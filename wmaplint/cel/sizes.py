"""The sizes of a value CEL evaluates over: the largest list, map or string at each of its paths, which the
data-fed cost estimator reads instead of the schema's maxima."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_ELEMENT = "\0[]"  # the child pattern shared by every item of a list
# None of these is a Mapping: told by their type before isinstance with the ABC, which costs 8 times as much
PLAIN = frozenset((str, bytes, list, tuple, int, float, bool, type(None)))


_SIZED = frozenset((str, dict, list, bytes, tuple))  # sized by len(), told by their exact type first


def _size(value: object) -> int:
    if isinstance(value, (str, dict, list, bytes, tuple, Mapping)):  # the ABC last: its check is the slow one
        return len(value)
    return 1


class SizeIndex:
    """The largest size met at each path of a value, list items folded into one path: what any evaluation over
    the value can meet. Built in one pass when first asked for a path; map keys are kept as they are in the
    CEL value. ``largest`` alone (all that a cost tabled at compile time needs, ``budget.charge``) is found by
    a lighter pass, when the index is made."""

    def __init__(self, value: object, known: dict[int, SizeIndex] | None = None) -> None:
        """``known``: the sizes of parts of ``value`` (below its top), by the part's id, merged instead of
        walked; the caller holds those parts while the index is made (it is then made whole at once), so that
        their ids stay theirs."""
        self._value = value
        self._built = False
        self._children: dict[tuple[int, str], int] = {}
        self._parents: set[int] = set()  # paths with at least one child
        self._sizes: list[int] = []
        self._key_sizes: dict[int, int] = {}
        if known:
            self.largest = _size(value)
            self._build(known)
            return
        largest = _size(value)
        stack = [value]
        while stack:
            current = stack.pop()
            if isinstance(current, dict) or (type(current) not in PLAIN and isinstance(current, Mapping)):
                items: Any = current.values()
            elif isinstance(current, (list, tuple)):
                items = current
            else:
                continue
            for item in items:
                size = len(item) if type(item) in _SIZED else _size(item)
                if size > largest:
                    largest = size
                stack.append(item)
        self.largest = largest

    def _build(self, known: dict[int, SizeIndex] | None = None) -> None:
        """Every path's largest size, in one pass over the value; the parts in ``known`` merged, unwalked."""
        self._built = True
        value = self._value
        children, parents, sizes, key_sizes = self._children, self._parents, self._sizes, self._key_sizes
        sizes.append(_size(value))
        largest = sizes[0]
        stack = [(value, 0)]
        while stack:
            current, parent = stack.pop()
            if known and parent and id(current) in known:
                self._merge(parent, known[id(current)])
                continue
            if isinstance(current, dict) or (type(current) not in PLAIN and isinstance(current, Mapping)):
                pairs = [(str(key), item) for key, item in current.items()]
                if pairs:
                    key_sizes[parent] = max(key_sizes.get(parent, 0), *(len(name) for name, _ in pairs))
            elif isinstance(current, (list, tuple)):
                pairs = [(_ELEMENT, item) for item in current]
            else:
                continue
            if pairs:
                parents.add(parent)
            for name, item in pairs:
                size = len(item) if type(item) in _SIZED else _size(item)
                if size > largest:
                    largest = size
                pid = children.get((parent, name))
                if pid is None:
                    pid = children[(parent, name)] = len(sizes)
                    sizes.append(size)
                elif size > sizes[pid]:
                    sizes[pid] = size
                stack.append((item, pid))
        if known:
            self.largest = max(self.largest, largest)

    def _merge(self, pid: int, other: SizeIndex) -> None:
        """Add the sizes of ``other``, a part's own, at path ``pid``: what walking the part there adds."""
        if not other._built:
            other._build()
        mapped = [pid] * len(other._sizes)
        for (parent, key), child in other._children.items():  # made in order: a parent before its children
            at = mapped[parent]
            self._parents.add(at)
            size = other._sizes[child]
            found = self._children.get((at, key))
            if found is None:
                found = self._children[(at, key)] = len(self._sizes)
                self._sizes.append(size)
            elif size > self._sizes[found]:
                self._sizes[found] = size
            mapped[child] = found
        for local, size in other._key_sizes.items():
            at = mapped[local]
            self._key_sizes[at] = max(self._key_sizes.get(at, 0), size)
        self.largest = max(self.largest, other.largest)

    def child(self, pid: int, key: str) -> int | None:
        if not self._built:
            self._build()
        return self._children.get((pid, key))

    def element(self, pid: int) -> int | None:
        if not self._built:
            self._build()
        return self._children.get((pid, _ELEMENT))

    def has_children(self, pid: int) -> bool:
        if not self._built:
            self._build()
        return pid in self._parents

    def size(self, pid: int) -> int:
        if not self._built:
            self._build()
        return self._sizes[pid] if pid != ABSENT else 0

    def key_size(self, pid: int) -> int:
        if not self._built:
            self._build()
        return self._key_sizes.get(pid, 0)


ABSENT = -1  # the id of a path the data does not have: nothing there, size 0
