"""`make test`'s run of the test suite: its wall time on this machine against the five minutes it may take.

What it measures: one whole run of the suite as `make test` runs it (``pytest -n auto --dist loadgroup -p
randomly --durations=25``, every core, a random order from a fixed seed so that runs compare), timed from
outside, once: the suite is minutes long and its order is fixed, so one run is the figure. The wheels of
`make wheelhouse` are built first when missing (the pre-commit tests install from them; untimed). Prints the
wall time, the tests counted by pytest's closing line, the slowest tests pytest names, and a TABLE| row: the
wall time as a ratio of the goal (300 s on a 2-core machine).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

from harness import REPO

GOAL_SECONDS = 300
SEED = 20251201


def main() -> None:
    if not (REPO / ".wheelhouse" / ".complete").exists():
        subprocess.run(["make", "wheelhouse"], cwd=REPO, stdout=subprocess.DEVNULL, check=False)
    command = [sys.executable, "-m", "pytest", "-n", "auto", "--dist", "loadgroup", "-p", "randomly",
               f"--randomly-seed={SEED}", "--durations=25", "-q"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    lines = done.stdout.splitlines()
    slowest = [line for line in lines if re.match(r"^\d+\.\d+s (call|setup|teardown) ", line)]
    closing = next((line.strip("= ") for line in reversed(lines) if " in " in line and "passed" in line), "")
    print(f"test suite: {seconds:.0f} s wall on {os.cpu_count()} CPUs, exit {done.returncode}: {closing}")
    print("slowest tests:")
    for line in slowest:
        print(f"  {line}")
    load = os.getloadavg()[0]
    print(f"TABLE|`make test` on this machine: {seconds / GOAL_SECONDS:.2f}x of the goal ({seconds:.0f} s; "
          f"goal <= {GOAL_SECONDS} s on 2 CPUs; {os.cpu_count()} CPUs, load {load:.1f} at the end; "
          f"{closing})")
    if done.returncode != 0:
        sys.exit(1)


if __name__ == "__main__":
    main()
