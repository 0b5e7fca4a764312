"""Calls of a bound program (``jq.runtime.bound``, ``JqRuntime.evaluate_calls``): the program's text holds no
value of a call, so it is compiled once whatever the manifest, and each call's result is exactly that of the
program run alone on ``[its values, manifest]``, whether it ran here with the other calls, in the worker, or
alone after failing."""

from __future__ import annotations

import math

import pytest

from wmaplint.jq.runtime import IN_PROCESS_BUDGET, JqCall, JqInput, JqRuntime, bound

DOC = {"metadata": {"name": "w"}, "spec": {"items": [{"n": 1}, {"n": 2}, {"n": "x"}]}}


@pytest.fixture()
def runtime():  # type: ignore[no-untyped-def]
    found = JqRuntime()
    yield found
    found.close()


def _alone(runtime: JqRuntime, call: JqCall, doc: object) -> object:
    return runtime.evaluate(call.program, JqInput(None, f"[{call.values},{JqInput(doc).text}]"))


PROGRAMS = {
    "plain": bound(("at",), ". as $w | getpath($at) | .n + 1"),
    "outputs": bound(("at", "k"), "getpath($at) | .n, $k, ($k | keys)"),
    "nan": bound(("at",), "nan"),
    "many": bound(("at",), ".spec.items[] | .n"),
    "away": bound(("at",), 'getpath($at) | .n | tostring | test("1")'),  # `test`: no cost bound
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_each_call_gives_what_the_program_alone_gives(runtime: JqRuntime, name: str) -> None:
    program = PROGRAMS[name]
    calls = [JqCall.of(program, [["spec", "items", i], {"b": 1, "a": 2}]) for i in range(3)]
    results = runtime.evaluate_calls(calls, DOC)
    assert list(results) == calls
    for call in calls:
        alone = _alone(runtime, call, DOC)
        if name == "nan":
            assert math.isnan(results[call].first) and math.isnan(alone.first)  # type: ignore[attr-defined]
        else:
            assert results[call] == alone


def test_a_failing_call_keeps_its_partial_outputs_and_message(runtime: JqRuntime) -> None:
    calls = [JqCall.of(PROGRAMS["plain"], [["spec", "items", i]]) for i in range(3)]
    results = runtime.evaluate_calls(calls, DOC)
    assert [r.outputs for r in results.values()] == [(2,), (3,), ()]
    assert results[calls[2]].error == 'string ("x") and number (1) cannot be added'


def test_a_calls_values_are_passed_as_every_input_is_keys_sorted(runtime: JqRuntime) -> None:
    call = JqCall.of(bound(("v",), "$v | to_entries | map(.key)"), [{"b": 1, "a": 2, "c": 3}])
    assert runtime.evaluate_calls([call], DOC)[call].first == ["a", "b", "c"]


def test_a_program_is_compiled_once_whatever_the_values_and_the_manifest(runtime: JqRuntime) -> None:
    program = bound(("at",), "getpath($at) | .n")
    for count in (1, 2, 3):
        doc = {"spec": {"items": [{"n": i} for i in range(count)]}}
        calls = [JqCall.of(program, [["spec", "items", i]]) for i in range(count)]
        assert [r.first for r in runtime.evaluate_calls(calls, doc, [program]).values()] == list(range(count))
    assert len(runtime._call_batches) == 1


def test_the_calls_of_a_program_run_here_only_when_together_they_are_bounded(runtime: JqRuntime) -> None:
    program = bound(("i",), "[., ., ., .]")
    doc = {"s": "x" * 200_000}
    size = len(JqInput(doc).text)
    info = runtime._info(program)
    fits = int(IN_PROCESS_BUDGET / (info.growth * size))
    assert fits >= 1
    one = [JqCall.of(program, [0])]
    many = [JqCall.of(program, [i]) for i in range(fits + 1)]
    assert runtime._calls_run_here(info, one, JqInput(doc), JqInput(doc).text)
    assert not runtime._calls_run_here(info, many, JqInput(doc), JqInput(doc).text)


def test_a_program_naming_the_batch_variables_runs_alone(runtime: JqRuntime) -> None:
    program = bound(("at",), "$_wmaplint_batch_input")
    calls = [JqCall.of(program, [i]) for i in range(2)]
    results = runtime.evaluate_calls(calls, DOC)
    assert all(r.error == "variable not defined: $_wmaplint_batch_input" for r in results.values())


def test_calls_on_a_manifest_jq_cannot_be_given_fail_as_evaluations_on_it_do(runtime: JqRuntime) -> None:
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    call = JqCall.of(bound(("at",), "."), [0])
    result = runtime.evaluate_calls([call], deep)[call]
    assert result.error is not None and result.error.startswith("input cannot be passed to jq")
    assert runtime.evaluate(".", deep).error == result.error


def test_calls_in_the_worker_over_its_time_bound_are_each_evaluated_alone() -> None:
    """The worker runs a manifest's calls as one program under one time bound; where that program exceeds it,
    each call runs alone under its own, and only the one that loops is cut short."""
    runtime = JqRuntime(timeout=0.5)
    program = bound(("n",), "$n as $k | 0 | until(. >= $k; . + 1)")  # `until`: no cost bound
    calls = [JqCall.of(program, [10]), JqCall.of(program, [10**12]), JqCall.of(program, [3])]
    results = runtime.evaluate_calls(calls, DOC)
    runtime.close()
    assert [results[c].outputs for c in calls] == [(10,), (), (3,)]
    looped = results[calls[1]]
    assert looped.limited and looped.error == "evaluation exceeded the time limit of 0.5s"
