"""The jq worker compiles the programs of one request it has not compiled yet as one program, each still run
alone on the input with its own outputs, error and time bound; a program that does not compile, or a joint
compile that loses the worker, leaves each program to be compiled alone, with its own error."""

from __future__ import annotations

import json

import pytest

from wmaplint.jq import _runtime_worker as worker
from wmaplint.jq.runtime import JqRuntime, guarded

DOC = {"a": "abc", "spec": {"template": {"x": 1}, "items": [1, 2, 3]}}
PROGRAMS = [
    "[path(.spec.template)]",
    "def f: .a; f",
    '.a | test("b")',
    '.spec.x | error("boom")',
    "label $out | 1, break $out",
    "input",
    "$ENV",
    ".spec.items[] | select(. > 1)",
    ". as $workload | [. | path(.spec.template)]",
]


def _replies(programs: dict, exprs: list[str]) -> list[dict]:
    text = json.dumps(DOC)
    return [worker._answer(programs, expr, text, 1000) for expr in exprs]


def test_programs_compiled_together_answer_as_each_compiled_alone() -> None:
    exprs = [guarded(p) for p in PROGRAMS]
    joint: dict = {}
    worker._together(joint, exprs)
    assert len({id(program.joint) for program in joint.values()}) == 1  # one compile for all of them
    assert _replies(joint, exprs) == _replies({}, exprs)
    assert _replies(joint, exprs)[2] == {"outputs": [True], "compiled": True}
    assert _replies(joint, exprs)[3]["error"] == "boom"


def test_a_program_that_does_not_compile_leaves_each_to_compile_alone() -> None:
    exprs = [guarded(".a"), guarded(".a |"), guarded("nosuchfunction(1)")]
    programs: dict = {}
    worker._together(programs, exprs)
    assert programs == {}
    replies = _replies(programs, exprs)
    assert replies[0] == {"outputs": ["abc"], "compiled": True}
    assert replies[1]["compile_error"] and replies[2]["compile_error"]
    assert replies[2]["error"] == "function not defined: nosuchfunction/1"


def test_a_program_naming_the_branch_variable_is_compiled_alone() -> None:
    exprs = [guarded(".a"), guarded(f"{worker.BRANCH} + 1"), guarded(".spec.items | length")]
    programs: dict = {}
    worker._together(programs, exprs)
    assert exprs[1] not in programs and {exprs[0], exprs[2]} <= set(programs)
    assert _replies(programs, exprs)[1]["compile_error"]


@pytest.fixture()
def runtime():
    rt = JqRuntime(timeout=5.0)
    yield rt
    rt.close()


def test_a_joint_compile_that_loses_the_worker_gives_each_program_its_own_result(runtime: JqRuntime) -> None:
    # libjq folds the repetition while compiling and aborts the worker under its memory limit
    expressions = ['.a | test("b")', '"x" * 2e9 | length', '.a | split("b") | length']
    results = runtime.evaluate_many(expressions, {"a": "abc"})
    assert results['.a | test("b")'].outputs == (True,)
    assert results['.a | split("b") | length'].outputs == (2,)
    alone = JqRuntime(timeout=5.0)
    try:
        assert results['"x" * 2e9 | length'] == alone.evaluate('"x" * 2e9 | length', {"a": "abc"})
    finally:
        alone.close()
    assert results['"x" * 2e9 | length'].error == "evaluation exceeded the memory limit"
    again = runtime.evaluate_many(expressions, {"a": "abd"})  # the set is not compiled together again
    assert again['.a | test("b")'].outputs == (True,)
    assert again['"x" * 2e9 | length'] == results['"x" * 2e9 | length']


def test_worker_results_of_many_expressions_are_those_of_each_alone(runtime: JqRuntime) -> None:
    expressions = [f"[path({p})]" for p in (".spec.template", ".spec.items[]", ".spec.nothing", ".a[]")]
    expressions += ['.a | test("c")', '.a | sub("a"; "b")']
    together = runtime.evaluate_many(expressions, DOC)
    for expression in expressions:
        alone = JqRuntime()
        try:
            assert together[expression] == alone.evaluate(expression, DOC), expression
        finally:
            alone.close()
    assert together["[path(.spec.items[])]"].outputs == ([["spec", "items", 0], ["spec", "items", 1],
                                                           ["spec", "items", 2]],)
    assert not together["[path(.a[])]"].ok


def test_programs_are_compiled_together_by_the_chunk() -> None:
    exprs = [guarded(f".spec.items[{i % 3}] + {i}") for i in range(worker.JOINT * 2 + 1)]
    programs: dict = {}
    worker._together(programs, exprs)
    joints = [id(programs[e].joint) for e in exprs[:-1]]
    assert len(set(joints)) == 2 and exprs[-1] not in programs  # a chunk of one is compiled alone
    assert _replies(programs, exprs) == _replies({}, exprs)
