"""Whole-process and engine figures for `check`: prints `name: value unit` lines.

Run with `make bench`. Uses the shipped catalog; schema sources come from ../shared when present.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
ENV = dict(os.environ)
if SHARED.is_dir():
    ENV["WMAPLINT_SCHEMA_PATH"] = f"{SHARED / 'crds'}:{SHARED / 'k8s-openapi'}"


def wall(cmd: list[str], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, env=ENV, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def peak_rss_mb(cmd: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(cmd, env=ENV, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(before, after) / 1024


def main() -> None:
    py = sys.executable
    definitions = sorted((REPO / "catalog").glob("*.yaml"))
    one = str(definitions[0].relative_to(REPO))
    bare = wall([py, "-c", "pass"])
    version = wall([py, "-m", "wmaplint", "--version"])
    print(f"bare interpreter start: {bare:.1f} ms")
    print(f"wmaplint --version: {version:.1f} ms ({version - bare:.1f} ms over bare start)")
    wall([py, "-m", "wmaplint", "check", one], runs=1)  # warm the schema cache
    single = wall([py, "-m", "wmaplint", "check", one])
    print(f"check one definition ({definitions[0].name}), whole process: {single:.1f} ms "
          f"({single - bare:.1f} ms over bare start)")
    catalog = wall([py, "-m", "wmaplint", "check", "catalog/"], runs=5)
    print(f"check whole catalog ({len(definitions)} definitions), whole process: {catalog:.1f} ms")
    print(f"peak memory, whole catalog: {peak_rss_mb([py, '-m', 'wmaplint', 'check', 'catalog/']):.1f} MB")

    sys.path.insert(0, str(REPO))
    os.environ.update(ENV)
    from wmaplint.engine import lint_text

    texts = [(str(p), p.read_text(encoding="utf-8")) for p in definitions]
    for path, text in texts:  # first pass loads schemas and compiles; not counted
        lint_text(text, path)
    per = []
    for path, text in texts:
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            lint_text(text, path)
            runs.append(time.perf_counter() - start)
        per.append((statistics.median(runs) * 1000, Path(path).name))
    for ms, name in sorted(per, reverse=True):
        print(f"engine time {name}: {ms:.2f} ms")
    print(f"engine time per definition, median: {statistics.median(m for m, _ in per):.2f} ms")
    print(f"engine time whole catalog: {sum(m for m, _ in per):.1f} ms")


if __name__ == "__main__":
    main()
