"""A finding on one jq expression, placed by offsets into its text (the rules place it in the file): a kind of
``wmaplint.facts.Finding`` that its expression check words where it finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.facts import Finding
from wmaplint.structs import dataclass

if TYPE_CHECKING:
    from wmaplint.diagnostics import Severity


@dataclass(frozen=True)
class JqFinding(Finding):
    """One finding: ``rule`` id, ``message``, offsets ``start``..``end`` into the expression text.

    ``severity``: ``None`` means the rule's default. ``data``: extra facts (``{"suggestions": [...]}``).
    ``replacement``: a corrected whole expression, when one is known.
    """

    rule: str
    message: str
    start: int
    end: int
    severity: Severity | None = None
    data: dict[str, Any] | None = None
    replacement: str | None = None
