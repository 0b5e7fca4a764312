"""Declarative rule packs: rules written as YAML (JSONPath ``given`` + CEL ``assert``) instead of Python.

Public API:
``load_pack(path) -> LoadedPack`` and ``load_pack_text(text, path) -> LoadedPack`` (never raise on bad input;
problems are WM920-WM923 diagnostics on the pack file), ``shipped_pack_paths() -> list[str]``,
``packs_for(config) -> tuple[list[PackRule], list[Diagnostic]]`` (shipped packs plus ``config.rule_packs``),
``pack_rule(id_or_name) -> PackRule | None`` (every pack rule loaded so far), ``lint_pack_document(...)``
(the engine's handler for a file of kind RulePack). Importing this module registers its check.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from wmaplint.checks import Context, check
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.resources import shipped
from wmaplint.rulepacks.loader import (
    BAD_ASSERT,
    BAD_GIVEN,
    DUPLICATE_ID,
    PACK_INVALID,
    LoadedPack,
    PackRule,
    load_pack,
    load_pack_text,
)

__all__ = [
    "LoadedPack",
    "PackRule",
    "PACK_RULES",
    "SHIPPED_DIR",
    "lint_pack_document",
    "load_pack",
    "load_pack_text",
    "pack_rule",
    "packs_for",
    "shipped_pack_paths",
]

SHIPPED_DIR = shipped("rules")
PACK_RULES: dict[str, PackRule] = {}  # id -> rule, for suppressions, configuration and reporters

_GOOD_PACK = """\
apiVersion: wmaplint.dev/v1
kind: RulePack
metadata: {name: acme}
rules:
  - id: ACME001
    name: root-has-status
    severity: warning
    message: the root component should say how to read its status
    docs: Without a status definition the platform cannot tell a running workload from a failed one.
    given: $.spec.structureDefinition.rootComponent
    assert: has(self.statusDefinition)
"""

define(
    PACK_INVALID,
    "rule-pack-invalid",
    "error",
    "A rule pack file cannot be used: unreadable, not YAML, or not in the rule pack format.",
    why="A broken pack would silently check nothing; its rules only run once the file is a valid RulePack "
    "(schemas/rulepack.schema.json).",
    bad=_GOOD_PACK.replace("    severity: warning\n", "    severity: loud\n"),
    good=_GOOD_PACK,
    fix="Correct the field named in the message; every rule needs id, severity, message, docs, given and "
    "assert.",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)
define(
    BAD_GIVEN,
    "rule-pack-bad-given",
    "error",
    "A pack rule's `given` is not an RFC 9535 JSONPath, or names a field the definition format does not "
    "have.",
    why="A query with a typo selects nothing, so the rule would pass on every definition without checking "
    "anything.",
    bad=_GOOD_PACK.replace("rootComponent\n", "rootComponnet\n"),
    good=_GOOD_PACK,
    fix="Spell the path as in the definition format (schemas/definition.schema.json); lists need [*] or [n].",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)
define(
    BAD_ASSERT,
    "rule-pack-bad-assert",
    "error",
    "A pack rule's `assert` (or messageExpression) does not compile or type-check against the definition "
    "format.",
    why="The expression is checked with the CEL type of the node `given` selects, so a misspelled field is "
    "caught when the pack loads rather than failing, or passing, on every definition.",
    bad=_GOOD_PACK.replace("has(self.statusDefinition)", "has(self.statusDefinitoin)"),
    good=_GOOD_PACK,
    fix="Use the field names of the selected node; `self` is that node and `root` the whole definition.",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)
define(
    DUPLICATE_ID,
    "rule-pack-duplicate-rule",
    "error",
    "Two pack rules share one id (in one pack, or across the packs in use).",
    why="Configuration, suppressions and reports address rules by id; two rules under one id cannot be told "
    "apart.",
    bad=_GOOD_PACK + _GOOD_PACK.split("rules:\n", 1)[1],
    good=_GOOD_PACK,
    fix="Give each rule its own id; to replace a shipped rule, ignore its id and add yours.",
    tags=("rule-pack",),
    example_filename="pack.yaml",
)


def shipped_pack_paths() -> list[str]:
    """The packs that ship with wmaplint (on by default; ignore their ids to turn them off)."""
    if not SHIPPED_DIR.is_dir():
        return []
    return sorted(str(p) for p in SHIPPED_DIR.glob("*.yaml") if p.is_file())


def packs_for(config: Any) -> tuple[list[PackRule], list[Diagnostic]]:
    """The rules in force for a configuration and the problems of its packs (each id kept once)."""
    extra = tuple(getattr(config, "rule_packs", ()) or ())
    rules: list[PackRule] = []
    problems: list[Diagnostic] = []
    owners: dict[str, str] = {}
    for path in [*shipped_pack_paths(), *extra]:
        pack = load_pack(path)
        problems.extend(pack.problems)
        for rule in pack.rules:
            owner = owners.get(rule.id)
            if owner is not None and owner != rule.pack_path:
                problems.append(
                    Diagnostic(
                        DUPLICATE_ID,
                        rule_severity(DUPLICATE_ID),
                        f"rule id {rule.id} is already defined by {owner}; this rule is not used",
                        rule.pack_path,
                        rule.id_span,
                    )
                )
                continue
            if owner is None:
                owners[rule.id] = rule.pack_path
                rules.append(rule)
                PACK_RULES[rule.id] = rule
    return rules, problems


def rule_severity(rule_id: str) -> Any:
    from wmaplint.diagnostics import RULES

    return RULES[rule_id].severity


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

    config = ctx.options[1] if isinstance(ctx.options, tuple) and len(ctx.options) > 1 else None
    rules, problems = packs_for(config)
    # Problems of a configured pack are reported with every definition it would check; shipped packs are
    # clean.
    yield from problems
    enabled = [rule for rule in rules if config is None or config.enabled(rule.id)]  # ignored: not even run
    yield from run_rules(enabled, ctx.definition.document_node, ctx.path)


def lint_pack_document(source: Any, document: Any, options: Any, config: Any) -> Iterable[Diagnostic]:
    """Lint a file of kind RulePack on its own (the engine's document handler)."""
    return load_pack_text(source.text, source.path).problems

