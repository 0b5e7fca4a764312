"""What the schema rules say of the findings the typing analyses find: the rule that reports each kind, and
its message, for the tests of the analyses."""

from __future__ import annotations

from typing import Any

from wmaplint.findings import WORDINGS
from wmaplint.rules import load

load()


def rule_of(finding: Any) -> str:
    """The id of the rule that reports ``finding``."""
    return WORDINGS[type(finding)][0].id


def message_of(finding: Any) -> str:
    message = WORDINGS[type(finding)][1](finding)
    assert isinstance(message, str)
    return message


def rules(findings: list[Any]) -> list[str]:
    return [rule_of(f) for f in findings]
