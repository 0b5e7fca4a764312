"""Running `wmaplint new`, `check` and `tree` in process, as the draft tests need them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner, Result

from wmaplint.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "catalog" / "examples"


def wmaplint(*args: str, cwd: Path | None = None) -> Result:
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, list(args), catch_exceptions=False)
    import os

    before = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(before)


def check_strict(path: Path, *crds: str) -> dict[str, Any]:
    """The JSON report of `check --strict` (with ``--crds`` for each of ``crds``)."""
    args = ["check", "--strict", "--format", "json", *(a for c in crds for a in ("--crds", c)), str(path)]
    result = wmaplint(*args)
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def errors(report: dict[str, Any]) -> list[str]:
    return [f"{d['rule']} {d['message']}" for d in report["diagnostics"] if d["severity"] == "error"]


def totals(manifest: Path, *definition: Path) -> dict[str, tuple[int, int]]:
    """{workload name: (pods, GPUs)} of the workloads `tree` resolves from ``manifest``, with the shipped
    catalog or the ``definition`` given (whose kind's workloads alone are kept then)."""
    args = [a for d in definition for a in ("--definition", str(d))]
    result = wmaplint("tree", *args, str(manifest), "--format", "json")
    out = json.loads(result.stdout)
    names = {yaml.safe_load(d.read_text(encoding="utf-8"))["metadata"]["name"] for d in definition}
    return {w["name"]: (w["totals"]["pods"], w["totals"]["gpus"]) for w in out["workloads"]
            if not names or w["definition"] in names}


def draft(tmp_path: Path, *args: str) -> Path:
    """A draft written by `wmaplint new ARGS --output`; fails the test when new does not exit 0."""
    out = tmp_path / "draft.yaml"
    if out.exists():
        out.unlink()
    result = wmaplint("new", *args, "--output", str(out))
    assert result.exit_code == 0, result.output
    return out


def imported(cwd: Path, *args: str) -> set[str]:
    """Modules loaded by the time ``wmaplint ARGS`` exits, in a fresh interpreter (as tests/core checks)."""
    import os
    import subprocess
    import sys

    listing = cwd / "modules.txt"
    script = (
        "import atexit, runpy, sys\n"
        f"atexit.register(lambda: open({str(listing)!r}, 'w').write('\\n'.join(sorted(sys.modules))))\n"
        f"sys.argv = ['wmaplint', *{list(args)!r}]\n"
        "runpy.run_module('wmaplint', run_name='__main__')\n"
    )
    env = {**os.environ, "WMAPLINT_CACHE_DIR": str(cwd / "cache")}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, env=env)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return set(listing.read_text().split())
