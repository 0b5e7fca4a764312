"""Facts: what an analysis found that a rule may report.

Analyses (the YAML reader, the format walk, the jq and CEL checkers, the resolver...) know what they find,
not which rule reports it or how: each kind of finding is a subclass of ``Fact`` holding the position and
what a rule needs to word it, and the rule module that reports that kind (``wmaplint.rules.reports``) turns
it into a diagnostic.
"""

from __future__ import annotations

from typing import Any

from wmaplint.diagnostics import Diagnostic, Fix, RelatedLocation, Rule, Span
from wmaplint.structs import dataclass


@dataclass(frozen=True, slots=True, eq=False)
class Fact:
    """Where something was found: the file (as reported) and the span in it. A kind of fact with related
    locations, fixes or data for machines declares ``related``, ``fixes`` or ``data`` as fields of its own
    (after its other fields, with defaults): the diagnostic takes them."""

    path: str
    span: Span

    def diagnostic(self, rule: Rule, message: str) -> Diagnostic:
        related: tuple[RelatedLocation, ...] = getattr(self, "related", ())
        fixes: tuple[Fix, ...] = getattr(self, "fixes", ())
        data: dict[str, Any] | None = getattr(self, "data", None)
        return Diagnostic(rule=rule.id, severity=rule.severity, message=message, path=self.path,
                          span=self.span, related=related, fixes=fixes, data=data)
