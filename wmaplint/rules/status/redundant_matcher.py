"""WM432 redundant-matcher: a matcher matches only objects another matcher of the same status matches."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, RelatedLocation, define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source import content_span
from wmaplint.status.consistency import RedundantMatcher

RULE = define(
    "WM432",
    "redundant-matcher",
    "info",
    "A matcher that matches only objects another matcher of the same status already matches.",
    why="Entries of a status list are ORed; an entry subsumed by a more general one adds nothing and "
    "usually means a requirement was meant for the other entry.",
    bad=job_with(
        '          failed: [{byConditions: [{type: Failed, status: "True"}]}]',
        '          failed:\n            - byConditions: [{type: Failed, status: "True"}]\n'
        '            - byConditions: [{type: Failed, status: "True"}, {type: Complete, status: "False"}]',
    ),
    good=JOB,
    fix="Remove the narrower matcher, or move its extra requirement where it was meant.",
)


@reports(RULE, RedundantMatcher)
def diagnostic(fact: RedundantMatcher) -> Diagnostic:
    matcher, general = fact.matcher, fact.general
    found = fact.diagnostic(RULE, f"matcher {matcher.label} is redundant: every object it matches is already "
                                  f"matched by {general.label}")
    found.related = (RelatedLocation(fact.path, content_span(general.matcher.node), general.label),)
    return found
