"""Each fault of the four classes (tests/controllers/recall_cases.py) is found by its rule; the correct
definitions give none of these rules (test_rules.py, test_the_catalog_gives_none_of_them)."""

from __future__ import annotations

import pytest

from .recall_cases import CASES, Case, found


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_fault_is_found(case: Case) -> None:
    assert found(case), f"{case.cls}: {case.name}"
