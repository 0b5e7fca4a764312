import pytest

from wmaplint.diagnostics import RULES
from wmaplint.resolve import rules as _registered  # noqa: F401  (registers WM7xx)
from wmaplint.resolve.examples import lint_example

OWN = sorted((rule for rule in RULES.values() if "WM701" <= rule.id <= "WM749"), key=lambda r: r.id)


def test_rules_are_registered():
    assert len(OWN) >= 19


@pytest.mark.parametrize("rule", OWN, ids=lambda r: f"{r.id}-{r.name}")
def test_bad_example_triggers_and_good_does_not(rule):
    bad = {d.rule for d in lint_example(rule.bad, rule.example_mode, rule.example_filename)}
    good = {d.rule for d in lint_example(rule.good, rule.example_mode, rule.example_filename)}
    assert rule.id in bad
    assert rule.id not in good
