"""The sizes of a value CEL evaluates over: the largest list, map or string at each of its paths, which the
data-fed cost estimator reads instead of the schema's maxima."""

from __future__ import annotations

from collections.abc import Mapping

_ELEMENT = "\0[]"  # the child pattern shared by every item of a list
# None of these is a Mapping: told by their type before isinstance with the ABC, which costs 8 times as much
PLAIN = frozenset((str, bytes, list, tuple, int, float, bool, type(None)))


def _size(value: object) -> int:
    if isinstance(value, (str, dict, list, bytes, tuple, Mapping)):  # the ABC last: its check is the slow one
        return len(value)
    return 1


class SizeIndex:
    """The largest size met at each path of a value, list items folded into one path: what any evaluation over
    the value can meet. Built once per value in one pass; map keys are kept as they are in the CEL value."""

    def __init__(self, value: object, known: dict[int, SizeIndex] | None = None) -> None:
        """``known``: the sizes of parts of ``value`` (below its top), by the part's id, merged instead of
        walked; the caller holds those parts, so that their ids stay theirs."""
        self._children: dict[tuple[int, str], int] = {}
        self._parents: set[int] = set()  # paths with at least one child
        self._sizes: list[int] = [_size(value)]
        self._key_sizes: dict[int, int] = {}
        self.largest = self._sizes[0]
        stack = [(value, 0)]
        while stack:
            current, pid = stack.pop()
            if known and pid and id(current) in known:
                self._merge(pid, known[id(current)])
            elif isinstance(current, dict) or (type(current) not in PLAIN and isinstance(current, Mapping)):
                for key, item in current.items():
                    name = str(key)
                    self._key_sizes[pid] = max(self._key_sizes.get(pid, 0), len(name))
                    stack.append((item, self._record(pid, name, item)))
            elif isinstance(current, (list, tuple)):
                for item in current:
                    stack.append((item, self._record(pid, _ELEMENT, item)))

    def _merge(self, pid: int, other: SizeIndex) -> None:
        """Add the sizes of ``other``, a part's own, at path ``pid``: what walking the part there adds."""
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

    def _record(self, parent: int, key: str, value: object) -> int:
        self._parents.add(parent)
        pid = self._children.get((parent, key))
        size = _size(value)
        if pid is None:
            pid = self._children[(parent, key)] = len(self._sizes)
            self._sizes.append(size)
        elif size > self._sizes[pid]:
            self._sizes[pid] = size
        self.largest = max(self.largest, size)
        return pid

    def child(self, pid: int, key: str) -> int | None:
        return self._children.get((pid, key))

    def element(self, pid: int) -> int | None:
        return self._children.get((pid, _ELEMENT))

    def has_children(self, pid: int) -> bool:
        return pid in self._parents

    def size(self, pid: int) -> int:
        return self._sizes[pid] if pid != ABSENT else 0

    def key_size(self, pid: int) -> int:
        return self._key_sizes.get(pid, 0)


ABSENT = -1  # the id of a path the data does not have: nothing there, size 0
