"""Print the issue's performance table from the outputs of `make bench` (lines starting with `TABLE|`).

Usage: summary.py OUTPUT_DIR. A benchmark contributes a row by printing `TABLE|<measure>: <figure> ...`;
rows no benchmark printed are listed as not measured.
"""

from __future__ import annotations

import sys
from pathlib import Path

# The rows of the table, in its order, then the rows that explain them
EXPECTED = (
    ("check of one definition vs check-jsonschema", "bench_check.py"),
    ("check of the catalog vs check-jsonschema", "bench_check.py"),
    ("check of 400 definitions vs check-jsonschema", "bench_check.py"),
    ("tree over 1,000 manifests vs libjq evaluating their definitions alone", "bench_tree.py"),
    ("first run on a fresh machine vs the next", "bench_first_run.py"),
    ("language server, change -> diagnostics p95 after the debounce", "bench_lsp.py"),
    ("`make test` on this machine", "bench_test_suite.py"),
    ("language server: initialize", "bench_lsp.py"),
    ("--jobs 2 vs --jobs 1, 400 definitions", "bench_check.py"),
    ("automatic --jobs vs --jobs 1, 400 definitions", "bench_check.py"),
)


def main() -> None:
    rows = [line.split("|", 1)[1].strip() for path in sorted(Path(sys.argv[1]).glob("*.txt"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("TABLE|")]
    print("== the performance table (medians of whole processes, peers interleaved in the same run)")
    for measure, source in EXPECTED:
        found = [row for row in rows if row.startswith(measure)]
        for row in found:
            print(f"- {row}")
        if not found:
            print(f"- {measure}: not measured ({source} printed no TABLE| row)")
    for row in rows:
        if not any(row.startswith(measure) for measure, _ in EXPECTED):
            print(f"- {row}")


if __name__ == "__main__":
    main()
