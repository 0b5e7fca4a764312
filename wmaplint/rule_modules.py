"""Every module that registers rules. Listing, docs, SARIF metadata and suppressions need them all loaded."""

from __future__ import annotations

import importlib

from wmaplint.checks import CHECK_MODULES

# Rules registered outside the definition checks: YAML faults, CRD documents, suppressions, and the
# analyses' own modules.
RULE_MODULES = (
    *CHECK_MODULES,
    "wmaplint.checks.crd",
    "wmaplint.suppress",
    "wmaplint.cel.rules",
)


def import_rule_modules() -> None:
    from wmaplint import rules

    for name in RULE_MODULES:
        importlib.import_module(name)
    rules.load()
