"""Every link between the project's Markdown pages leads somewhere: the file exists, and a `#anchor` names a
heading of it, as GitHub makes anchors (lower case, punctuation dropped, spaces as hyphens)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *ROOT.glob("docs/*.md")])
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.S | re.M)


def anchors(page: Path) -> set[str]:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_link_to_a_page_and_its_anchor_resolves(page: Path) -> None:
    broken = []
    for target in _LINK.findall(_FENCE.sub("", page.read_text(encoding="utf-8"))):
        if "://" in target or target.startswith("mailto:"):
            continue
        name, _, anchor = target.partition("#")
        linked = (page.parent / name).resolve() if name else page
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(target)
    assert broken == []
