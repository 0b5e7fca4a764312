"""Resolution stays bounded: huge manifests, long document streams, risky jq programs, a killed parent.

Memory is bounded with RLIMIT_AS in a subprocess (the figure the issue's reproducers were held to); the
timeouts here only detect hangs.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from wmaplint.jq.runtime import JqRuntime
from wmaplint.resolve import loading
from wmaplint.resolve.run import resolve_files
from wmaplint.rules.examples import job_with

MAIN_PROCESS_MEMORY = 500 << 20
HANG = 60.0
JOB = """\
apiVersion: batch/v1
kind: Job
metadata: {name: j%d}
spec:
  parallelism: 2
  template: {spec: {containers: [{name: c, image: busybox}]}}
"""


def _limited() -> None:
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (MAIN_PROCESS_MEMORY, hard))


def _tree(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "wmaplint", "tree", *map(str, args)],
        capture_output=True, text=True, timeout=HANG, preexec_fn=_limited,
        env={**os.environ, "NO_COLOR": "1"},
    )


def _no_traceback(run: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in run.stderr, run.stderr[-3000:]
    assert run.returncode in (0, 1, 2), run.stderr[-3000:]


def test_a_jobset_with_100000_replicated_jobs_is_reported_not_resolved(tmp_path):
    job = "{spec: {template: {spec: {containers: [{name: c}]}}}}"
    jobs = "".join(f"  - {{name: w{i}, replicas: 1, template: {job}}}\n" for i in range(100_000))
    path = tmp_path / "jobset.yaml"
    path.write_text("apiVersion: jobset.x-k8s.io/v1alpha2\nkind: JobSet\nmetadata: {name: big}\n"
                    "spec:\n  replicatedJobs:\n" + jobs)
    assert path.stat().st_size > 8 << 20
    run = _tree(path)
    _no_traceback(run)
    assert "1:1: error WM718 manifest document of" in run.stderr


def test_a_document_of_many_small_nodes_is_reported(tmp_path):
    items = "".join(f"    - x{i}\n" for i in range(40_000))  # under 1 MiB, over the node limit
    path = tmp_path / "job.yaml"
    path.write_text((JOB % 0).replace("spec:\n", "spec:\n  args:\n" + items, 1) + "---\n" + JOB % 1)
    run = resolve_files([str(path)], use_catalog=True, validate=False)
    limits = [d for d in run.diagnostics if d.rule == "WM718"]
    assert [d.span.start_line for d in limits] == [1]
    assert [w.name for w in run.workloads] == ["j1"]  # the next document is still resolved


def test_a_stream_past_the_document_limit_resolves_the_first_ones_and_says_where_it_stopped(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(loading, "MAX_DOCUMENTS", 3)
    first = tmp_path / "a.yaml"
    first.write_text("---\n".join(JOB % i for i in range(2)))
    second = tmp_path / "b.yaml"
    second.write_text("---\n".join(JOB % i for i in range(2, 5)))
    run = resolve_files([str(first), str(second)], validate=False)
    assert [w.name for w in run.workloads] == ["j0", "j1", "j2"]
    limits = [d for d in run.diagnostics if d.rule == "WM718"]
    assert len(limits) == 1 and limits[0].path == str(second)
    assert limits[0].span.start_line == 7  # the `---` of j3


def test_a_stream_of_5000_documents_ends_within_the_memory_bound(tmp_path):
    path = tmp_path / "stream.yaml"
    path.write_text("---\n".join(JOB % i for i in range(loading.MAX_DOCUMENTS + 1)))
    run = _tree(path)
    _no_traceback(run)
    assert run.returncode == 1 and "35000:1: error WM718 more than 5000 manifest documents" in run.stderr
    assert "Job j4999:" in run.stdout and "Job j5000:" not in run.stdout


def test_string_repetition_folded_by_the_compiler_stays_out_of_the_main_process(tmp_path, monkeypatch):
    definition = tmp_path / "def.yaml"
    definition.write_text(job_with("'.spec.parallelism // 1'", "'\"x\" * 2e9'"))
    manifest = tmp_path / "job.yaml"
    manifest.write_text(JOB % 0)
    run = _tree("--definition", definition, manifest)
    _no_traceback(run)
    assert run.returncode == 1 and 'replicasPath of job `"x" * 2e9` failed' in run.stderr

    import jq

    compiled: list[str] = []
    original = jq.compile
    monkeypatch.setattr(jq, "compile", lambda text, *a, **k: compiled.append(text) or original(text, *a, **k))
    runtime = JqRuntime(timeout=5.0)
    try:
        assert runtime.compile_error('"x" * 2e9') is None  # compiled by the worker, within its limits
        assert not runtime.evaluate('"x" * 2e9 | length', {}).ok
    finally:
        runtime.close()
    assert not any("2e9" in text for text in compiled)


def test_each_program_is_compiled_once_and_a_batch_once_per_set(monkeypatch):
    import jq

    compiled: list[str] = []
    original = jq.compile
    monkeypatch.setattr(jq, "compile", lambda text, *a, **k: compiled.append(text) or original(text, *a, **k))
    runtime = JqRuntime()
    expressions = [".spec.parallelism // 1", ".metadata.name", ".spec.template.spec.containers | length"]
    try:
        for n in range(3):
            results = runtime.evaluate_many(expressions, {"metadata": {"name": f"j{n}"}, "spec": {}})
            assert results[".metadata.name"].outputs == (f"j{n}",)
        assert len(compiled) == 1  # the batch program alone
        runtime.evaluate(".metadata.name", {"metadata": {"name": "x"}})
        runtime.evaluate(".metadata.name", {"metadata": {"name": "y"}})
        assert len(compiled) == 2  # evaluated alone: compiled alone, once
    finally:
        runtime.close()


@pytest.mark.parametrize("extra", [[], ["def _wmaplint_batch_run: 1; _wmaplint_batch_run"]])
def test_a_batch_gives_each_expression_what_it_gives_alone(extra: list[str]) -> None:
    # the batch defines its wrapping once (jq.runtime.batch_program); an expression naming those definitions
    # makes the batch write the wrapping out for each
    expressions = [".a", "def f: .a; f # a comment", '.a | error("boom")', "nan", "$ENV", "env", "range(5)",
                   "[path(.b[])]", "input", ".a, .a, .a", *extra]
    data = {"a": 2, "b": [1, 2]}
    batched, alone = JqRuntime(max_outputs=2), JqRuntime(max_outputs=2)
    try:
        results = batched.evaluate_many(expressions, data)
        assert [p for p in batched._batches.values() if p is not None]  # they ran as one program
        assert {e: results[e] for e in expressions} == {e: alone.evaluate(e, data) for e in expressions}
    finally:
        batched.close()
        alone.close()


def test_a_batch_counts_the_outputs_of_generators_alone(monkeypatch):
    # counting every output (limit) was a third of a batch's run: what outputs one value at most runs without
    import jq

    compiled: list[str] = []
    original = jq.compile
    monkeypatch.setattr(jq, "compile", lambda text, *a, **k: compiled.append(text) or original(text, *a, **k))
    expressions = [".a", ".b[]", "[.b[]] | length", "first(.b[])", ".b[] | select(. > 1)", "nan"]
    data = {"a": 1, "b": [1, 2, 3, 4]}
    batched, alone = JqRuntime(max_outputs=2), JqRuntime(max_outputs=2)
    try:
        results = batched.evaluate_many(expressions, data)
        assert {e: results[e] for e in expressions} == {e: alone.evaluate(e, data) for e in expressions}
        assert results[".b[]"].limited and results[".b[]"].outputs == (1, 2)
        [batch] = [text for text in compiled if "_wmaplint_batch_" in text]
        for one in (".a", "[.b[]] | length", "first(.b[])", "nan"):
            assert f"_wmaplint_batch_one(({one}\n))" in batch
        for many in (".b[]", ".b[] | select(. > 1)"):
            assert f"_wmaplint_batch_run(3; ({many}\n))" in batch
    finally:
        batched.close()
        alone.close()


def test_worker_expressions_of_one_input_share_a_request_but_keep_their_own_time_bound():
    runtime = JqRuntime(timeout=1.0)
    try:
        expressions = ['.a | test("b")', "until(false; .)", '.a | split("b") | length']
        results = runtime.evaluate_many(expressions, {"a": "abc"})
        assert results['.a | test("b")'].outputs == (True,)
        assert results["until(false; .)"].limited and "time limit" in (results["until(false; .)"].error or "")
        assert results['.a | split("b") | length'].outputs == (2,)
    finally:
        runtime.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_the_worker_dies_with_its_parent_even_while_busy():
    script = (
        "import json, sys, time\n"
        "from wmaplint.jq.runtime import _Worker\n"
        "worker = _Worker()\n"
        "request = {'exprs': ['until(false; .)'], 'input': '1', 'max': 5, 'timeout': 600}\n"
        "worker.proc.stdin.write(json.dumps(request).encode() + b'\\n')\n"
        "worker.proc.stdin.flush()\n"
        "print(worker.proc.pid, flush=True)\n"
        "time.sleep(600)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        time.sleep(0.5)  # let it start the endless program
        assert _alive(worker)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False
