"""Diagnostics, spans and the rule registry shared by every stage.

Positions are 1-based lines and columns; a span's end column is the column *after* its last character
(the SARIF convention), so a one-character token at column 5 has ``start_col=5, end_col=6``.
Columns count Unicode code points of the line; reporters convert them to UTF-16 code units, the one unit of
every output (``wmaplint/report/common.py``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass, field

if TYPE_CHECKING:
    from _collections_abc import dict_items, dict_keys, dict_values


class Severity(enum.IntEnum):
    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r} (expected error, warning or info)") from None


@dataclass(frozen=True, slots=True, order=True)
class Span:
    start_line: int
    start_col: int
    end_line: int
    end_col: int

    # Written out: spans are made by the thousand (wmaplint.dataclass), a node's two of every read; each field
    # set through its slot (``_SET_SPAN``, below), as object.__setattr__ does after looking the name up
    def __init__(self, start_line: int, start_col: int, end_line: int, end_col: int) -> None:
        set_start_line, set_start_col, set_end_line, set_end_col = _SET_SPAN
        set_start_line(self, start_line)
        set_start_col(self, start_col)
        set_end_line(self, end_line)
        set_end_col(self, end_col)

    @classmethod
    def point(cls, line: int, col: int) -> Span:
        return cls(line, col, line, col + 1)

    @classmethod
    def whole_file(cls) -> Span:
        return cls(1, 1, 1, 1)


_SET_SPAN = tuple(vars(Span)[name].__set__ for name in ("start_line", "start_col", "end_line", "end_col"))


@dataclass(frozen=True, slots=True)
class TextEdit:
    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    description: str
    edits: tuple[TextEdit, ...]


TITLE_LENGTH = 80


def fix(title: str, *edits: TextEdit | None) -> list[Fix]:
    """The fixes list of a finding: one fix when every edit could be made safely (``wmaplint.source.edits``
    gives None otherwise), none else. Titles are one line (an editor shows them in a menu)."""
    if not edits or any(edit is None for edit in edits):
        return []
    title = " ".join(title.split())
    if len(title) > TITLE_LENGTH:
        title = title[:TITLE_LENGTH - 1] + "\u2026"
    return [Fix(title, tuple(e for e in edits if e is not None))]


# Roots a related location's ``path`` can be relative to, besides the user's working tree (``None``):
# schemas served by the bundle inside the package, schemas in the user cache, rule packs shipped with the
# tool. Reporters name these roots (SARIF ``uriBaseId``, JSON ``base``) and never print a machine path for
# them; the names are part of those outputs (docs/json-output.md), so the shipped packs' root keeps the name
# it had before their folder was called packs.
BUNDLED_SCHEMAS = "WMAPLINT_BUNDLED_SCHEMAS"
CACHED_SCHEMAS = "WMAPLINT_SCHEMA_CACHE"
SHIPPED_PACKS = "WMAPLINT_SHIPPED_RULES"


@dataclass(frozen=True, slots=True)
class RelatedLocation:
    path: str
    span: Span | None
    message: str
    base: str | None = None  # None: ``path`` is a file of the user's; else one of the roots above


@dataclass(slots=True)
class Diagnostic:
    rule: str
    severity: Severity
    message: str
    path: str
    span: Span
    related: tuple[RelatedLocation, ...] = ()
    fixes: tuple[Fix, ...] = ()
    data: dict[str, Any] | None = None

    @property
    def name(self) -> str:
        """The rule's kebab-case name: a built-in rule's, or a rule pack rule's (its findings carry it)."""
        if self.rule in RULES:
            return RULES[self.rule].name
        named = self.data.get("name") if self.data and "pack" in self.data else None
        return named if isinstance(named, str) else ""

    def sort_key(self) -> tuple[Any, ...]:
        return (self.path, self.span, self.rule, self.message)


