"""A fresh machine's first `check` against its second: whole processes, empty home directories.

What is timed: `python -m wmaplint check catalog/` as a whole process (interpreter start, imports, schema
loading, output discarded), run from the repository, with HOME and XDG_CACHE_HOME set to a new empty temporary
directory and no WMAPLINT_* variable, so nothing but the package itself holds schemas. Two scenarios:

- bundle: the first run in a fresh home (schemas from the bundle shipped in the package), then the next run
  in the same home;
- pull: `wmaplint schemas pull --from ../shared` in a fresh home (timed on its own line, not in the ratio;
  only when ../shared is present), then the first `check` and the next.

Each scenario runs ROUNDS times, each round in a new home, first and next alternating, so load from other
work on the machine falls on both alike. Prints the medians (and p95) of the first and the next run and the
ratio of the medians (goal <= 1.3x; before the bundle the first run after a pull took 15x the next, parsing
CRD YAML), and a TABLE| row for the summary of `make bench`: the bundle scenario's ratio (a fresh machine),
the pull scenario's beside it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from harness import REPO, WMAPLINT, Timing, run_once

SHARED = REPO.parent / "shared"
ROUNDS = 7
CHECK = [*WMAPLINT, "check", "catalog/"]
GOAL = "1.3x"


def fresh_home(root: Path) -> dict[str, str]:
    home = Path(tempfile.mkdtemp(dir=root))
    env = {k: v for k, v in os.environ.items() if not k.startswith("WMAPLINT_")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), NO_COLOR="1")
    return env


def first_and_next(root: Path, pull: bool) -> tuple[Timing, Timing, Timing]:
    """(first runs, next runs, pulls) over ROUNDS fresh homes."""
    first: list[float] = []
    second: list[float] = []
    pulls: list[float] = []
    for _ in range(ROUNDS):
        env = fresh_home(root)
        if pull:
            pulls.append(run_once([*WMAPLINT, "schemas", "pull", "--from", str(SHARED)], env, REPO))
        first.append(run_once(CHECK, env, REPO))
        second.append(run_once(CHECK, env, REPO))
    return Timing(first), Timing(second), Timing(pulls)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        run_once(CHECK, fresh_home(root), REPO)  # untimed: the interpreter's own caches (.pyc) are warm
        first, second, _ = first_and_next(root, pull=False)
        bundle_ratio = first.median / second.median
        print(f"bundle, first check of the catalog in an empty home: {first.show()}")
        print(f"bundle, next check in the same home: {second.show()}")
        print(f"bundle, first / next: {bundle_ratio:.2f}x (goal <= {GOAL})")
        medians = f"first {first.median * 1000:.0f} ms, next {second.median * 1000:.0f} ms"
        row = (f"TABLE|first run on a fresh machine vs the next: {bundle_ratio:.2f}x (goal <= {GOAL}; the "
               f"catalog checked in an empty home, {medians}")
        if not (SHARED / "crds").is_dir():
            print("pull: not measured (../shared is not present beside the repository)")
            print(f"{row}; after `schemas pull`: not measured, no ../shared)")
            return
        first, second, pulls = first_and_next(root, pull=True)
        pull_ratio = first.median / second.median
        print(f"pull, `schemas pull --from ../shared` in an empty home: {pulls.show()}")
        print(f"pull, first check after the pull: {first.show()}")
        print(f"pull, next check: {second.show()}")
        print(f"pull, first / next: {pull_ratio:.2f}x (goal <= {GOAL})")
        print(f"{row}; after `schemas pull`: {pull_ratio:.2f}x)")


if __name__ == "__main__":
    main()
