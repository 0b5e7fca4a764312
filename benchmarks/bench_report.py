"""Reporter speed on large reports (prints `name: value unit` lines; run by `make bench`)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from wmaplint.diagnostics import (
    RULES,
    CheckOutcome,
    Diagnostic,
    Fix,
    RelatedLocation,
    Severity,
    Span,
    TextEdit,
    define,
)
from wmaplint.report import render
from wmaplint.report.fingerprint import line_hashes

REPO = Path(__file__).resolve().parents[1]
LINES = 25_000


def _report() -> CheckOutcome:
    if "WM899" not in RULES:
        define(
            "WM899",
            "bench-rule",
            "warning",
            "A rule used only to measure reporters.",
            why="Measurement.",
            bad="a: 1\n",
            good="b: 1\n",
        )
    text = "".join(f"  key{n}: .spec.replicatedJobs[] | .replicas  # 漢字 😀\n" for n in range(LINES))
    diagnostics = [
        Diagnostic(
            "WM899",
            Severity.WARNING if n % 3 else Severity.ERROR,
            f"finding {n} on .spec.replicatedJobs[]",
            "defs/big.yaml",
            Span(n + 1, 10, n + 1, 32),
            related=(RelatedLocation("crds/jobset.yaml", Span(223, 15, 223, 29), "defined here"),),
            fixes=(Fix("replace", (TextEdit(Span(n + 1, 10, n + 1, 32), ".spec.x"),)),),
        )
        for n in range(LINES)
    ]
    return CheckOutcome(diagnostics, {"defs/big.yaml": text}, 1)


def _median_ms(action: Callable[[], object], runs: int = 3) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    report = _report()
    text = report.sources["defs/big.yaml"]
    print(f"report_line_hash_1mb: {_median_ms(lambda: line_hashes(text[: 1 << 20])):.0f} ms")
    for fmt in ("text", "json", "sarif", "github"):
        elapsed = _median_ms(partial(render, report, fmt, root=REPO, tool_version="0.1.0"))
        print(f"report_{fmt}_{LINES}_findings: {elapsed:.0f} ms")


if __name__ == "__main__":
    main()
