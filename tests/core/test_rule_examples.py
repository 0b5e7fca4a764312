"""Every rule's documented examples are real: the failing one yields the rule, the passing one does not."""

from __future__ import annotations

import importlib

import pytest

from wmaplint import rules
from wmaplint.diagnostics import RULES
from wmaplint.engine import lint_text

rules.load()

ALL_RULES = sorted(RULES)


def run_example(rule_id: str, text: str) -> set[str]:
    rule = RULES[rule_id]
    if rule.example_mode == "check":
        return {d.rule for d in lint_text(text, rule.example_filename)}
    runners = importlib.import_module("wmaplint.rule_examples").RUNNERS
    return set(runners[rule.example_mode](text, rule.example_filename))


@pytest.mark.parametrize("rule_id", ALL_RULES)
def test_failing_example_yields_the_rule(rule_id: str) -> None:
    assert rule_id in run_example(rule_id, RULES[rule_id].bad)


@pytest.mark.parametrize("rule_id", ALL_RULES)
def test_passing_example_does_not(rule_id: str) -> None:
    assert rule_id not in run_example(rule_id, RULES[rule_id].good)


@pytest.mark.parametrize("rule_id", ALL_RULES)
def test_rule_is_documented(rule_id: str) -> None:
    rule = RULES[rule_id]
    assert rule.summary and rule.why and rule.bad.strip() and rule.good.strip()
    assert rule.name == rule.name.lower() and " " not in rule.name


def test_rule_names_are_unique() -> None:
    names = [r.name for r in RULES.values()]
    assert sorted({n for n in names if names.count(n) > 1}) == []
