"""Runtime cost limits of CEL evaluation (K8S_CEL.md §4.2): a per-call limit of 1,000,000 and a budget of
10,000,000 shared by every rule evaluated for one object.

cel-expr-python has no cost tracker, so the cost of an evaluation is bounded before it runs: the static
estimator of ``cost.py``, fed with the sizes of the data this evaluation will see (the longest list, map or
string found at each path of ``self`` and ``root``) instead of the schema's maxima. The estimator's rules take
the most each step can cost (both sides of ``&&``, every iteration of a loop), so the bound is meant to sit
at or above the cost cel-go would count; an evaluation over it is not run, and the finding says it *may*
exceed the limits — the API server, counting the real cost, could still accept it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wmaplint.cel import ast as A
from wmaplint.cel import types as t
from wmaplint.cel.cost import MAX_COST, PER_CALL_LIMIT, CostEstimator

OBJECT_BUDGET = 10_000_000
_ELEMENT = "\0[]"  # the child pattern shared by every item of a list


def _size(value: Any) -> int:
    if isinstance(value, (str, bytes, list, tuple, Mapping)):
        return len(value)
    return 1


class SizeIndex:
    """The largest size met at each path of a value, list items folded into one path: what any evaluation over
    the value can meet. Built once per value in one pass; map keys are kept as they are in the CEL value."""

    def __init__(self, value: Any) -> None:
        self._children: dict[tuple[int, str], int] = {}
        self._parents: set[int] = set()  # paths with at least one child
        self._sizes: list[int] = [_size(value)]
        self._key_sizes: dict[int, int] = {}
        self.largest = self._sizes[0]
        stack = [(value, 0)]
        while stack:
            current, pid = stack.pop()
            if isinstance(current, Mapping):
                for key, item in current.items():
                    name = str(key)
                    self._key_sizes[pid] = max(self._key_sizes.get(pid, 0), len(name))
                    stack.append((item, self._record(pid, name, item)))
            elif isinstance(current, (list, tuple)):
                for item in current:
                    stack.append((item, self._record(pid, _ELEMENT, item)))

    def _record(self, parent: int, key: str, value: Any) -> int:
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


Where = tuple[SizeIndex, int]  # a path of a variable's value: its index and the path's id there


class _DataCostEstimator(CostEstimator):
    """The static estimator, with the size of every path expression read from the data's SizeIndex."""

    def __init__(self, checked: A.CheckedAst, node_types: dict[int, t.CelType],
                 variables: Mapping[str, SizeIndex]) -> None:
        super().__init__(checked, node_types)
        self.bound: dict[str, Where | None] = {name: (index, 0) for name, index in variables.items()}
        self.fallback = max((index.largest for index in variables.values()), default=1)

    def _where(self, node: A.Node) -> Where | None:
        if isinstance(node, A.Ident):
            return self.bound.get(node.name)
        if isinstance(node, A.Select) and node.id not in self.checked.references:
            return self._step(self._where(node.operand), node.field)
        if isinstance(node, A.Call) and node.function == "_[_]" and len(node.args) == 2:
            key = node.args[1]
            if isinstance(key, A.Const) and isinstance(key.value, str):
                return self._step(self._where(node.args[0]), key.value)
            operand = self._where(node.args[0])
            return self._any_item(operand) if operand is not None else None
        return None

    @staticmethod
    def _step(operand: Where | None, key: str) -> Where | None:
        if operand is None:
            return None
        found = operand[0].child(operand[1], key)
        return (operand[0], found if found is not None else ABSENT)

    @staticmethod
    def _any_item(operand: Where) -> Where | None:
        """A list's item path; ABSENT when nothing is below; None for a map read with an unknown key."""
        index, pid = operand
        found = index.element(pid)
        if found is not None:
            return index, found
        return None if index.has_children(pid) else (index, ABSENT)

    def _type_size(self, node: A.Node) -> int | None:
        where = self._where(node)
        # a path the data lacks fails at run time (or is a has() test); anything else: the largest value seen
        return where[0].size(where[1]) if where is not None else self.fallback

    def _item(self, node: A.Comprehension) -> Where | None:
        """Where a list's items are in the data (None for a map or an unknown range)."""
        where = self._where(node.iter_range)
        return self._any_item(where) if where is not None else None

    def _comprehension(self, node: A.Comprehension, depth: int) -> tuple[int, int]:
        saved = dict(self.bound)
        item = self._item(node)
        if node.iter_var2:  # two variables: index (or key) and value
            self.bound[node.iter_var] = None
            self.bound[node.iter_var2] = item
        else:
            self.bound[node.iter_var] = item
        try:
            return super()._comprehension(node, depth)
        finally:
            self.bound = saved

    def _item_size(self, node: A.Node) -> int:
        where = self._where(node)
        item = self._any_item(where) if where is not None else None
        return item[0].size(item[1]) if item is not None else self.fallback

    def _element_size(self, node: A.Comprehension) -> int:
        where = self._where(node.iter_range)
        if where is None:
            return self.fallback
        index, pid = where
        item = index.element(pid)
        return index.size(item) if item is not None else index.key_size(pid)


def evaluation_bound(checked: A.CheckedAst, node_types: dict[int, t.CelType],
                     variables: Mapping[str, SizeIndex]) -> int:
    """An upper bound of the cost cel-go would count for evaluating ``checked`` on these variables' values."""
    return _DataCostEstimator(checked, node_types, variables).estimate()


class CostBudget:
    """The cost left for one object's evaluations; ``admit`` takes an evaluation's bound or says why not."""

    def __init__(self, total: int = OBJECT_BUDGET) -> None:
        self.left = total
        self.exhausted = False

    def admit(self, bound: int) -> str | None:
        if bound > PER_CALL_LIMIT:
            return (f"not evaluated: its cost on this data may reach {_count(bound)}, over the per-call "
                    f"limit of {_count(PER_CALL_LIMIT)}")
        if bound > self.left:
            self.exhausted = True
            return (f"not evaluated, nor any rule after it: with the rules before it, the cost on this data "
                    f"may pass the budget of {_count(OBJECT_BUDGET)} for one object")
        self.left -= bound
        return None


def _count(cost: int) -> str:
    return "more than 10^19" if cost >= MAX_COST else f"{cost:,}"
