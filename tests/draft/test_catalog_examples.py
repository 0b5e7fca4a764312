"""Every catalog example of a kind `wmaplint new` drafts, resolved with the draft: the same pods and GPUs as
with the shipped definition, except where listed (with the reason). Runs always; tests/draft/test_samples.py
does the same over ../shared/samples when it is present."""

from __future__ import annotations

from pathlib import Path

from .helpers import EXAMPLES, totals
from .test_samples import _workloads, drafts  # noqa: F401  (the module's drafts fixture, shared)

# example -> ((catalog pods, GPUs), (draft pods, GPUs), why they differ)
DIFFERENT: dict[str, tuple[tuple[int, int], tuple[int, int], str]] = {}


def test_every_catalog_example_of_a_drafted_kind_has_the_catalogs_totals_or_a_reason(drafts) -> None:  # noqa: F811
    compared: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {}
    for example in sorted(EXAMPLES.rglob("*.yaml")):
        with_catalog = totals(example)
        for gvk, name in _workloads(example):
            if gvk not in drafts or name not in with_catalog:
                continue
            key = str(example.relative_to(EXAMPLES))
            compared[key] = (with_catalog[name], totals(example, drafts[gvk])[name])
    assert len(compared) >= 40
    differences = {example: pair for example, pair in compared.items() if pair[0] != pair[1]}
    assert differences == {example: (catalog, draft) for example, (catalog, draft, _) in DIFFERENT.items()}


def test_the_examples_listed_exist() -> None:
    assert all((EXAMPLES / Path(name)).is_file() for name in DIFFERENT)
