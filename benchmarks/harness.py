"""Shared pieces of the whole-process benchmarks: paired timing, deterministic corpora, peer tools.

Every figure is a whole process (interpreter start, imports, reading, output) timed from outside. A measure
and its peer run interleaved in the same loop (A, B, A, B, ...), so load from other work on the machine falls
on both alike; the ratio of their medians is the figure reported.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WMAPLINT = [sys.executable, "-m", "wmaplint"]
PEERS = REPO / ".bench" / "peers"  # created by `make bench`: check-jsonschema, never a test dependency
WORK = REPO / ".bench" / "work"


@dataclass
class Timing:
    times: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def p95(self) -> float:
        ordered = sorted(self.times)
        return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]

    def show(self) -> str:
        return f"median {self.median * 1000:.0f} ms, p95 {self.p95 * 1000:.0f} ms"


def run_once(cmd: list[str], env: dict[str, str] | None = None, cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=cwd or WORK, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def paired(a: list[str], b: list[str], runs: int, env: dict[str, str] | None = None,
           warmup: int = 1) -> tuple[Timing, Timing]:
    """Time ``a`` and ``b`` alternately ``runs`` times each, after ``warmup`` untimed runs of each."""
    for _ in range(warmup):
        run_once(a, env)
        run_once(b, env)
    ta: list[float] = []
    tb: list[float] = []
    for _ in range(runs):
        ta.append(run_once(a, env))
        tb.append(run_once(b, env))
    return Timing(ta), Timing(tb)


def environment(cache: Path | None = None) -> dict[str, str]:
    """The environment of every run: no colour, a private schema cache (``cache``), no user config, and
    wmaplint's modules compiled to bytecode as an installed wheel has them (pip compiles the peers' at
    install; an editable install under PYTHONDONTWRITEBYTECODE would otherwise compile every module from
    source in every run, a quarter of a one-file check)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "wmaplint")],
                   stdout=subprocess.DEVNULL, check=False)
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("WMAPLINT_SCHEMA_PATH", None)
    env["WMAPLINT_CACHE_DIR"] = str(cache or (WORK / "cache"))
    return env


# --- corpora: deterministic copies of the shipped catalog ------------------------------------------------

def catalog_definitions() -> list[Path]:
    return sorted((REPO / "catalog").glob("*.yaml"))


def catalog_manifests() -> list[Path]:
    return sorted((REPO / "catalog" / "examples").glob("*/*.yaml"))


_NAME = re.compile(r"^(metadata:\s*\{?\s*name:\s*)([^,}\s]+)", re.M)
_BLOCK_NAME = re.compile(r"^(metadata:\n(?:  [^\n]*\n)*?  name:\s*)(\S+)", re.M)


def _renamed(text: str, suffix: str) -> str:
    """The text with its first top-level metadata.name given a suffix (so copies are distinct objects)."""
    for pattern in (_NAME, _BLOCK_NAME):
        new, count = pattern.subn(lambda m: m.group(1) + m.group(2) + suffix, text, count=1)
        if count:
            return new
    return text


def corpus(name: str, sources: list[Path], count: int) -> Path:
    """A directory of ``count`` files cycling through ``sources``, each copy renamed; made once."""
    directory = WORK / name
    marker = directory / ".complete"
    if marker.exists():
        return directory
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    for index in range(count):
        source = sources[index % len(sources)]
        text = _renamed(source.read_text(encoding="utf-8"), f"-{index}")
        (directory / f"{index:04d}-{source.name}").write_text(text, encoding="utf-8")
    marker.touch()
    return directory


def definitions_corpus(count: int = 400) -> Path:
    return corpus(f"definitions-{count}", catalog_definitions(), count)


def manifests_corpus(count: int = 1000) -> Path:
    return corpus(f"manifests-{count}", catalog_manifests(), count)


def check_jsonschema() -> list[str] | None:
    tool = PEERS / "bin" / "check-jsonschema"
    return [str(tool)] if tool.exists() else None


def ratio_line(name: str, ours: Timing, peer: Timing, goal: str) -> str:
    return (f"{name}: {ours.median / peer.median:.2f}x (goal {goal}); wmaplint {ours.show()}; "
            f"peer {peer.show()}")
