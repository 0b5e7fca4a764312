"""The static cost estimator fed with sizes from data (``budget.py`` says why): the size of every path
expression is read from the data's SizeIndex; or, for a table worked out at compile time, one size for all."""

from __future__ import annotations

from collections.abc import Mapping

from wmaplint.cel import ast as celast
from wmaplint.cel import types as t
from wmaplint.cel.cost import CostEstimator
from wmaplint.cel.sizes import ABSENT, SizeIndex

Where = tuple[SizeIndex, int]  # a path of a variable's value: its index and the path's id there


class DataCostEstimator(CostEstimator):
    """The static estimator, with the size of every path expression read from the data's SizeIndex."""

    def __init__(self, checked: celast.CheckedAst, node_types: dict[int, t.CelType],
                 variables: Mapping[str, SizeIndex]) -> None:
        super().__init__(checked, node_types)
        self.bound: dict[str, Where | None] = {name: (index, 0) for name, index in variables.items()}
        self.fallback = max((index.largest for index in variables.values()), default=1)

    def _where(self, node: celast.Node) -> Where | None:
        if isinstance(node, celast.Ident):
            return self.bound.get(node.name)
        if isinstance(node, celast.Select) and node.id not in self.checked.references:
            return self._step(self._where(node.operand), node.field)
        if isinstance(node, celast.Call) and node.function == "_[_]" and len(node.args) == 2:
            key = node.args[1]
            if isinstance(key, celast.Const) and isinstance(key.value, str):
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

    def _type_size(self, node: celast.Node) -> int | None:
        where = self._where(node)
        # a path the data lacks fails at run time (or is a has() test); anything else: the largest value seen
        return where[0].size(where[1]) if where is not None else self.fallback

    def _item(self, node: celast.Comprehension) -> Where | None:
        """Where a list's items are in the data (None for a map or an unknown range)."""
        where = self._where(node.iter_range)
        return self._any_item(where) if where is not None else None

    def _comprehension(self, node: celast.Comprehension, depth: int) -> tuple[int, int]:
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

    def _item_size(self, node: celast.Node) -> int:
        where = self._where(node)
        item = self._any_item(where) if where is not None else None
        return item[0].size(item[1]) if item is not None else self.fallback

    def _element_size(self, node: celast.Comprehension) -> int:
        where = self._where(node.iter_range)
        if where is None:
            return self.fallback
        index, pid = where
        item = index.element(pid)
        return index.size(item) if item is not None else index.key_size(pid)


class UniformCostEstimator(CostEstimator):
    """The estimator with every list, map and string of the data taken to have ``size`` elements."""

    def __init__(self, checked: celast.CheckedAst, node_types: dict[int, t.CelType], size: int) -> None:
        super().__init__(checked, node_types)
        self.size = size

    def _type_size(self, node: celast.Node) -> int | None:
        return self.size

    def _item_size(self, node: celast.Node) -> int:
        return self.size

    def _element_size(self, node: celast.Comprehension) -> int:
        return self.size
