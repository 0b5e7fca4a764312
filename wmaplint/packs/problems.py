"""What loading a rule pack finds wrong with it; the rule pack rules (``wmaplint.rules.environment``) report
it. Each is placed in the pack file, at the offending value."""

from __future__ import annotations

from wmaplint.dataclass import dataclass
from wmaplint.findings import FileFinding


@dataclass(frozen=True, slots=True, eq=False)
class PackInvalid(FileFinding):
    """The file cannot be used as a pack: ``problem`` says why (unreadable, not YAML, not one document, not
    in the pack format)."""

    problem: str


@dataclass(frozen=True, slots=True, eq=False)
class BadGiven(FileFinding):
    """The ``given`` of pack rule ``rule_id`` does not parse as a JSONPath (``parsed`` False: ``problem`` is
    the parser's), or selects nothing the definition format has (``problem`` says what)."""

    rule_id: str
    given: str
    problem: str
    parsed: bool


@dataclass(frozen=True, slots=True, eq=False)
class BadAssert(FileFinding):
    """The ``field`` (``assert`` or ``messageExpression``) of pack rule ``rule_id`` does not compile or
    type-check: ``problem`` is the checker's (None: it yielded no program)."""

    rule_id: str
    field: str
    problem: str | None


@dataclass(frozen=True, slots=True, eq=False)
class DuplicateRuleId(FileFinding):
    """Pack rule ``rule_id`` repeats an id: the pack's own rule at ``first_line``, or the rule of the pack at
    ``owner`` (the packs in use share one set of ids)."""

    rule_id: str
    first_line: int | None = None
    owner: str | None = None
