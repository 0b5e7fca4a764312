"""Inline suppressions: ``# wmaplint: disable=WMnnn[,name...] -- reason`` and ``# wmaplint:
disable-file=...``.

A line comment suppresses findings that start on its line; a comment alone on its line also covers the next
line. A suppression that suppresses nothing is itself reported, so stale ones do not pile up.
"""

from __future__ import annotations

import re
from typing import Any

from wmaplint.diagnostics import Diagnostic, Severity, Span, define, rule_by_name_or_id
from wmaplint.rules.examples import JOB
from wmaplint.rules.format.unknown_field import RULE as UNKNOWN_FIELD
from wmaplint.source.lines import split_lines
from wmaplint.structs import dataclass, field

_PATTERN = re.compile(r"#\s*wmaplint:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_,\- ]+?)\s*(?:--\s*(.*))?$")

UNUSED = define(
    "WM910", "unused-suppression", "info",
    "A wmaplint suppression comment that suppresses nothing.",
    why="Stale suppressions hide future findings on the same line and mislead readers about what is wrong.",
    bad=JOB.replace("      name: job\n",
                    f"      name: job  # wmaplint: disable={UNKNOWN_FIELD.id} -- no longer needed\n", 1),
    good=JOB,
    fix="Remove the comment, or correct the rule it names.",
)
UNKNOWN_RULE = define(
    "WM911", "suppression-unknown-rule", "warning",
    "A suppression comment names a rule that does not exist.",
    why="A misspelled rule id suppresses nothing, so the finding it was meant to silence still fails the "
    "build.",
    bad=JOB.replace("      name: job\n", "      name: job  # wmaplint: disable=WM9999 -- typo\n", 1),
    good=JOB,
    fix="Use a rule id or name from `wmaplint rules`.",
)


@dataclass
class Suppression:
    line: int
    column: int
    end_column: int
    rules: set[str]
    lines: tuple[int, ...]
    whole_file: bool
    used: set[str] = field(default_factory=set)


def parse_suppressions(text: str, path: str) -> tuple[list[Suppression], list[Diagnostic]]:
    found: list[Suppression] = []
    problems: list[Diagnostic] = []
    if "wmaplint:" not in text:
        return found, problems
    for number, line in enumerate(split_lines(text), start=1):
        hash_at = line.find("#")
        if hash_at < 0 or "wmaplint:" not in line:
            continue
        match = _PATTERN.search(line, hash_at)
        if match is None:
            continue
        rules: set[str] = set()
        for raw in match.group(2).split(","):
            name = raw.strip()
            if not name:
                continue
            if name == "all":
                rules.add("all")
                continue
            rule = rule_by_name_or_id(name) or _pack_rule(name)
            if rule is None:
                problems.append(Diagnostic(
                    UNKNOWN_RULE.id, UNKNOWN_RULE.severity, f"suppression names unknown rule {name!r}", path,
                    Span(number, match.start() + 1, number, match.end() + 1)))
                continue
            rules.add(rule.id)
        alone = not line[:match.start()].strip()
        found.append(Suppression(
            line=number, column=match.start() + 1, end_column=match.end() + 1, rules=rules,
            lines=(number, number + 1) if alone else (number,), whole_file=match.group(1) == "disable-file"))
    return found, problems


def _pack_rule(name: str) -> Any:
    """A rule from a rule pack (ids such as ACME001), once the packs in use are loaded."""
    import sys

    packs = sys.modules.get("wmaplint.rulepacks")
    return packs.pack_rule(name) if packs is not None else None


def apply_suppressions(diagnostics: list[Diagnostic], text: str, path: str) -> list[Diagnostic]:
    suppressions, problems = parse_suppressions(text, path)
    if not suppressions:
        return diagnostics + problems
    kept: list[Diagnostic] = []
    for diag in diagnostics:
        if diag.path != path:  # e.g. a problem in a rule pack file: this file's comments do not cover it
            kept.append(diag)
            continue
        hit = None
        for s in suppressions:
            named = diag.rule in s.rules or "all" in s.rules
            if named and (s.whole_file or diag.span.start_line in s.lines):
                hit = s
                break
        if hit is None:
            kept.append(diag)
        else:
            hit.used.add(diag.rule)
    for s in suppressions:
        unused = sorted(r for r in s.rules if r != "all" and r not in s.used)
        if "all" in s.rules and not s.used:
            unused = ["all"]
        if unused:
            kept.append(Diagnostic(
                UNUSED.id, Severity.INFO, f"suppression of {', '.join(unused)} suppresses nothing", path,
                Span(s.line, s.column, s.line, s.end_column)))
    return kept + problems
