"""WM433 status-hidden-by-evaluation-order: an earlier status matches every object a matcher matches."""

from __future__ import annotations

from wmaplint.diagnostics import Diagnostic, RelatedLocation, define
from wmaplint.rules import reports
from wmaplint.rules.examples import PYTORCHJOB
from wmaplint.source import content_span
from wmaplint.status.consistency import HiddenByOrder

RULE = define(
    "WM433",
    "status-hidden-by-evaluation-order",
    "warning",
    "Every object a matcher matches is also matched by a status evaluated earlier, so it is never reported "
    "alone.",
    why="Every status whose matchers hold is reported, in the order Resuming, Suspending, Suspended, "
    "Running, Failed, Completed, Initializing, Degraded (upstream `StatusMappings.Entries` and "
    "`matchStatus`, which returns all matches and leaves the choice to callers). `kli get` and `kli "
    "describe` print them all, comma-joined in that order, and `kli get --phase` selects a workload by "
    "any of them; the Karta operator and KAI do not read workload status. A later status whose matcher "
    "is covered by an earlier one therefore never appears without it: with a running matcher that "
    "matches every failed object, each failure reads `Running,Failed`, and a consumer that keeps one "
    "status keeps Running.",
    bad=PYTORCHJOB.replace(
        'running: [{byConditions: [{type: Running, status: "True"}]}]',
        'running: [{byConditions: [{type: Created, status: "True"}]}]',
    ).replace(
        'failed: [{byConditions: [{type: Failed, status: "True"}]}]',
        'failed: [{byConditions: [{type: Created, status: "True"}, {type: Failed, status: "True"}]}]',
    ),
    good=PYTORCHJOB,
    fix="Narrow the earlier matcher so it excludes the later status (e.g. running requires Running=True).",
)


@reports(RULE, HiddenByOrder)
def diagnostic(finding: HiddenByOrder) -> Diagnostic:
    matcher, earlier = finding.matcher, finding.earlier
    first, later = earlier.key.capitalize(), matcher.key.capitalize()
    found = finding.diagnostic(
        RULE,
        f"every object {matcher.label} matches ({finding.example}) also matches {earlier.label}, and {first} "
        f"is evaluated before {later}: such objects are reported {first},{later}, never {matcher.key} alone, "
        f"and a consumer that keeps one status keeps {earlier.key}",
    )
    where = content_span(earlier.matcher.node)
    found.related = (RelatedLocation(finding.path, where, f"{earlier.label} matches them first"),)
    return found
