"""Every fixture finds exactly what its ``expected.out`` says, and holds a case of its own: a rule's
documented examples are run by tests/rules/test_examples.py, never copied here.

A message change that is meant: ``python -m tests.rules.fixtures --write``, then review the diff.
"""

from __future__ import annotations

import pytest

from tests.rules.fixtures import Fixture, fixtures, run
from wmaplint import rules
from wmaplint.diagnostics import RULES
from wmaplint.rule_examples import BESIDE

rules.load()

ALL = fixtures()


@pytest.mark.parametrize("fixture", ALL, ids=[f.directory.name for f in ALL])
def test_fixture_finds_exactly_what_is_expected(fixture: Fixture) -> None:
    assert fixture.expected.exists(), f"{fixture.expected} is missing: python -m tests.rules.fixtures --write"
    assert run(fixture) == fixture.expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("fixture", ALL, ids=[f.directory.name for f in ALL])
def test_fixture_shows_its_rule_firing(fixture: Fixture) -> None:
    """The folder names a rule of the registry by id and name, and its first command finds that rule."""
    assert fixture.rule in RULES, f"{fixture.directory.name}: no rule {fixture.rule}"
    rule = RULES[fixture.rule]
    assert fixture.name == rule.name, f"{fixture.directory.name}: {rule.id} is {rule.name}"
    first = fixture.expected.read_text(encoding="utf-8").split("\n$ ")[0]
    assert f" {rule.id} " in first, f"{fixture.directory.name}: its first command does not find {rule.id}"


def test_no_fixture_copies_its_rules_examples() -> None:
    """A rule's examples have one source, its ``define``: a fixture file equal to one would be a second copy
    that nothing keeps in step."""
    copies = []
    for fixture in ALL:
        rule = RULES[fixture.rule]
        examples = {rule.bad, rule.good, *(text for files in BESIDE.values() for text in files.values())}
        copies += [f"{fixture.directory.name}/{path.relative_to(fixture.directory)}"
                   for path in sorted(fixture.directory.rglob("*"))
                   if path.is_file() and path.read_text(encoding="utf-8") in examples]
    assert copies == [], "these fixture files copy a rule's example (run in tests/rules/test_examples.py)"
