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

from collections.abc import Callable, Mapping
from typing import Any

from wmaplint.cel.limits import MAX_COST, OBJECT_BUDGET, PER_CALL_LIMIT
from wmaplint.cel.sizes import SizeIndex


def evaluation_bound(checked: Any, node_types: Mapping[int, Any], variables: Mapping[str, SizeIndex]) -> int:
    """An upper bound of the cost cel-go would count for evaluating ``checked`` (a CheckedAst) on these
    variables' values."""
    from wmaplint.cel.data_cost import DataCostEstimator

    return DataCostEstimator(checked, dict(node_types), variables).estimate()


# Sizes at which a program's bound is worked out once, when it is compiled: every size in the data at most S
# gives at most the bound at S (the estimator only grows with sizes), with no need of the AST at run time.
TABLE_SIZES = (16, 256, 4096)
CostTable = tuple[tuple[int, int], ...]


def cost_table(checked: Any, node_types: Mapping[int, Any]) -> CostTable:
    from wmaplint.cel.data_cost import UniformCostEstimator

    types = dict(node_types)
    return tuple((size, UniformCostEstimator(checked, types, size).estimate()) for size in TABLE_SIZES)


CHEAP_BOUND = 10_000  # a tabled bound up to this is charged as it is: a thousand of them fit in the budget


def charge(budget: CostBudget, table: Callable[[], CostTable], checked: Callable[[], Any],
           node_types: Mapping[int, Any], sizes: Mapping[str, SizeIndex]) -> str | None:
    """Charge an evaluation's bound to ``budget``, or say why it may not run. The bound tabled when the
    program compiled serves small data without the AST; a larger one is worked out on the data itself."""
    tabled = bound_from_table(table(), max(index.largest for index in sizes.values()))
    if tabled is not None and tabled <= min(CHEAP_BOUND, budget.left):
        return budget.admit(tabled)
    return budget.admit(evaluation_bound(checked(), node_types, sizes))


def bound_from_table(table: CostTable, largest: int) -> int | None:
    """The tabled bound for data whose largest list, map or string has ``largest`` elements, if tabled."""
    return next((bound for size, bound in table if largest <= size), None)


class CostBudget:
    """The cost left for one object's evaluations; ``admit`` takes an evaluation's bound or says why not."""

    def __init__(self, total: int = OBJECT_BUDGET) -> None:
        self.left = total
        self.exhausted = False
        self.admitted = 0  # the bound last admitted: what a program read from the cache is held to

    def admit(self, bound: int) -> str | None:
        if bound > PER_CALL_LIMIT:
            return (f"not evaluated: its cost on this data may reach {_count(bound)}, over the per-call "
                    f"limit of {_count(PER_CALL_LIMIT)}")
        if bound > self.left:
            self.exhausted = True
            return (f"not evaluated, nor any rule after it: with the rules before it, the cost on this data "
                    f"may pass the budget of {_count(OBJECT_BUDGET)} for one object")
        self.left -= bound
        self.admitted = bound
        return None

    def refund(self) -> None:
        """Give back the bound last admitted: its program is compiled afresh and charged again."""
        self.left += self.admitted
        self.admitted = 0


def _count(cost: int) -> str:
    return "more than 10^19" if cost >= MAX_COST else f"{cost:,}"
