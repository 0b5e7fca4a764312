"""Pack rules on large definitions: the shipped rules look only at suspect components, each evaluation reads
only the part of the definition its rule names, and the cost budget ends hostile cases with one finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.cel.evaluate import to_cel_value
from wmaplint.engine import lint_text
from wmaplint.packs import paths as pack_paths
from wmaplint.packs.in_use import packs_for
from wmaplint.packs.run import _evaluate, _read_part
from wmaplint.rules.examples import job_with_children
from wmaplint.source import load_text, to_python

REPO = Path(__file__).resolve().parents[2]
def _pack_findings(text: str) -> list:
    return [d for d in lint_text(text, "many.yaml") if d.rule.startswith("KBP")]


def test_large_clean_definition_has_no_pack_findings() -> None:
    assert _pack_findings(job_with_children(1500)) == []


def test_every_suspect_is_reported_within_the_budget() -> None:
    found = _pack_findings(job_with_children(400, scaled=False, selected=True))
    assert len(found) == 400 and {d.rule for d in found} == {"KBP001"}
    assert not any("not evaluated" in d.message for d in found)


def test_hostile_definition_ends_in_one_budget_finding() -> None:
    found = _pack_findings(job_with_children(3000, scaled=False, selected=False))
    refused = [d for d in found if "budget of 10,000,000" in d.message]
    assert len(refused) == 1 and found[-1] is refused[0]  # nothing runs after the budget is spent
    assert len(found) < 3000 * 2


@pytest.mark.parametrize("path", sorted((REPO / "catalog").glob("*.yaml")), ids=lambda p: p.stem)
def test_the_part_a_rule_reads_gives_the_same_answers(path: Path) -> None:
    from wmaplint.cel.budget import CostBudget, SizeIndex

    source = load_text(path.read_text(encoding="utf-8"), str(path))
    data = to_python(source.documents[0].root)
    cel_root = to_cel_value(pack_paths.schema_at(()), data, pack_paths.TYPES)
    rules, _ = packs_for(None)
    for rule in rules:
        for given in rule.givens:
            for location, value in given.query.finditer(data):
                schema = pack_paths.schema_at(tuple(location))
                cel_self = to_cel_value(schema, value, pack_paths.TYPES) if schema else value
                sizes = {"self": SizeIndex(cel_self), "root": SizeIndex(cel_root)}
                whole = _evaluate(rule.assertion, cel_self, cel_root, sizes, CostBudget())
                part = _evaluate(rule.assertion, cel_self, _read_part(rule, cel_root), sizes, CostBudget())
                assert whole == part, (rule.id, location)
