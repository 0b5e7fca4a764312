"""Every test file alone: each ``tests/**/test_*.py`` in a pytest process of its own, in file order, so that a
test passing only because another file ran first (a cache it filled, a module it imported) shows up.

    python -m tests.each_file [-j N] [PATH ...]

``PATH``: files or folders under ``tests/`` (default: all of them); ``-j``: files run at the same time
(default 1). Prints each failing file with its summary line, then how many files ran and failed; exits 1
when one did.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


def test_files(paths: list[str]) -> list[Path]:
    roots = [Path(p).resolve() for p in paths] or [TESTS]
    found: set[Path] = set()
    for root in roots:
        found.update([root] if root.is_file() else root.rglob("test_*.py"))
    return sorted(found)


def run_alone(path: Path) -> tuple[Path, int, str]:
    """The file's pytest exit code and its last line (the summary)."""
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
               str(path.relative_to(REPO))]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, env=os.environ.copy())
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    return path, done.returncode, lines[-1] if lines else done.stderr.strip()[-300:]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.each_file", description=__doc__.split("\n\n")[0])
    parser.add_argument("-j", type=int, default=1, help="files run at the same time")
    parser.add_argument("paths", nargs="*")
    options = parser.parse_args(argv)
    files = test_files(options.paths)
    failed = []
    with ThreadPoolExecutor(max_workers=max(1, options.j)) as pool:
        for path, code, summary in pool.map(run_alone, files):
            # 5: no test collected (a file whose tests all need ../shared, when it is absent)
            if code not in (0, 5):
                failed.append(path)
                print(f"FAILED {path.relative_to(REPO)}: {summary}", flush=True)
    print(f"{len(files)} files run alone, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
