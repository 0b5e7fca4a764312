"""The programs the static bound used to keep out of the process, run in it: the paths a definition's
template path or the model's ``each`` give (``[path(.spec.workers[]?.template)]``), a multiplication of two
values of the data, guarded (``(.replicas // 1) * (.numOfHosts // 1)``), and the labels derived over a
constant list of pods. Each gives exactly what the worker gives, and what the bound cannot promise still goes
to the worker."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wmaplint.jq.cost import TIMES_DEFINITION, TIMES_MARK, growth, guarded_form
from wmaplint.jq.parser import parse
from wmaplint.jq.runtime import _MIN_INPUT_SIZE, JqRuntime
from wmaplint.resolve.run import resolve_files

EXAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "examples"


@pytest.fixture()
def runtimes() -> Iterator[tuple[JqRuntime, JqRuntime, list[str]]]:
    """A runtime as `tree` has it, one whose every program goes to the worker, and the programs the first
    sent to its worker."""
    here, away = JqRuntime(timeout=5.0), JqRuntime(timeout=5.0)
    sent: list[str] = []
    original = here._worker_results

    def recorded(expressions: list[str], text: str | None) -> Any:
        sent.extend(expressions)
        return original(expressions, text)

    here._worker_results = recorded  # type: ignore[method-assign]
    away._runs_here = lambda info, doc, text: False  # type: ignore[method-assign]
    try:
        yield here, away, sent
    finally:
        here.close()
        away.close()


PATHS = [
    "[path(.spec.template)]", "[path(.spec.workers[]?.template)]", "[path(.spec.a // .spec.b)]",
    "[path(.spec.c | to_entries[])]", "[path(.spec.s // {spec: {containers: [{name: \"x\"}]}})]",
    "[path(.spec.workers[] | select(.n > 1) | .template)]",
    "[path(if .spec.a then .spec.a else .spec.b end)]",
    "[path(first(.spec.workers[]))]", "[path(.spec.workers[0].template, .spec.x)]",
]
DATA = [
    {"spec": {"template": {"a": 1}, "workers": [{"n": 1, "template": 1}, {"n": 2, "template": 2}],
              "a": None, "b": 3, "c": {"x": 1}, "s": None}},
    {"spec": {"workers": {"k": {"n": 5, "template": "t"}}, "a": [1], "c": "not an object"}},
    {"spec": "a string"}, {}, [], None,
]


@pytest.mark.parametrize("expression", PATHS)
def test_a_path_of_fields_and_one_iteration_runs_here_and_gives_what_the_worker_gives(
        expression: str, runtimes: tuple[JqRuntime, JqRuntime, list[str]]) -> None:
    here, away, sent = runtimes
    assert growth(parse(expression)) < math.inf
    for data in DATA:
        assert here.evaluate(expression, data) == away.evaluate(expression, data), (expression, data)
    assert sent == []


@pytest.mark.parametrize("expression", [
    "[path(.a[][])]",  # an outer key once per inner element: the input's size squared
    "[path(getpath(.p))]", "[path(..)]", "[path(.[.k])]", "[path(recurse)]", "[path(nth(.n))]",
])
def test_a_path_whose_length_the_program_does_not_bound_stays_in_the_worker(expression: str) -> None:
    assert growth(parse(expression)) == math.inf


def test_the_paths_of_one_iteration_stay_within_their_bound_on_a_hostile_input() -> None:
    # one key as long as the input, over many elements; and many elements each with a long key
    long_key = "k" * 20_000
    inputs = [{long_key: list(range(2000))}, {f"{i:05d}" + "x" * 40: {"t": [1]} for i in range(2000)},
              {"a": [{"t": i} for i in range(5000)]}]
    runtime = JqRuntime()
    try:
        for expression in ("[path(.[][])]", "[path(.[] | .t, .u)]", "[path(.a[]?.t)]", "[path(.[])]"):
            bound = growth(parse(expression))
            for data in inputs:
                text = json.dumps(data, separators=(",", ":"), sort_keys=True)
                if bound == math.inf:
                    continue
                result = runtime.evaluate(expression, data)
                size = len(json.dumps(list(result.outputs), separators=(",", ":")))
                assert size <= bound * max(len(text), _MIN_INPUT_SIZE), (expression, size, len(text))
        assert growth(parse("[path(.[][])]")) == math.inf
    finally:
        runtime.close()


PRODUCTS = [
    "(.a // 1) * (.b // 1)", ".items[]? | (.replicas // 0) * (.hosts // 1)", ".a * .b * .c", "(.a) * ((.b))",
    "(if .a then .a else 2 end) * (.b | length)",
    ".a * (.b | tostring | startswith(\"(\") | if . then 2 else 3 end)",
]
VALUES = [
    {"a": 2, "b": 3, "c": 4, "items": [{"replicas": 2, "hosts": 4}, {"hosts": 2}]},
    {"a": "ab", "b": 3, "c": 1, "items": [{"replicas": "x", "hosts": 2}]},  # a string repeated: the worker
    {"a": {"x": {"y": 1}}, "b": {"x": {"z": 2}}, "c": {}},  # objects merge here
    {"a": [1], "b": 2}, {"a": None, "b": None}, {"a": 1.5, "b": -2, "c": 0}, {"a": 0, "b": "ab"},
]


@pytest.mark.parametrize("expression", PRODUCTS)
def test_a_guarded_multiplication_gives_what_the_worker_gives(
        expression: str, runtimes: tuple[JqRuntime, JqRuntime, list[str]]) -> None:
    here, away, sent = runtimes
    assert growth(parse(expression)) == math.inf and growth(parse(expression), guarded=True) < math.inf
    for data in VALUES:
        assert here.evaluate(expression, data) == away.evaluate(expression, data), (expression, data)
        many = here.evaluate_many([expression, ".a"], data)[expression]
        assert many == away.evaluate(expression, data), (expression, data)
    numbers = {"a": 2, "b": 3, "c": 4, "items": [{"replicas": 2, "hosts": 4}]}
    sent.clear()
    here.evaluate(expression, numbers)
    assert sent == []  # numbers multiply here


def test_the_guard_takes_its_operands_in_libjqs_order() -> None:
    import jq

    def outputs(program: str) -> list[Any]:
        try:
            return list(jq.compile(program).input_value({"e": 2}).all())
        except ValueError as error:
            return [str(error)]

    for left, right in (("1, 2", "10, 100"), ("{a: 1}, {b: 2}", "{c: 3}, {a: 4}"),
                        ('1, error("l")', '2, error("r")')):
        guarded = f"{TIMES_DEFINITION}[_wmaplint_times({left}; {right})]"
        assert outputs(guarded) == outputs(f"[({left}) * ({right})]")


def test_a_string_repeated_by_a_number_of_the_data_is_left_to_the_worker(
        runtimes: tuple[JqRuntime, JqRuntime, list[str]]) -> None:
    here, _, sent = runtimes
    result = here.evaluate("(.s * .n) | length", {"s": "ab", "n": 3})
    assert result.outputs == (6,) and sent == ["(.s * .n) | length"]
    assert TIMES_MARK not in str(result)


@pytest.mark.parametrize("expression", [
    "try (.a * .b) catch 0", "(.a * .b)?", ".x[.a * .b]?", "[.[] as [$a] ?// $a | $a * .b]",
    ".a * .b # a comment",
])
def test_a_multiplication_whose_stop_the_program_could_catch_is_not_guarded(expression: str) -> None:
    assert guarded_form(parse(expression), expression) is None


def test_labels_derived_over_a_constant_list_of_pods_are_bounded() -> None:
    program = ('. as $workload | (.) as $entry | "worker" as $component | [[[0, 0], [0, 1]][] as '
               '[$group, $index] | [(try [.metadata.name] catch ["<error>"]), (try [$group | tostring] catch '
               '["<error>"])]]')
    assert growth(parse(program)) < math.inf
    assert growth(parse("[.a[] as [$g] | [$g, .b]]")) == math.inf  # the data's list: a body per element


def test_the_catalogs_rayjob_resolves_without_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    from wmaplint.jq import runtime as jq_runtime

    def no_worker(*args: object) -> None:
        raise AssertionError("a program went to the worker")

    monkeypatch.setattr(jq_runtime, "_Worker", no_worker)
    monkeypatch.setattr(jq_runtime, "_DEFAULT", None)
    examples = sorted((EXAMPLES / "ray-io-rayjob-v1").glob("*.yaml"))
    run = resolve_files([str(p) for p in examples], validate=False)
    assert run.workloads and all(w.kind == "RayJob" for w in run.workloads)
