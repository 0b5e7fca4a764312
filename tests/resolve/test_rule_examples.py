import pytest

from wmaplint import rules
from wmaplint.diagnostics import RULES
from wmaplint.rule_examples import example_diagnostics

rules.load()
OWN = sorted((rule for rule in RULES.values() if "WM701" <= rule.id <= "WM749"), key=lambda r: r.id)


def test_rules_are_registered():
    assert len(OWN) >= 19


@pytest.mark.parametrize("rule", OWN, ids=lambda r: f"{r.id}-{r.name}")
def test_bad_example_triggers_and_good_does_not(rule):
    bad = {d.rule for d in example_diagnostics(rule.bad, rule.example_mode, rule.example_filename)}
    good = {d.rule for d in example_diagnostics(rule.good, rule.example_mode, rule.example_filename)}
    assert rule.id in bad
    assert rule.id not in good
