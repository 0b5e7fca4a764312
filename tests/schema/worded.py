"""What the schema rules say of the facts the typing analyses find: the rule that reports each kind, and its
message, for the tests of the analyses."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import wmaplint.rules.schema as schema_rules

_REPORTED_BY: dict[type, Any] = {}
for _module in pkgutil.iter_modules(schema_rules.__path__):
    _rule = importlib.import_module(f"{schema_rules.__name__}.{_module.name}")
    _REPORTED_BY.update(dict.fromkeys(_rule.FACTS, _rule))


def rule_of(fact: Any) -> str:
    """The id of the rule that reports ``fact``."""
    return _REPORTED_BY[type(fact)].RULE.id


def message_of(fact: Any) -> str:
    return _REPORTED_BY[type(fact)].message(fact)


def rules(facts: list[Any]) -> list[str]:
    return [rule_of(f) for f in facts]
