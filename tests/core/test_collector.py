"""The cyclic garbage collector in a command-line run: off for batch commands, what the first file loaded
frozen, collected every few files, back on for the language server, untouched for callers that embed the
CLI."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wmaplint import engine
from wmaplint.cli import LazyGroup, main
from wmaplint.rules.examples import JOB


def _collector_at_exit(*args: str, cwd: Path) -> str:
    script = (
        "import atexit, gc, runpy, sys\n"
        "atexit.register(lambda: print('collector', gc.isenabled(), file=sys.stderr))\n"
        f"sys.argv = ['wmaplint', *{list(args)!r}]\n"
        "runpy.run_module('wmaplint', run_name='__main__')\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return proc.stderr.strip().splitlines()[-1]


def test_a_command_line_check_runs_without_the_cyclic_collector(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(JOB)
    assert _collector_at_exit("check", str(path), cwd=tmp_path) == "collector False"


def test_the_language_server_turns_the_collector_back_on() -> None:
    gc.disable()
    try:
        with click.Context(main) as ctx:
            assert isinstance(main, LazyGroup) and main.get_command(ctx, "lsp") is not None
        assert gc.isenabled()
    finally:
        gc.enable()


def test_an_embedding_caller_keeps_its_collector(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(JOB)
    assert gc.isenabled()
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert gc.isenabled()


def test_a_long_check_collects_young_garbage_every_few_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for index in range(2 * engine.COLLECT_EVERY + 2):
        (tmp_path / f"job-{index}.yaml").write_text(JOB.replace("name: batch-job-v1", f"name: job-{index}"))
    collections: list[int] = []
    monkeypatch.setattr(engine, "_linted", iter(range(1, 10**6)))
    monkeypatch.setattr(engine.gc, "collect", lambda generation=2: collections.append(generation) or 0)
    # what the first file loaded (modules, rules, schemas) is put out of the collections' sight, once
    monkeypatch.setattr(engine.gc, "freeze", lambda: collections.append(-1))
    gc.disable()
    try:
        report = engine.lint_paths([str(tmp_path)], engine.Options(jobs=1))
    finally:
        gc.enable()
    assert report.files_checked == 2 * engine.COLLECT_EVERY + 2
    assert collections == [-1, 0, 0]


def test_a_checked_definition_leaves_no_garbage_for_the_cyclic_collector() -> None:
    """A definition's model is a tree (an expression knows its component through a weak reference):
    reference counting frees a checked file, so the collections every few files find (almost) nothing."""
    from wmaplint.shipped_data import shipped

    files = sorted(shipped("catalog").glob("*.yaml"))
    for path in files:  # first runs fill the process-wide caches, which may hold cycles of their own
        engine.lint_text(path.read_text(encoding="utf-8"), str(path))
    gc.collect()
    # what exists now (the test process: every earlier test's objects) out of the collections' sight, as a
    # long check freezes what its first file loaded: each collection then looks at this file's objects only,
    # not at a heap that made it a second a collection late in the suite
    gc.freeze()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        left = {}
        for path in files:
            engine.lint_text(path.read_text(encoding="utf-8"), str(path))
            left[path.name] = gc.collect()
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
    assert {name: count for name, count in left.items() if count} == {}
