"""Every module that registers rules. Listing, docs, SARIF metadata and suppressions need them all loaded."""

from __future__ import annotations

import importlib

RULE_MODULES = (
    "wmaplint.source.rules",
    "wmaplint.checks.format",
    "wmaplint.checks.components",
    "wmaplint.checks.status",
    "wmaplint.checks.status_semantics",
    "wmaplint.checks.expressions",
    "wmaplint.checks.schema_paths",
    "wmaplint.checks.cel_rules",
    "wmaplint.checks.crd",
    "wmaplint.suppress",
    "wmaplint.jq.rules",
    "wmaplint.schema.rules",
    "wmaplint.cel.rules",
    "wmaplint.resolve.rules",
    "wmaplint.rulepacks",
)


def import_rule_modules() -> None:
    for name in RULE_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:  # a module that exists but fails to import is a bug, not an absence
                raise
