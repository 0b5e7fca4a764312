"""Declarative rule packs: rules written as YAML (JSONPath ``given`` + CEL ``assert``) instead of Python.

Public API:
``load_pack(path) -> LoadedPack`` and ``load_pack_text(text, path) -> LoadedPack`` (never raise on bad input;
problems are facts on the pack file, ``wmaplint.rulepacks.problems``, that the rule pack rules report),
``shipped_pack_paths() -> list[str]``, ``packs_for(config) -> tuple[list[PackRule], list[Fact]]`` (shipped
packs plus ``config.rule_packs``), ``pack_rule(id_or_name) -> PackRule | None`` (every pack rule loaded so
far). Importing this module registers its check.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from wmaplint.checks import Context, check
from wmaplint.diagnostics import Diagnostic
from wmaplint.facts import Fact
from wmaplint.resources import shipped
from wmaplint.rulepacks.loader import LoadedPack, PackRule, load_pack, load_pack_text
from wmaplint.rulepacks.problems import DuplicateRuleId

__all__ = [
    "LoadedPack",
    "PackRule",
    "PACK_RULES",
    "SHIPPED_DIR",
    "load_pack",
    "load_pack_text",
    "pack_rule",
    "packs_for",
    "shipped_pack_paths",
]

SHIPPED_DIR = shipped("rules")
PACK_RULES: dict[str, PackRule] = {}  # id -> rule, for suppressions, configuration and reporters

def shipped_pack_paths() -> list[str]:
    """The packs that ship with wmaplint (on by default; ignore their ids to turn them off)."""
    if not SHIPPED_DIR.is_dir():
        return []
    return sorted(str(p) for p in SHIPPED_DIR.glob("*.yaml") if p.is_file())


def packs_for(config: Any) -> tuple[list[PackRule], list[Fact]]:
    """The rules in force for a configuration and the problems of its packs (each id kept once)."""
    extra = tuple(getattr(config, "rule_packs", ()) or ())
    rules: list[PackRule] = []
    problems: list[Fact] = []
    owners: dict[str, str] = {}
    for path in [*shipped_pack_paths(), *extra]:
        pack = load_pack(path)
        problems.extend(pack.problems)
        for rule in pack.rules:
            owner = owners.get(rule.id)
            if owner is not None and owner != rule.pack_path:
                problems.append(DuplicateRuleId(rule.pack_path, rule.id_span, rule.id, owner=owner))
                continue
            if owner is None:
                owners[rule.id] = rule.pack_path
                rules.append(rule)
                PACK_RULES[rule.id] = rule
    return rules, problems


def pack_rule(key: str) -> PackRule | None:
    """A loaded pack rule by id (any case) or name."""
    key = key.strip()
    found = PACK_RULES.get(key.upper())
    if found is not None:
        return found
    return next((r for r in PACK_RULES.values() if r.name == key), None)


@check
def run_rule_packs(ctx: Context) -> Iterator[Diagnostic]:
    from wmaplint.rulepacks.run import run_rules
    from wmaplint.rules import diagnostics_of

    config = ctx.options[1] if isinstance(ctx.options, tuple) and len(ctx.options) > 1 else None
    rules, problems = packs_for(config)
    # Problems of a configured pack are reported with every definition it would check; shipped packs are
    # clean.
    yield from diagnostics_of(problems)
    enabled = [rule for rule in rules if config is None or config.enabled(rule.id)]  # ignored: not even run
    yield from run_rules(enabled, ctx.definition.document_node, ctx.path)


