"""`tree` validates the manifests against their schemas in a forked child, beside the resolution, where a
second process may run: what it prints is the same with one process and with two."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from wmaplint import childproc
from wmaplint.resolve import run as resolve_run
from wmaplint.resolve.run import resolve_files

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "catalog" / "examples").glob("*/*.yaml"))


def _broken(tmp_path: Path) -> list[Path]:
    """Copies of catalog examples the schemas refuse: a string for a number, an unknown field, a name a CRD's
    CEL rule refuses."""
    edits = {
        "apps-deployment-v1/triton-inference.yaml": ("replicas: 3", 'replicas: "three"'),
        "jobset-x-k8s-io-jobset-v1alpha2/leader-workers-gpu.yaml": ("replicatedJobs:", "replicatedJobz:"),
        "trainer-kubeflow-org-trainjob-v1alpha1/finetune-on-runtime-defaults.yaml": ("name: qwen-finetune",
                                                                              "name: Bad_Name"),
    }
    made = []
    for name, (old, new) in edits.items():
        text = (ROOT / "catalog" / "examples" / name).read_text()
        assert old in text
        path = tmp_path / name.replace("/", "-")
        path.write_text(text.replace(old, new, 1))
        made.append(path)
    return made


def _where_validated(monkeypatch) -> list[bool]:
    """Whether each validation of a run went to a child (its value was made by another process)."""
    made: list[bool] = []

    class Spied(childproc.Apart):
        def __init__(self, work, **kwargs):
            super().__init__(lambda: (work(), os.getpid()), **kwargs)

        def result(self):
            value, pid = super().result()
            made.append(pid != os.getpid())
            return value

    monkeypatch.setattr(resolve_run, "Apart", Spied)
    return made


@pytest.mark.parametrize("output", ["text", "json"])
def test_two_processes_print_what_one_prints(tmp_path, output):
    files = [*EXAMPLES, *_broken(tmp_path)]

    def tree(jobs: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "wmaplint", "tree", "--jobs", jobs, "--format", output,
                               *map(str, files)], capture_output=True, text=True, cwd=tmp_path, check=False)

    one, two = tree("1"), tree("2")
    said = one.stdout if output == "json" else one.stderr
    for rule in ("WM604", "WM607"):  # validation's findings, from the CRDs' CEL rules and structure
        assert rule in said
    assert (two.returncode, two.stdout, two.stderr) == (one.returncode, one.stdout, one.stderr)


def test_the_validation_runs_in_a_child_where_a_second_process_may_run(tmp_path, monkeypatch):
    made = _where_validated(monkeypatch)
    files = [str(p) for p in _broken(tmp_path)]
    here = resolve_files(files, jobs=1)
    assert made == [False]
    monkeypatch.setattr(childproc.threading, "active_count", lambda: 1)  # the test runner's threads
    apart = resolve_files(files, jobs=2)
    assert made == [False, True]
    assert [str(d) for d in apart.diagnostics] == [str(d) for d in here.diagnostics]
    assert any(d.rule == "WM604" for d in apart.diagnostics)


def test_automatic_jobs_fork_only_with_an_idle_cpu_and_enough_documents(tmp_path, monkeypatch):
    made = _where_validated(monkeypatch)
    monkeypatch.setattr(childproc.threading, "active_count", lambda: 1)
    monkeypatch.setattr(childproc.sys, "platform", "linux")
    monkeypatch.setattr(childproc.os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    many = [str(p) for p in EXAMPLES[: resolve_run.MIN_DOCUMENTS_APART]]
    monkeypatch.setattr(childproc, "busy_elsewhere", lambda: 0.0)
    resolve_files(many, jobs=0)
    resolve_files(many[: resolve_run.MIN_DOCUMENTS_APART - 1], jobs=0)
    monkeypatch.setattr(childproc, "busy_elsewhere", lambda: 1.0)
    resolve_files(many, jobs=0)
    assert made == [True, False, False]
