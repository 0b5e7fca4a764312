"""The hostile-input suite on a fixed seed: every family's generated inputs through the real command line,
each run held to exit 0/1/2, no traceback, the time bound and the memory bound (``fuzz.py``; `make fuzz` runs
the long version)."""

from __future__ import annotations

import pytest

from .fuzz import run_family
from .generators import FAMILIES

SEED = 20251201
COUNTS = {"lsp": 6}  # per family; the rest run this many:
DEFAULT_COUNT = 12


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_holds_the_promise(tmp_path, family: str) -> None:
    tally, failures = run_family(family, SEED, COUNTS.get(family, DEFAULT_COUNT), tmp_path)
    assert tally.runs == COUNTS.get(family, DEFAULT_COUNT)
    assert not failures, "\n\n".join(str(outcome) for outcome in failures)
