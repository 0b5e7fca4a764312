"""Inline suppressions: ``# wmaplint: disable=RULE[,RULE...] -- reason`` and ``# wmaplint:
disable-file=...``, a rule named by its id or its name.

A line comment suppresses findings that start on its line; a comment alone on its line also covers the next
line. A suppression that suppresses nothing is itself reported, so stale ones do not pile up, and so is one
that names a rule that does not exist (findings here, worded by the suppression rules of
``wmaplint.rules.environment``).
"""

from __future__ import annotations

import re
from typing import Any

from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import Diagnostic, Span, rule_by_name_or_id
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.source.lines import split_lines

_PATTERN = re.compile(r"#\s*wmaplint:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9_,\- ]+?)\s*(?:--\s*(.*))?$")

@dataclass(frozen=True, slots=True, eq=False)
class UnusedSuppression(FileFinding):
    """A suppression comment suppresses none of the ``rules`` it names (``all``: nothing at all)."""

    rules: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class UnknownSuppressedRule(FileFinding):
    """A suppression comment names ``name``, which is no rule's id or name."""

    name: str


@dataclass
class Suppression:
    """One suppression comment: where it stands, the rules it names (ids, or ``all``) and the lines it
    covers; ``used`` collects the rules it suppressed a finding of."""

    line: int
    column: int
    end_column: int
    rules: set[str]
    lines: tuple[int, ...]
    whole_file: bool
    used: set[str] = field(default_factory=set)


def parse_suppressions(text: str, path: str) -> tuple[list[Suppression], list[FileFinding]]:
    """The suppression comments of a file's text, and the names among them that are no rule."""
    found: list[Suppression] = []
    problems: list[FileFinding] = []
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
                span = Span(number, match.start() + 1, number, match.end() + 1)
                problems.append(UnknownSuppressedRule(path, span, name))
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

    packs = sys.modules.get("wmaplint.packs.in_use")
    return packs.pack_rule(name) if packs is not None else None


def apply_suppressions(diagnostics: list[Diagnostic], text: str, path: str) -> list[Diagnostic]:
    """The findings of a file that its suppression comments leave, and the findings about those comments."""
    suppressions, problems = parse_suppressions(text, path)
    if not suppressions:
        return diagnostics + list(diagnostics_of(problems))
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
            span = Span(s.line, s.column, s.line, s.end_column)
            problems.append(UnusedSuppression(path, span, tuple(unused)))
    return kept + list(diagnostics_of(problems))
