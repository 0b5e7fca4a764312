"""WM721 invalid-test-suite: a definition test suite file cannot be read or has the wrong shape."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import suite
from wmaplint.suites.findings import SuiteInvalid

RULE = define(
    "WM721",
    "invalid-test-suite",
    "error",
    "A definition test suite file cannot be read or has the wrong shape.",
    why="A suite that cannot be read tests nothing, silently.",
    bad="cases: {name: missing-definition}\n",
    good=suite(),
    fix="See docs/testing.md for the suite format.",
    example_mode="test",
    example_filename="example.test.yaml",
)


@reports(RULE, SuiteInvalid)
def message(finding: SuiteInvalid) -> str:
    return finding.error
