"""jq expressions whose work grows with the square of their input run only where a time bound holds: libjq
cannot be stopped in this process, so a program runs here only when what it builds (``cost.growth``) and
what it compares pair by pair (``cost.pair_terms``, sized by the values it will compare) are both small.

Judged by output size alone, `(.spec.s / "")[(.spec.t / "")] | length` ran in-process: an index that is an
array searches for it element by element, and a 40 kB manifest took 44 s (64 kB minutes), with `contains`,
`indices` and `inside` likewise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmaplint.jq.cost import pair_terms
from wmaplint.jq.parser import try_parse
from wmaplint.jq.runtime import IN_PROCESS_PAIRS, JqInput, JqRuntime, _cost, _pairs
from wmaplint.rules.examples import JOB

from .fuzz import environment, run_case
from .generators import COSTLY_JQ, Case

COSTLY = COSTLY_JQ[:6]  # those of the campaign, on strings; the fuzz family has arrays too


def manifest(size: int) -> str:
    """A Job of about ``size`` bytes: two long strings of one letter, the second ending in another."""
    half = size // 2
    spec = {"s": "a" * half, "t": "a" * (half // 2) + "b", "template": {"spec": {"containers": [
        {"name": "c", "image": "x"}]}}}
    return json.dumps({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": spec})


@pytest.mark.parametrize("expression", COSTLY)
def test_a_costly_replicas_path_on_a_40_kb_manifest(tmp_path: Path, expression: str) -> None:
    definition = JOB.replace("'.spec.parallelism // 1'", json.dumps(expression))
    case = Case("jq-time", "costly", {"def.yaml": definition, "job.json": manifest(40_000)},
                ["tree", "--definition", "def.yaml", "job.json"])
    outcome = run_case(case, tmp_path, environment(tmp_path))
    assert outcome.ok, str(outcome)  # within 20 s and 500 MB, exit 0/1/2, no traceback


def test_the_issues_expression_is_stopped_at_the_time_limit(tmp_path: Path) -> None:
    runtime = JqRuntime(timeout=1.0)
    try:
        result = runtime.evaluate(COSTLY[0], json.loads(manifest(40_000)))
    finally:
        runtime.close()
    assert result.limited and result.error == "evaluation exceeded the time limit of 1s", result


@pytest.mark.parametrize(("expression", "pairs"), [
    (".a - .b", 1), (".a - 1", 0), ("(.a | length) - (.b | length)", 0), (".a[0]", 0), ('.a["k"]', 0),
    (".a[.b]", 1), ('.s | index(".")', 0), (".a | contains(.b)", 1), (".items[] | .a - .b", 1),
    ('(.spec.s / "")[(.spec.t / "")]', 1), (".spec.replicas // 1", 0),
    ("(.spec.replicas // 1) as $want | $want - (.spec.partition // 0)", 1),
])
def test_the_pairwise_steps_of_a_program(expression: str, pairs: int) -> None:
    tree = try_parse(expression)
    assert not isinstance(tree, Exception)
    assert len(pair_terms(tree)) == pairs


def test_values_read_from_the_input_are_sized_by_what_they_hold() -> None:
    # the catalog's StatefulSet status expressions subtract one field from another: numbers, in-process
    expression = ("(.spec.replicas // 1) as $want | (.status.updatedReplicas // 0) >= $want - "
                  "(.spec.updateStrategy.rollingUpdate.partition // 0)")
    growth, terms, _ = _cost(expression)
    assert terms is not None and len(terms) == 1
    small = {"spec": {"replicas": 3, "updateStrategy": {"rollingUpdate": {"partition": 1}}}}
    assert _pairs(terms, small, len(json.dumps(small))) == 1
    rolling = {"rollingUpdate": {"partition": [2] * 1000}}
    hostile = {"spec": {"replicas": [1] * 1000, "updateStrategy": rolling}}
    assert _pairs(terms, hostile, len(json.dumps(hostile))) > IN_PROCESS_PAIRS
    runtime = JqRuntime()
    try:
        info = runtime._info(expression)
        assert runtime._runs_here(info, JqInput(small), JqInput(small).text)
        assert not runtime._runs_here(info, JqInput(hostile), JqInput(hostile).text)
        assert runtime.evaluate(expression, hostile).outputs == (False,)  # in the worker, as libjq gives it
    finally:
        runtime.close()
