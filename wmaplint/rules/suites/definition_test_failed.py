"""WM720 definition-test-failed: a definition test case resolves differently from its expectations."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import suite
from wmaplint.suites.findings import CaseFailed

RULE = define(
    "WM720",
    "definition-test-failed",
    "error",
    "A definition test case resolves differently from its expectations.",
    why="A definition test pins what a platform shows for a manifest; a difference means the definition "
    "changed behaviour.",
    bad=suite(pods=3),
    good=suite(),
    fix="Fix the definition, or run `wmaplint test --update` when the new result is the intended one.",
    example_mode="test",
    example_filename="example.test.yaml",
)


@reports(RULE, CaseFailed)
def message(finding: CaseFailed) -> str:
    return f"test case {finding.name!r} failed: {finding.detail}"
