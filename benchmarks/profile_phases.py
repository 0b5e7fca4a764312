"""Where a run of wmaplint spends its time, by phase: the per-phase table of the performance work.

Usage: profile_phases.py [--runs N] [--workload NAME ...]. Not one of `make bench`'s benchmarks (it names no
peer and holds no goal): it tells where the time of the benchmarked commands goes.

Workloads: `check` of one definition (the catalog's first), of the catalog and of 400 definitions, each with
``--jobs 1`` so that the work stays in the process sampled, and `tree` over 1,000 manifests (the corpora of
bench_check.py and bench_tree.py). Each warm (the user cache filled by an earlier run) and cold (a new empty
cache directory and home: the first run on a fresh machine), bytecode compiled as pip installs it. Rows:

- whole process: the wall time of ``python -m wmaplint ...`` timed from outside;
- in-process: the same command run by phase_sampler.py in a child, from before its first import of wmaplint
  to its end; the whole process less this is the interpreter's start and exit;
- in-process, sampled: the same again with the stack sampled every millisecond of wall time, each sample
  given to one phase by the frames on its stack (``phase_of``); the phases add up to this row.

Each row is the median of N runs, the whole, timed and sampled runs interleaved. A sample goes to the
innermost frame that names a phase (a jq round trip inside synthesis is a jq round trip); YAML read for a
phase above is that phase's; an import goes to the phase that made it (the rule modules imported by
``rules.load`` and ``rules.load_definition_rules`` are rule loading), and to ``imports`` only outside every
named phase.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from harness import REPO, WORK, catalog_definitions, definitions_corpus, environment, manifests_corpus

# (phase, test of one frame: its function and file relative to the package, or the file's full path)
Rule = tuple[str, Callable[[str, str], bool]]


def _in(*files: str) -> Callable[[str, str], bool]:
    return lambda function, file: file in files


def _function(file: str, *functions: str) -> Callable[[str, str], bool]:
    return lambda function, in_file: in_file == file and function in functions


PHASES: list[Rule] = [
    ("jq worker round trips", _function("jq/runtime.py", "_worker_results", "run", "close", "__init__")),
    ("jq in-process", _in("jq/runtime.py", "jq/cost.py")),
    ("gang model", _in("resolve/gang.py", "resolve/grouper.py", "resolve/kai.py", "resolve/verify.py")),
    ("synthesis", _in("resolve/synthesis.py", "resolve/created.py")),
    ("controller model load", lambda function, file: file in ("controllers/load.py", "controllers/legacy.py")
     or (file == "status/knowledge.py" and function in ("load_knowledge", "from_model", "_knowledge"))),
    ("schema store", _in("schema/store.py", "schema/bundle.py", "schema/cache.py", "schema/loader.py",
                         "schema/compact.py", "schema/yamldata.py", "schema/lock.py", "schema/sources.py")),
    ("rule loading", _function("rules/__init__.py", "load", "load_definition_rules")),
    ("manifest validation", _in("resolve/validate.py")),
    ("output", lambda function, file: file.startswith("report/")),
]
READING = ("reading YAML", lambda function, file: file.startswith("source/") or file == "resolve/loading.py")
OUTER = [  # phases that hold what no inner phase claims
    ("analyses", _function("engine.py", "_lint_source")),
    ("tree: evaluation and the rest", _function("resolve/run.py", "resolve_files")),
]
ORDER = ["interpreter start and exit", "imports", "rule loading", "schema store", "controller model load",
         "reading YAML", "analyses", "manifest validation", "tree: evaluation and the rest", "synthesis",
         "gang model", "jq in-process", "jq worker round trips", "output", "command line and the rest"]

PACKAGE = str(REPO / "wmaplint") + os.sep


def _frame(function: str, file: str) -> tuple[str, str]:
    return function, file.removeprefix(PACKAGE) if file.startswith(PACKAGE) else "/" + file


def phase_of(stack: list[list[str]]) -> str:
    """The phase of one sampled stack (root first)."""
    frames = [_frame(function, file) for function, file in stack]
    for function, file in reversed(frames):
        for phase, test in PHASES:
            if test(function, file):
                return phase
    if any(READING[1](function, file) for function, file in frames):
        return READING[0]  # the reader serves the phases above too: the YAML they read is theirs
    if any(function == "_find_and_load" for function, _ in frames):
        return "imports"
    for function, file in reversed(frames):
        for phase, test in OUTER:
            if test(function, file):
                return phase
    return "command line and the rest"


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, str]:
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True, check=False)
    return time.perf_counter() - start, done.stdout


WORKLOADS = ("one definition", "the catalog", "400 definitions", "tree, 1,000 manifests")


def workloads() -> dict[str, list[str]]:
    one = str(catalog_definitions()[0])
    commands = (["check", one], ["check", "--jobs", "1", "catalog/"],
                ["check", "--jobs", "1", str(definitions_corpus(400))], ["tree", str(manifests_corpus(1000))])
    return dict(zip(WORKLOADS, commands, strict=True))


def measure(args: list[str], runs: int) -> dict[str, dict[str, float]]:
    """{"warm"|"cold": {row: median seconds}}: whole processes, and children timed and sampled
    (phase_sampler.py), the three interleaved, a new empty cache and home for each cold run."""
    sampler = [sys.executable, str(Path(__file__).with_name("phase_sampler.py"))]
    samples: dict[str, dict[str, list[float]]] = {"warm": {}, "cold": {}}
    warm_env = environment(WORK / "profile-cache")
    _run([sys.executable, "-m", "wmaplint", *args], warm_env)  # fills the warm cache
    commands = {"whole process": [sys.executable, "-m", "wmaplint", *args],
                "in-process": [*sampler, "--time", "--", *args],
                "in-process, sampled": [*sampler, "--sample", "--", *args]}
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(runs):
            for state in ("cold", "warm"):
                for row, command in commands.items():
                    env = warm_env
                    if state == "cold":
                        env = {**warm_env, "WMAPLINT_CACHE_DIR": f"{tmp}/cache-{index}-{len(row)}",
                               "HOME": f"{tmp}/home-{index}-{len(row)}"}
                    seconds, out = _run(command, env)
                    found = samples[state]
                    if row == "whole process":
                        found.setdefault(row, []).append(seconds)
                        continue
                    report = json.loads(out.strip().splitlines()[-1])
                    found.setdefault(row, []).append(report["seconds"])
                    phases: dict[str, float] = {}
                    for share, stack in report["stacks"]:
                        phase = phase_of(stack)
                        phases[phase] = phases.get(phase, 0.0) + share
                    for phase, share in phases.items():
                        found.setdefault(phase, []).append(share)
    medians: dict[str, dict[str, float]] = {}
    for state, rows in samples.items():
        medians[state] = {row: statistics.median(values + [0.0] * (runs - len(values)))
                          for row, values in rows.items()}
        medians[state]["interpreter start and exit"] = (medians[state]["whole process"]
                                                        - medians[state]["in-process"])
    return medians


def table(results: dict[str, dict[str, dict[str, float]]]) -> str:
    names = list(results)
    head = "| phase (ms) | " + " | ".join(f"{n}, warm | {n}, cold" for n in names) + " |"
    lines = [head, "|---|" + "---:|" * (2 * len(names))]
    for row in ["whole process", "in-process", "in-process, sampled", *ORDER]:
        cells = [f"{results[name][state].get(row, 0.0) * 1000:.0f}"
                 for name in names for state in ("warm", "cold")]
        lines.append(f"| {row} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workload", action="append", help="one of: " + ", ".join(WORKLOADS))
    options = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    chosen = workloads()
    results = {}
    for name in options.workload or list(chosen):
        results[name] = measure(chosen[name], options.runs)
    load = os.getloadavg()[0]
    print(f"load average {load:.1f} on {os.cpu_count()} CPUs; medians of {options.runs} runs\n")
    print(table(results))


if __name__ == "__main__":
    main()
