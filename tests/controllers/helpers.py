"""What the controller-model tests share: a catalog definition's text, a fault written into it, and the
findings of one rule on it."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic
from wmaplint.engine import lint_text
from wmaplint.shipped_data import shipped

CATALOG = shipped("catalog")


def catalog(name: str) -> str:
    return (CATALOG / name).read_text(encoding="utf-8")


def vary(text: str, old: str, new: str) -> str:
    assert old in text, f"{old!r} not in the definition"
    return text.replace(old, new, 1)


def findings(text: str, rule: str) -> list[Diagnostic]:
    return [d for d in lint_text(text, "definition.yaml") if d.rule == rule]
