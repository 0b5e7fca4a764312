"""Static cost estimate of a checked CEL expression, after cel-go's estimator with the Kubernetes extensions
(K8S_CEL.md §4.1). Only the maximum is computed. Sizes come from the schema types the checker attached to
each node; unknown result sizes fall back to the size of the input, so the estimate errs low, never high.
"""

from __future__ import annotations

import math

from wmaplint.cel import ast as celast
from wmaplint.cel import types as t
from wmaplint.cel.limits import MAX_COST

STATIC_RULE_LIMIT = 10_000_000
STATIC_CRD_LIMIT = 100_000_000

_LINEAR_TRAVERSAL = {
    "lowerAscii": 0.1,
    "upperAscii": 0.1,
    "substring": 0.1,
    "trim": 0.1,
    "replace": 0.2,
    "split": 0.2,
    "url": 0.1,
    "cidr": 0.1,
    "isIP": 0.1,
    "isCIDR": 0.1,
    "ip": 0.1,
    "quantity": 0.1,
    "isQuantity": 0.1,
    "semver": 0.1,
    "isSemver": 0.1,
    "ip.isCanonical": 0.2,
    "isURL": 0.1,
    "format": 0.1,
    "strings.quote": 0.1,
    "charAt": 0.1,
    "bytes": 0.1,
    "string": 0.1,
}
_LIST_SCANS = frozenset({"isSorted", "sum", "max", "min", "indexOf", "lastIndexOf"})


def _ceil(value: float) -> int:
    return min(int(math.ceil(value)), MAX_COST)


