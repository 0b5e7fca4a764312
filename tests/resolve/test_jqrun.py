import pytest

from wmaplint.jq.runtime import JqInput, normalize, refusal


def test_objects_iterate_in_sorted_key_order_like_gojq(runtime):
    data = {"services": {"prefill": {"r": 2}, "decode": {"r": 1}, "frontend": {"r": 3}}}
    assert runtime.evaluate(".services[] | .r", data).outputs == (1, 3, 2)
    assert runtime.evaluate(".services | to_entries[] | .key", data).outputs == (
        "decode",
        "frontend",
        "prefill",
    )


def test_host_only_builtins_are_refused_before_running(runtime):
    for expression in (
        "input",
        "[inputs]",
        "env.HOME",
        "$ENV.HOME",
        "halt",
        "debug",
        "input_filename",
        "keys_unsorted",
    ):
        result = runtime.evaluate(expression, {})
        assert not result.ok and "not available" in result.error, expression


def test_fields_and_object_keys_named_like_forbidden_builtins_are_fine(runtime):
    pod = {"env": [1], "input": 2}
    assert runtime.evaluate(".env[0]", pod).outputs == (1,)
    assert runtime.evaluate("{input: .input} | .input", pod).outputs == (2,)
    assert refusal('.spec.containers[].env[] | select(.name == "env")') is None


def test_errors_come_back_as_values_in_gojq_wording(runtime):
    assert runtime.evaluate("nosuch(1)", {}).error == "function not defined: nosuch/1"
    assert runtime.evaluate("$x", {}).error == "variable not defined: $x"
    result = runtime.evaluate(".a[] | .b", {"a": [{"b": 1}, 5]})
    assert result.outputs == (1,) and "Cannot index number" in result.error


def test_output_count_is_bounded(runtime):
    result = runtime.evaluate("[range(5000)][]", None)
    assert result.limited and len(result.outputs) == 1000


def test_a_runaway_loop_is_stopped(runtime):
    result = runtime.evaluate("until(false; .)", 1)
    assert result.limited and "time limit" in result.error
    # the runtime keeps working after killing the worker
    assert runtime.evaluate("[range(3)]", None).outputs == ([0, 1, 2],)


def test_integral_floats_are_passed_as_integers_as_gojq_prints_them(runtime):
    assert runtime.evaluate(". | tostring", 2.0).outputs == ("2",)
    assert normalize({"a": [1.0, 1.5]}) == {"a": [1, 1.5]}


def test_deeply_nested_input_is_an_error_value_not_a_crash(runtime):
    deep: object = 0
    for _ in range(20_000):
        deep = [deep]
    result = runtime.evaluate(".", JqInput(deep))
    assert not result.ok


def _growth(expression: str) -> float:
    from wmaplint.jq.cost import growth
    from wmaplint.jq.parser import parse

    return growth(parse(expression))


def test_cost_estimate_multiplies_nested_array_constructors():
    assert _growth(".spec.parallelism // 1") <= 4
    assert _growth("[.,.] | [.,.]") == 9  # a constructor: its body plus one; pipes multiply
    assert _growth(" | ".join(["[.,.,.,.,.,.,.,.]"] * 8)) > 8**8


@pytest.mark.parametrize(
    "expression",
    [
        ".a[] | $x",  # the variable once per element: quadratic
        ". as $d | .items[] | $d",
        ".[] as $x | .",
        "{a: .[], b: .}",
        ".name * .count",  # string repetition by a number from the data
        '"x" * 1' + "0" * 400,  # an exact integer literal beyond float64's range
        "unknown_function",
        ".a[] and .b[]",  # every combination of the two streams
        "last(.a[]) and .b[]",
        ". as $r | all(.items[]; . != $r)",  # the variable compared once per element of the data
        ". as $r | any(1, .items[]; . == $r)",
    ],
)
def test_cost_estimate_refuses_what_it_cannot_bound(expression):
    assert _growth(expression) == float("inf")


# The catalog's status matchers (agent sandbox, JobSet, RayJob...) join `any(gen; cond)` terms with `and`:
# one output each, so they run in-process instead of costing a worker request per manifest.
@pytest.mark.parametrize(
    "expression",
    [
        '(.spec.operatingMode // "Running") == "Running" and any(.status.conditions[]?; .type == "Ready")',
        "any(.a[]?; .b) and all(.c[]?; .d) and (isempty(.e[]) | not) and first(.f[]) == 1",
        # a variable read for each of a constant number of values (KServe's LLMInferenceService status)
        '(.spec.reason // "") as $reason | all("Progressing", "Stopped"; . != $reason) and any(.a[]?; .b)',
    ],
)
def test_a_builtin_of_one_output_is_no_stream_whatever_its_argument_generates(expression, runtime):
    from wmaplint.jq.runtime import _MIN_INPUT_SIZE, IN_PROCESS_BUDGET

    assert _growth(expression) * _MIN_INPUT_SIZE <= IN_PROCESS_BUDGET
    data = {"spec": {}, "status": {"conditions": [{"type": "Ready"}, {"type": "Ready"}]},
            "a": [{"b": 1}, {"b": 2}], "c": [{"d": 1}, {"d": 2}], "e": [1], "f": [1, 2]}
    assert runtime.evaluate(expression, data).outputs == (True,)


def test_exponential_construction_runs_bounded_in_the_worker():
    from wmaplint.jq.runtime import JqRuntime

    runtime = JqRuntime(timeout=1.0)
    try:
        expression = " | ".join(["[.,.,.,.,.,.,.,.]"] * 8) + " | tojson | length"
        result = runtime.evaluate(expression, {"spec": {"parallelism": 2}})
        assert result.limited and "exceeded the" in (result.error or "")
        # the runtime still works afterwards, in-process and in the worker
        assert runtime.evaluate(".spec.parallelism", {"spec": {"parallelism": 2}}).outputs == (2,)
        assert runtime.evaluate(".a * .b", {"a": 2, "b": 3}).outputs == (6,)
    finally:
        runtime.close()


def test_string_repetition_from_the_data_cannot_abort_the_process():
    from wmaplint.jq.runtime import JqRuntime

    runtime = JqRuntime(timeout=5.0)
    try:
        result = runtime.evaluate("(.s * .n) | length", {"s": "abcd", "n": 600_000_000})
        assert not result.ok
    finally:
        runtime.close()
