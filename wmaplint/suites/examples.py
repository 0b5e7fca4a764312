"""Diagnostics of a suite file, for rule examples in mode ``test`` (WM720, WM721)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from wmaplint.diagnostics import RULES, Diagnostic, RelatedLocation, Span
from wmaplint.resolve import rules
from wmaplint.source import find_span, load_text
from wmaplint.suites.suite import SuiteResult, run_suite


def suite_diagnostics(result: SuiteResult, text: str | None = None) -> list[Diagnostic]:
    """WM721 for an unreadable suite, WM720 at each failing case."""
    documents = load_text(text, result.path).documents if text is not None else []
    if result.error is not None:
        return [
            Diagnostic(
                rules.INVALID_TEST_SUITE,
                RULES[rules.INVALID_TEST_SUITE].severity,
                result.error,
                result.path,
                Span.whole_file(),
            )
        ]
    out = []
    for case in result.cases:
        if case.passed:
            continue
        span = find_span(documents[0], ("cases", case.index)) if documents else None
        detail = case.error or "; ".join(case.differences)
        out.append(
            Diagnostic(
                rules.TEST_FAILED,
                RULES[rules.TEST_FAILED].severity,
                f"test case {case.name!r} failed: {detail}",
                result.path,
                span or Span.whole_file(),
                related=tuple(
                    RelatedLocation(d.path, d.span, f"{d.rule} {d.message}") for d in case.diagnostics
                ),
            )
        )
    return out


def lint_test_example(text: str, filename: str = "example.test.yaml") -> list[Diagnostic]:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, filename)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        return suite_diagnostics(run_suite(Path(path)), text)