class CostEstimator:
    MAX_DEPTH = 300

    def __init__(self, checked: celast.CheckedAst, node_types: dict[int, t.CelType]) -> None:
        self.checked = checked
        self.node_types = node_types
        self.var_sizes: dict[str, int] = {}

    def estimate(self) -> int:
        try:
            return min(self.cost(self.checked.expr, 0)[0], MAX_COST)
        except RecursionError:
            return 0

    def _type_size(self, node: celast.Node) -> int | None:
        typ = self.node_types.get(node.id)
        if typ is None or typ.schema is None:
            return None
        return typ.max_elements

    def cost(self, node: celast.Node, depth: int) -> tuple[int, int]:
        """(cost, max size of the value)."""
        if depth > self.MAX_DEPTH:
            return 0, 1
        depth += 1
        if isinstance(node, celast.Const):
            size = len(node.value) if isinstance(node.value, (str, bytes)) else 1
            return 0, size
        if isinstance(node, celast.Ident):
            known = self.var_sizes.get(node.name)
            if known is None:
                known = self._type_size(node)
            return 1, known if known is not None else 1
        if isinstance(node, celast.Select):
            if node.id in self.checked.references:
                return 1, 1
            base, _ = self.cost(node.operand, depth)
            field_size = self._type_size(node)
            return base + (0 if node.test_only else 1), field_size if field_size is not None else 1
        if isinstance(node, celast.ListLit):
            total = sum(self.cost(e, depth)[0] for e in node.elements)
            return total + 10, len(node.elements)
        if isinstance(node, celast.StructLit):
            total = sum(
                self.cost(e.value, depth)[0] + (self.cost(e.key, depth)[0] if e.key else 0)
                for e in node.entries
            )
            return total + (40 if node.message_name else 30), len(node.entries)
        if isinstance(node, celast.Comprehension):
            return self._comprehension(node, depth)
        if isinstance(node, celast.Call):
            return self._call(node, depth)
        return 0, 1

    def _item_size(self, node: celast.Node) -> int:
        """The size of one item of the list ``node`` gives."""
        typ = self.node_types.get(node.id)
        return typ.elem.max_elements if isinstance(typ, t.ListType) else 1

    def _element_size(self, node: celast.Comprehension) -> int:
        """The size of the loop variable: a list's item, or a map's key."""
        range_t = self.node_types.get(node.iter_range.id)
        if isinstance(range_t, t.ListType):
            return range_t.elem.max_elements
        if isinstance(range_t, t.MapType):
            return range_t.key.max_elements
        return 1

    def _comprehension(self, node: celast.Comprehension, depth: int) -> tuple[int, int]:
        range_cost, range_size = self.cost(node.iter_range, depth)
        elem_size = self._element_size(node)
        saved = dict(self.var_sizes)
        self.var_sizes[node.iter_var] = elem_size
        if node.iter_var2:
            self.var_sizes[node.iter_var2] = elem_size
        init_cost, _ = self.cost(node.accu_init, depth)
        self.var_sizes[node.accu_var] = range_size
        cond_cost, _ = self.cost(node.loop_condition, depth)
        step_cost, _ = self.cost(node.loop_step, depth)
        result_cost, _ = self.cost(node.result, depth)
        self.var_sizes = saved
        empty_list = isinstance(node.iter_range, celast.ListLit) and not node.iter_range.elements
        if not node.iter_range or empty_list:
            return init_cost + result_cost, 1  # bind-shaped (sortBy)
        total = range_cost + init_cost + result_cost + range_size * (cond_cost + step_cost)
        return min(total, MAX_COST), range_size

    def _call(self, node: celast.Call, depth: int) -> tuple[int, int]:
        fn = node.function
        parts = ([node.target] if node.target is not None else []) + node.args
        costs = [self.cost(p, depth) for p in parts]
        base = sum(c for c, _ in costs)
        sizes = [s for _, s in costs]
        if fn in ("_&&_", "_||_"):
            return base, 1
        if fn == "_?_:_" and len(costs) == 3:
            return costs[0][0] + max(costs[1][0], costs[2][0]), max(sizes[1], sizes[2])
        if fn in ("_==_", "_!=_") and len(sizes) == 2:
            return base + _ceil(0.1 * min(sizes)), 1
        if fn in ("_<_", "_<=_", "_>_", "_>=_") and len(sizes) == 2:
            kinds = {self.node_types.get(p.id, t.DYN).kind for p in parts}
            return base + (_ceil(0.1 * min(sizes)) if kinds & {"string", "bytes"} else 1), 1
        if fn == "@in" and len(parts) == 2:
            container = self.node_types.get(parts[1].id)
            return base + (sizes[1] if isinstance(container, t.ListType) else 1), 1
        if fn in ("matches", "find", "findAll") and len(sizes) >= 2:
            return base + _ceil(0.1 * (sizes[0] + 1)) * _ceil(0.25 * sizes[1]), sizes[0]
        if fn == "contains" and len(sizes) == 2:
            return base + _ceil(0.1 * sizes[0] * 0.1 * sizes[1]), 1
        if fn in ("startsWith", "endsWith") and len(sizes) == 2:
            return base + _ceil(0.1 * sizes[1]), 1
        if fn == "_+_" and len(sizes) == 2:
            kinds = {self.node_types.get(p.id, t.DYN).kind for p in parts}
            if kinds & {"string", "bytes"}:
                return base + _ceil(0.1 * (sizes[0] + sizes[1])), sizes[0] + sizes[1]
            return base + 1, sizes[0] + sizes[1]
        if fn in _LIST_SCANS and parts:
            subject_t = self.node_types.get(parts[0].id)
            if isinstance(subject_t, t.ListType):
                elem = subject_t.elem
                factor = 1 + (0.1 * self._item_size(parts[0]) if elem.kind in ("string", "bytes") else 0)
                return base + _ceil(sizes[0] * factor), 1
            return base + _ceil(0.1 * sizes[0]), 1
        if fn == "join" and parts:
            subject_t = self.node_types.get(parts[0].id)
            elem_size = self._item_size(parts[0]) if isinstance(subject_t, t.ListType) else 1
            return base + _ceil(0.1 * sizes[0] * max(elem_size, 1)), sizes[0] * max(elem_size, 1)
        if fn == "validate" and len(sizes) == 2:
            return base + _ceil(0.1 * sizes[1] * 32), 1
        if fn in _LINEAR_TRAVERSAL and parts:
            subject = sizes[0] if node.target is not None or len(sizes) == 1 else sizes[-1]
            return base + _ceil(_LINEAR_TRAVERSAL[fn] * subject), subject
        if fn == "lists.range" and node.args:
            arg = node.args[0]
            count = (int(arg.value) if isinstance(arg, celast.Const) and isinstance(arg.value, int)
                     else MAX_COST)
            return base + max(count, 0), max(count, 0)
        if fn in ("sort", "distinct", "reverse", "flatten", "slice") and parts:
            return base + sizes[0] + 1, sizes[0]
        return base + 1, sizes[0] if sizes else 1


def estimate_cost(checked: celast.CheckedAst, node_types: dict[int, t.CelType]) -> int:
    return CostEstimator(checked, node_types).estimate()


def cardinality_for(ancestor_bounds: list[int | None], node_type: t.CelType) -> int:
    """How many times a rule may run: the product of ancestor maxItems/maxProperties, else a size-based
    bound."""
    if all(b is not None for b in ancestor_bounds):
        product = 1
        for bound in ancestor_bounds:
            product = min(product * int(bound or 0), MAX_COST)
        return product
    return t.MAX_REQUEST_BYTES // (node_type.min_size + 1)


def exceed_factor(cost: int, limit: int) -> str:
    ratio = cost / limit
    if ratio > 100:
        return "more than 100x"
    if ratio < 1.5:
        return f"{ratio:f}x"
    return f"{ratio:.1f}x"
