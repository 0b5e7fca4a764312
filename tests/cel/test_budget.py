"""The API server's runtime cost limits on rule evaluation: each evaluation bounded with the object's real
sizes before it runs, 1,000,000 per call, 10,000,000 per object; past them a WM608 finding, not a run."""

from __future__ import annotations

from typing import Any

from cel_rule_ids import rule_of

from wmaplint.cel import validate_object
from wmaplint.cel.budget import OBJECT_BUDGET, CostBudget, SizeIndex, evaluation_bound
from wmaplint.cel.checker import check_expression
from wmaplint.cel.limits import PER_CALL_LIMIT
from wmaplint.cel.types import DYN


def _bound(rule: str, value: Any) -> int:
    result = check_expression(rule, {"self": DYN}, None)
    assert result.ok and result.compiled is not None and result.compiled.ast is not None, result.problems
    return evaluation_bound(result.compiled.ast, result.node_types, {"self": SizeIndex(value)})


def _schema(rule: str, **properties: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "x-kubernetes-validations": [{"rule": rule}]}


NAMES = {"type": "array", "items": {"type": "string"}}


def test_size_index_keeps_the_largest_size_at_each_path() -> None:
    index = SizeIndex({"a": [{"b": "xy"}, {"b": "wxyz"}, {}], "c": {"key-one": 1}})
    a = index.child(0, "a")
    assert a is not None and index.size(a) == 3
    item = index.element(a)
    assert item is not None and index.size(index.child(item, "b") or 0) == 4
    c = index.child(0, "c")
    assert c is not None and index.key_size(c) == len("key-one") and index.element(c) is None


def test_the_largest_size_is_known_before_the_paths_are_built() -> None:
    value = {"a": [{"b": "x" * 40}, {}], "c": {"d": list(range(7))}}
    index = SizeIndex(value)
    assert index.largest == 40  # the one pass a tabled bound needs
    assert index.size(0) == 2 and index.largest == 40  # the paths, built when first asked for
    item = index.element(index.child(0, "a") or 0)
    assert item is not None and index.size(index.child(item, "b") or 0) == 40


def test_bound_follows_the_data_not_the_schema() -> None:
    rule = "self.names.all(a, self.names.all(b, a == b || a != b))"
    small, large = _bound(rule, {"names": ["x"] * 10}), _bound(rule, {"names": ["x"] * 100})
    assert 0 < small < large and 90 < large / small < 110  # nested loops: a hundredfold for ten times more


def test_bound_reads_string_lengths() -> None:
    rule = "self.s.matches('^a+$')"
    short, long = _bound(rule, {"s": "a" * 10}), _bound(rule, {"s": "a" * 10_000})
    assert long > 100 * short


def test_paths_the_data_lacks_cost_nothing() -> None:
    rule = "!has(self.groups) || self.groups.exists(g, g.members.exists(m, m == self.name))"
    assert _bound(rule, {"name": "x" * 5000}) < 100  # no groups: the loops cannot run, however long the name


def test_per_call_limit_refuses_before_running() -> None:
    budget = CostBudget()
    assert budget.admit(PER_CALL_LIMIT) is None
    refused = budget.admit(PER_CALL_LIMIT + 1)
    assert refused is not None and "over the per-call limit of 1,000,000" in refused and not budget.exhausted


def test_object_budget_is_shared() -> None:
    budget = CostBudget()
    for _ in range(OBJECT_BUDGET // PER_CALL_LIMIT):
        assert budget.admit(PER_CALL_LIMIT) is None
    refused = budget.admit(1)
    assert refused is not None and "budget of 10,000,000" in refused and budget.exhausted


def test_expensive_rule_on_large_data_is_wm608_and_cheap_data_runs() -> None:
    schema = _schema("self.names.all(a, self.names.all(b, self.names.all(c, a + b + c != '')))", names=NAMES)
    [violation] = validate_object(schema, {"names": ["x"] * 200})
    assert rule_of(violation) == "WM608" and "per-call limit" in violation.message
    assert validate_object(schema, {"names": ["x"] * 5}) == []


def test_budget_exhausted_stops_all_later_rules() -> None:
    item = {
        "type": "object",
        "properties": {"names": NAMES},
        "x-kubernetes-validations": [{"rule": "self.names.all(a, self.names.all(b, a == b || a != b))"}],
    }
    schema = {"type": "object", "properties": {"items": {"type": "array", "items": item}},
              "x-kubernetes-validations": [{"rule": "self.items.size() < 0"}]}
    obj = {"items": [{"names": ["x"] * 90} for _ in range(400)]}  # 400 evaluations of some 50,000 each
    violations = validate_object(schema, obj)
    assert [rule_of(v) for v in violations][:1] == ["WM604"]  # the cheap root rule ran first and failed
    assert rule_of(violations[-1]) == "WM608" and "budget of 10,000,000" in violations[-1].message
    assert len(violations) == 2  # nothing after the budget ran out


def test_evaluator_iteration_cap_is_not_a_rejection() -> None:
    schema = _schema("self.xs.all(x, x >= 0)", xs={"type": "array", "items": {"type": "integer"}})
    [violation] = validate_object(schema, {"xs": list(range(20_000))})
    assert rule_of(violation) == "WM608" and "10,000 iterations" in violation.message


def test_compile_errors_are_capped_like_cel_go() -> None:
    rule = " && ".join(f"self.f{i} == 1" for i in range(500))
    result = check_expression(rule, {"self": validate_types()}, "bool")
    assert len(result.problems) == 101 and result.truncated == 400
    assert result.problems[-1].message == "400 more errors were truncated"
    [violation] = validate_object(_schema(rule, a={"type": "integer"}), {"a": 1})
    assert violation.message.endswith("undefined field 'f0' (and 499 more)") and "\n" not in violation.message


def validate_types() -> Any:
    from wmaplint.cel import types as t

    return t.SchemaTypes().type_of({"type": "object", "properties": {"a": {"type": "integer"}}}, "self")
