"""Every rule's fixture finds exactly what its ``expected.out`` says, and every rule has a fixture.

A message change that is meant: ``python -m tests.rules.fixtures --write``, then review the diff.
"""

from __future__ import annotations

import pytest

from tests.rules.fixtures import FIXTURES, Fixture, fixtures, run
from wmaplint import rules
from wmaplint.diagnostics import RULES

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


def test_every_rule_has_a_fixture() -> None:
    covered = {f.rule for f in ALL}
    missing = [f"{r.id}-{r.name}" for r in sorted(RULES.values(), key=lambda r: r.id) if r.id not in covered]
    assert not missing, (f"rules without a fixture in {FIXTURES}: {', '.join(missing)}; add a folder with "
                         "the inputs and a `command` file, then python -m tests.rules.fixtures --write ID")
