"""WM106 kind-case: the kind is Karta or ResourceInterface written in another case."""

from __future__ import annotations

from wmaplint.definition.misspelled_kind import KindCase
from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB

RULE = define(
    "WM106", "kind-case", "error",
    "The kind is Karta or ResourceInterface written in another case.",
    why="Kinds are case-sensitive: kubectl and the API server find a kind by its exact name "
    "(apimachinery's REST mapper, `no matches for kind \"karta\"`), so the definition is never stored and "
    "no platform reads it. wmaplint would not read it as a definition either, and nothing in it would be "
    "checked.",
    bad=JOB.replace("kind: Karta", "kind: karta", 1),
    good=JOB,
    fix="Write the kind as the CRD names it: `Karta` (or `ResourceInterface`).",
    tags=("yaml",),
)


@reports(RULE, KindCase)
def message(finding: KindCase) -> str:
    return (f"kind {finding.written!r} is not {finding.kind!r}: kinds are case-sensitive, so neither "
            "Kubernetes nor wmaplint reads this document as a definition, and nothing in it is checked")
