"""Lint helpers for the status mapping tests: definitions from the catalog and variations of them."""

from __future__ import annotations

from pathlib import Path

from wmaplint.diagnostics import Diagnostic
from wmaplint.engine import Options, lint_text

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog"


def catalog_text(name: str) -> str:
    return (CATALOG / name).read_text(encoding="utf-8")


def vary(text: str, old: str, new: str) -> str:
    """``text`` with one piece replaced; the piece must be there, so a catalog edit cannot silently void a
    test."""
    assert old in text, f"{old!r} not in the definition"
    return text.replace(old, new, 1)


def status_findings(
    text: str, options: Options | None = None, path: str = "definition.yaml"
) -> list[Diagnostic]:
    return [d for d in lint_text(text, path, options) if "WM410" <= d.rule <= "WM449"]


def rules(findings: list[Diagnostic]) -> list[str]:
    return sorted(d.rule for d in findings)


def only(findings: list[Diagnostic], rule: str) -> list[Diagnostic]:
    return [d for d in findings if d.rule == rule]
