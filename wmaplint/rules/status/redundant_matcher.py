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
def diagnostic(finding: RedundantMatcher) -> Diagnostic:
    matcher, general = finding.matcher, finding.general
    message = (f"matcher {matcher.label} is redundant: every object it matches is already matched by "
               f"{general.label}")
    found = finding.diagnostic(RULE, message)
    found.related = (RelatedLocation(finding.path, content_span(general.matcher.node), general.label),)
    return found
