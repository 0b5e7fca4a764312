"""Running the real command line on hostile input and checking the promise: exit 0/1/2, no traceback,
at most one non-diagnostic stderr line per bad input, finished within a generous hang-detecting timeout."""

from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from wmaplint.rules.examples import JOB

HANG_TIMEOUT = 60.0  # a hang detector, not a speed test
MEMORY_LIMIT = 2 << 30  # address space for runs on big inputs
REPO = Path(__file__).resolve().parents[2]
# "path:line:col: ..." lines are positioned diagnostics; anything else on stderr is an error line
DIAGNOSTIC_LINE = re.compile(r"^(?!wmaplint: |error: ).+:\d+:\d+: ")

WIDGET_DEFINITION = (
    JOB.replace("metadata: {name: batch-job-v1}", "metadata: {name: example-com-widget-v1}")
    .replace(
        "kind: {group: batch, version: v1, kind: Job}",
        "kind: {group: example.com, version: v1, kind: Widget}",
    )
    .replace("'.spec.parallelism // 1'", "'.spec.replicas // 1'")
)

def widget_crd(schema: object, version: str = "v1") -> str:
    """The Widget CRD (example.com/v1) with ``schema`` as its openAPIV3Schema, written as JSON flow YAML."""
    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "scope": "Namespaced",
            "names": {"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
            "versions": [
                {"name": version, "served": True, "storage": True, "schema": {"openAPIV3Schema": schema}}
            ],
        },
    }
    return "# a CRD in JSON flow style\n" + json.dumps(crd)


JOB_MANIFEST = """\
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: default}
spec:
  parallelism: 2
  template:
    spec:
      containers: [{name: main, image: busybox}]
"""


@dataclass
class Run:
    args: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str

    @property
    def error_lines(self) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.strip() and not DIAGNOSTIC_LINE.match(line)]

    def __str__(self) -> str:
        command = " ".join(self.args)[:200]
        return f"wmaplint {command} -> {self.returncode}\n{self.stdout[-2000:]}\n{self.stderr[-3000:]}"


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def wmaplint(
    *args: str | Path,
    stdin: bytes | str | BinaryIO | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    limit_memory: bool = False,
    timeout: float = HANG_TIMEOUT,
) -> Run:
    """Run ``python -m wmaplint ARGS`` in a subprocess; raises TimeoutExpired on a hang. ``stdin``: the bytes
    or text to send, or an open file the child reads itself."""
    data = stdin.encode("utf-8", "surrogateescape") if isinstance(stdin, str) else stdin
    full_env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    feed = {"input": data if data is not None else b""} if not hasattr(data, "fileno") else {"stdin": data}
    proc = subprocess.run(
        [sys.executable, "-m", "wmaplint", *map(str, args)],
        **feed,  # type: ignore[arg-type]
        capture_output=True,
        timeout=timeout,
        cwd=cwd or REPO,
        env=full_env,
        preexec_fn=_limit_memory if limit_memory else None,
    )
    return Run(
        tuple(map(str, args)),
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def assert_clean(run: Run, *codes: int, bad_inputs: int = 1) -> Run:
    """The run ended with one of ``codes``, showed no traceback, and kept exit-2 messages to one line each."""
    assert run.returncode in codes, str(run)
    assert "Traceback" not in run.stdout and "Traceback" not in run.stderr, str(run)
    if run.returncode == 2:
        assert 1 <= len(run.error_lines) <= bad_inputs or not run.error_lines and run.stdout, str(run)
    return run


def rules_of(run: Run) -> set[str]:
    return set(re.findall(r"\[(WM\d{3}) ", run.stdout)) | set(re.findall(r" (WM\d{3}) ", run.stderr))
