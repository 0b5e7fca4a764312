"""Every rule's documented examples, the one source of what the rule looks like: run as a user runs them
(``wmaplint.rule_examples``), the failing one prints the rule and the passing one does not, and docs/rules.md
shows each with exactly what its command prints. A change of an example, or of what the tool prints for it,
fails here until `python -m wmaplint.rule_docs > docs/rules.md` writes it and the diff is reviewed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wmaplint import rules
from wmaplint.diagnostics import RULES
from wmaplint.rule_docs import rule_section, rules_document
from wmaplint.rule_examples import run_examples

rules.load()

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
ALL = sorted(RULES)
REGENERATE = "run `python -m wmaplint.rule_docs > docs/rules.md` and review the diff"


def sections() -> dict[str, str]:
    """Each rule's section of docs/rules.md as the file has it, by rule id."""
    text = RULES_MD.read_text(encoding="utf-8")
    starts = [(m.start(), m.group(1)) for m in re.finditer(r"^## (WM\d{3}) ", text, re.M)]
    ends = [m.start() for m in re.finditer(r"^## ", text, re.M)]
    found = {}
    for start, rule_id in starts:
        end = min(e for e in [*ends, len(text) + 1] if e > start)
        found[rule_id] = text[start:end - 1]
    return found


@pytest.mark.parametrize("rule_id", ALL)
def test_the_examples_print_the_rule_as_docs_show(rule_id: str) -> None:
    rule = RULES[rule_id]
    bad, good = run_examples(rule)
    assert rule_id in bad.rules, f"the failing example does not show {rule_id}:\n{bad.output}"
    assert rule_id not in good.rules, f"the passing example shows {rule_id}:\n{good.output}"
    assert sections().get(rule_id) == rule_section(rule, (bad, good)), (
        f"docs/rules.md does not show {rule_id} as its examples print now: {REGENERATE}")


def test_the_rest_of_rules_md_is_generated() -> None:
    shown = sections()
    assert set(shown) == set(RULES), f"docs/rules.md has other rules than the registry: {REGENERATE}"
    assert RULES_MD.read_text(encoding="utf-8") == rules_document(lambda rule: shown[rule.id]), REGENERATE


@pytest.mark.parametrize("rule_id", ALL)
def test_rule_is_documented(rule_id: str) -> None:
    rule = RULES[rule_id]
    assert rule.summary and rule.why and rule.bad.strip() and rule.good.strip()
    assert rule.name == rule.name.lower() and " " not in rule.name


def test_rule_names_are_unique() -> None:
    names = [r.name for r in RULES.values()]
    assert sorted({n for n in names if names.count(n) > 1}) == []
