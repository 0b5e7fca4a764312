"""The packs in use: those shipped with wmaplint and those a configuration names (``rule-packs:``), and
every pack rule loaded so far, by id, for suppressions, configuration and reporters."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.packs.loader import PackRule, load_pack
from wmaplint.packs.problems import DuplicateRuleId
from wmaplint.shipped_data import shipped

if TYPE_CHECKING:
    from wmaplint.config import Config
    from wmaplint.diagnostics import Diagnostic
    from wmaplint.source import MappingNode

SHIPPED_DIR = shipped("packs")
PACK_RULES: dict[str, PackRule] = memo.kept(__name__, "PACK_RULES", {})  # id -> rule


def shipped_pack_paths() -> list[str]:
    """The packs that ship with wmaplint (on by default; ignore their ids to turn them off)."""
    if not SHIPPED_DIR.is_dir():
        return []
    return sorted(str(p) for p in SHIPPED_DIR.glob("*.yaml") if p.is_file())


def packs_for(config: Any) -> tuple[list[PackRule], list[FileFinding]]:
    """The rules in force for a configuration and the problems of its packs (each id kept once)."""
    extra = tuple(getattr(config, "rule_packs", ()) or ())
    rules: list[PackRule] = []
    problems: list[FileFinding] = []
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


def run_packs(root: MappingNode, path: str, config: Config) -> Iterator[Diagnostic]:
    """What the packs in force for ``config`` say about the definition ``root`` of file ``path``: the problems
    of the packs (a configured pack's are reported with every definition it would check; shipped packs are
    clean), then the findings of their rules that the configuration does not ignore (those are not even
    run)."""
    from wmaplint.packs.run import run_rules

    rules, problems = packs_for(config)
    yield from diagnostics_of(problems)
    yield from run_rules([rule for rule in rules if config.enabled(rule.id)], root, path)
