"""Findings: what an analysis found that a rule may report.

Analyses (the YAML reader, the format walk, the jq and CEL checkers, the resolver...) know what they find,
not which rule reports it or how: each kind of finding is a subclass of ``FileFinding`` holding the position
and what a rule needs to word it, and the rule module that reports that kind (``wmaplint.rules.reports``)
turns it into a diagnostic.

The table of wordings lives here, below the analyses, and the rules fill it (``@reports``): an analysis that
hands back diagnostics words its findings with ``diagnostics_of`` without importing a rule. The rule
modules are imported on the first wording of a kind none has registered yet by the loader the package root
installs (``wmaplint/__init__.py``, ``set_rule_loader``), which runs before any module of the package,
whatever the entry point.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import RULES, Diagnostic, Fix, RelatedLocation, Rule, Span


class Finding:
    """The base of every kind of finding an analysis records, in one of three shapes of where it was found:
    ``FileFinding``, at a span of a file; ``ExpressionFinding``, at offsets into a jq expression's text (typed
    once for every file that has the expression, and placed in the file by the rules); ``DataFinding``, at a
    key path of a document read as plain data (placed in the file by the analysis's caller, which has its
    nodes)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True, eq=False)
class FileFinding(Finding):
    """Found in a file: the file (as reported) and the span in it. A kind of finding with related locations,
    fixes or data for machines declares ``related``, ``fixes`` or ``data`` as fields of its own (after its
    other fields, with defaults): the diagnostic takes them."""

    path: str
    span: Span

    def diagnostic(self, rule: Rule, message: str) -> Diagnostic:
        related: tuple[RelatedLocation, ...] = getattr(self, "related", ())
        fixes: tuple[Fix, ...] = getattr(self, "fixes", ())
        data: dict[str, Any] | None = getattr(self, "data", None)
        return Diagnostic(rule=rule.id, severity=rule.severity, message=message, path=self.path,
                          span=self.span, related=related, fixes=fixes, data=data)


@dataclass(frozen=True, slots=True, eq=False)
class ExpressionFinding(Finding):
    """Found at offsets ``start``..``end`` of a jq expression's text. A kind that the expression can be fixed
    for in one sure way declares ``replacement``, the whole text fixed; ``data`` is what the diagnostic tells
    machines; ``declared``, where a schema declares what the finding is about."""

    start: int
    end: int


class DataFinding(Finding):
    """Found at a key path of a document read as plain data (the CEL analyses, manifest validation): each
    kind names the ``FileFinding`` it becomes, and its ``at`` places it in the file, where a rule words it."""

    __slots__ = ()

    kind: type[FileFinding] | Callable[..., FileFinding]
    message: str

    def at(self, path: str, span: Span, **more: Any) -> FileFinding:
        """The ``FileFinding`` this becomes at ``span`` of file ``path``; ``more``: fields of the kind's own
        (its ``data``, ``related``...). The caller, which holds the document's nodes, finds the span."""
        raise NotImplementedError


#: ``fn(finding) -> message | diagnostic | None``: how a rule words one finding
Wording = Callable[[Any], "str | Diagnostic | None"]

#: each kind of finding with the rule that reports it and its wording, filled as the rule modules load
WORDINGS: dict[type[Finding], tuple[Rule, Wording]] = {}

_rule_loader: Callable[[], None] | None = None


def set_rule_loader(load: Callable[[], None]) -> None:
    """Install ``load``, which imports every rule module (registering their wordings), for ``diagnostics_of``
    to call when a finding's kind has no wording yet, and for the rule registry to call before it is read."""
    global _rule_loader
    _rule_loader = load
    RULES.loader = load


def wording_of(finding: Finding) -> tuple[Rule, Wording] | None:
    """The rule that reports ``finding``'s kind and its wording, None when no rule does; a kind worded by a
    rule module not imported yet has every module imported first."""
    found = WORDINGS.get(type(finding))
    if found is None and _rule_loader is not None:
        _rule_loader()
        found = WORDINGS.get(type(finding))
    return found


def diagnostics_of(findings: Iterable[FileFinding]) -> Iterator[Diagnostic]:
    """Each finding as the diagnostic of the rule that reports its kind (findings no rule reports are
    dropped)."""
    for finding in findings:
        found = wording_of(finding)
        if found is None:
            continue
        rule, word = found
        said = word(finding)
        if isinstance(said, Diagnostic):
            yield said
        elif said is not None:
            yield finding.diagnostic(rule, said)
