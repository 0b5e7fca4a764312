"""Every module that registers rules. Listing, docs, SARIF metadata and suppressions need them all loaded."""

from __future__ import annotations

import importlib

# Rules registered outside the rule modules of wmaplint.rules: resolution's.
RULE_MODULES = ("wmaplint.resolve.rules",)


def import_rule_modules() -> None:
    from wmaplint import rules

    for name in RULE_MODULES:
        importlib.import_module(name)
    rules.load()