@dataclass(frozen=True, slots=True)
class ExpressionDiagnostic:
    """What an expression check says of one jq expression by itself, before it is placed in a file: ``rule``
    id, ``message``, offsets ``start``..``end`` into the expression text (``rules/placement.py`` places it in
    each file that has the expression).

    ``severity``: ``None`` means the rule's default. ``data``: extra data (``{"suggestions": [...]}``).
    ``replacement``: a corrected whole expression, when one is known.
    """

    rule: str
    message: str
    start: int
    end: int
    severity: Severity | None = None
    data: dict[str, Any] | None = None
    replacement: str | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule's identity and documentation.

    ``bad`` and ``good`` are whole files: the documentation test lints ``bad`` and expects this rule,
    lints ``good`` and expects it absent. ``example_mode`` names how the examples are run
    (``check``: ``lint_text`` on a definition or CRD file; other modes register a runner in
    ``wmaplint.rule_examples``).
    """

    id: str
    name: str
    severity: Severity
    summary: str
    why: str
    bad: str
    good: str
    fix: str = ""
    tags: tuple[str, ...] = ()
    example_mode: str = "check"
    example_filename: str = "example.yaml"
    # under --strict its warnings are errors: the rules that say a check could not run (no schema)
    strict_error: bool = False


class RuleRegistry(dict[str, Rule]):
    """Every rule by id, as the rule modules register them when imported. A check of definitions imports only
    the modules that run on definitions (``wmaplint.rules.load_definition_rules``), so the registry imports
    the rest with ``loader`` (installed by the package root) before it is first read."""

    def __init__(self) -> None:
        super().__init__()
        self.loader: Callable[[], None] | None = None
        self.complete = False

    def _complete(self) -> None:
        if not self.complete and self.loader is not None:
            self.complete = True
            self.loader()

    def __getitem__(self, key: str) -> Rule:
        self._complete()
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        self._complete()
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        self._complete()
        return dict.__contains__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._complete()
        return dict.__iter__(self)

    def __len__(self) -> int:
        self._complete()
        return dict.__len__(self)

    def keys(self) -> dict_keys[str, Rule]:
        self._complete()
        return dict.keys(self)

    def values(self) -> dict_values[str, Rule]:
        self._complete()
        return dict.values(self)

    def items(self) -> dict_items[str, Rule]:
        self._complete()
        return dict.items(self)


RULES = RuleRegistry()


def register(rule: Rule) -> Rule:
    if not (len(rule.id) == 5 and rule.id.startswith("WM") and rule.id[2:].isdigit()):
        raise ValueError(f"rule id {rule.id!r} is not WM + 3 digits")
    known = dict.get(RULES, rule.id)  # as registered so far: reading RULES would import every rule module
    if known is not None and known != rule:
        raise ValueError(f"rule id {rule.id} registered twice ({known.name}, {rule.name})")
    dict.__setitem__(RULES, rule.id, rule)
    return rule


def define(
    id: str,
    name: str,
    severity: str,
    summary: str,
    *,
    why: str,
    bad: str,
    good: str,
    fix: str = "",
    tags: Iterable[str] = (),
    example_mode: str = "check",
    example_filename: str = "example.yaml",
    strict_error: bool = False,
) -> Rule:
    """Register a rule; the call site reads like the rule's documentation."""
    return register(
        Rule(
            id=id,
            name=name,
            severity=Severity.parse(severity),
            summary=summary,
            why=why,
            bad=bad,
            good=good,
            fix=fix,
            tags=tuple(tags),
            example_mode=example_mode,
            example_filename=example_filename,
            strict_error=strict_error,
        )
    )


def rule_by_name_or_id(key: str) -> Rule | None:
    key = key.strip()
    if key.upper() in RULES:
        return RULES[key.upper()]
    for rule in RULES.values():
        if rule.name == key:
            return rule
    return None


@dataclass(slots=True)
class CheckOutcome:
    """Everything one lint run produced: diagnostics plus the texts reporters need for context."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    sources: dict[str, str] = field(default_factory=dict)
    files_checked: int = 0
    errors: list[str] = field(default_factory=list)  # inputs that could not be read: one line each, exit 2
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (path, why) not read: `check -v` says
