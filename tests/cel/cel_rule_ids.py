"""The rule id of a CEL analysis finding: the rule that reports the finding it becomes."""

from __future__ import annotations

from typing import Any

from wmaplint.rules import WORDINGS, load


def rule_of(finding: Any) -> str:
    load()
    return WORDINGS[finding.kind][0].id
