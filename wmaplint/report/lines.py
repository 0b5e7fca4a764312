"""One line a finding, for outputs whose main content is something else: the findings of `tree` and `test`
beside the workload trees and the test results, and inside a JUnit report.

``path:line:column: severity rule message``, in the order of every other format.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from wmaplint.diagnostics import Diagnostic
from wmaplint.report.common import sorted_diagnostics


def diagnostic_line(d: Diagnostic) -> str:
    return f"{d.path}:{d.span.start_line}:{d.span.start_col}: {d.severity.label} {d.rule} {d.message}"


def render_lines(diagnostics: Iterable[Diagnostic]) -> str:
    """Each finding on a line of its own, sorted; empty without findings."""
    return "".join(diagnostic_line(d) + "\n" for d in sorted_diagnostics(diagnostics))


def diagnostic_brief(d: Diagnostic) -> dict[str, Any]:
    """A finding as a JSON object of its rule, severity, message and start."""
    return {
        "rule": d.rule,
        "severity": d.severity.label,
        "message": d.message,
        "path": d.path,
        "line": d.span.start_line,
        "column": d.span.start_col,
    }
