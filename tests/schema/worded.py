"""What the schema rules say of the facts the typing analyses find: the rule that reports each kind, and its
message, for the tests of the analyses."""

from __future__ import annotations

from typing import Any

from wmaplint.facts import WORDINGS
from wmaplint.rules import load

load()


def rule_of(fact: Any) -> str:
    """The id of the rule that reports ``fact``."""
    return WORDINGS[type(fact)][0].id


def message_of(fact: Any) -> str:
    message = WORDINGS[type(fact)][1](fact)
    assert isinstance(message, str)
    return message


def rules(facts: list[Any]) -> list[str]:
    return [rule_of(f) for f in facts]
