"""WM113 duplicate-entry: a list that must have unique keys or values has a repeat."""

from __future__ import annotations

from wmaplint.definition.structure import DuplicateEntry
from wmaplint.diagnostics import Diagnostic, RelatedLocation, define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB

RULE = define(
    "WM113", "duplicate-entry", "error",
    "A list that must have unique keys or values has a repeat.",
    why="childComponents and podGroups are list maps keyed by name, additionalChildKinds by kind, gang "
    "members and podGroup sub-groups by componentName, and groupByKeyPaths and filters are sets: the API "
    "server rejects repeats (the Karta CRD's x-kubernetes-list-type and list-map-keys, FORMAT.md §3.1).",
    bad=JOB.replace(
        "    rootComponent:",
        "    additionalChildKinds:\n    - {group: apps, version: v1, kind: Deployment}\n"
        "    - {group: apps, version: v1, kind: Deployment}\n    rootComponent:",
    ),
    good=JOB,
    fix="Remove the repeat or give it a distinct key.",
)


@reports(RULE, DuplicateEntry)
def diagnostic(finding: DuplicateEntry) -> Diagnostic:
    if finding.keys:
        label = ", ".join(f"{k} {t!r}" for k, t in zip(finding.keys, finding.texts, strict=True))
    else:
        label = repr(finding.texts[0])
    note = ""
    if finding.pointer[-1:] == ("additionalChildKinds",):
        note = " (the list is keyed by kind alone, so the same kind from two groups is rejected too)"
    found = finding.diagnostic(RULE, f"{finding.where} has {label} twice{note}")
    found.related = (RelatedLocation(finding.path, finding.first, "first entry"),)
    return found
