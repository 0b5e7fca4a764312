"""What the integration tests share: a user's git repository, the definition they break, and wmaplint run
as a command in it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# The shipped batch/v1 Job definition: clean, so every finding in a test is the one the test puts there.
JOB = (REPO / "catalog" / "batch-job-v1.yaml").read_text(encoding="utf-8")
JOB_LINES = JOB.splitlines()
NAME_LINE = JOB_LINES.index("  name: batch-job-v1") + 1
REPLICAS_LINE = next(n for n, line in enumerate(JOB_LINES, 1) if line.startswith("        replicasPath: "))


def job_definition(
    name: str = "batch-job-v1", replicas: str | None = None, replicas_key: str = "replicasPath"
) -> str:
    """The Job definition with another ``metadata.name`` (a name off the catalog convention is KBP003, an
    info), another replicas expression (``.spec.parallelism | nosuchfunc`` is WM202, an error), or a
    misspelt replicas key (WM112, fixed by --fix)."""
    lines = list(JOB_LINES)
    lines[NAME_LINE - 1] = f"  name: {name}"
    key, _, value = lines[REPLICAS_LINE - 1].partition(": ")
    key = key.replace("replicasPath", replicas_key)
    lines[REPLICAS_LINE - 1] = f"{key}: {replicas if replicas else value}"
    return "\n".join(lines) + "\n"


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.email=ci@example.com", "-c", "user.name=ci", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )
    return done.stdout.decode("utf-8", errors="surrogateescape")


def new_repository(root: Path) -> Path:
    root.mkdir(parents=True)
    git(root, "init", "-q")
    return root


def wmaplint(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``wmaplint ARGS`` as a separate process in ``cwd``, as a user or CI runs it."""
    return subprocess.run(
        [sys.executable, "-m", "wmaplint", *args],
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
