"""WM607 manifest-schema-violation: a workload manifest does not fit its kind's schema."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.validate import SchemaViolation
from wmaplint.rules import reports

RULE = define(
    "WM607",
    "manifest-schema-violation",
    "warning",
    "A workload manifest does not fit its kind's schema: an unknown field, a wrong type, a missing required "
    "field or a value outside an enum.",
    why="The API server rejects a wrong type, a missing required field or a value outside an enum, and an "
    "unknown field under strict field validation (kubectl's default since 1.27); without it, the server "
    "prunes the unknown field, so a misspelled setting silently keeps its default.",
    bad="""apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: demo}
spec:
  replica: 2
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers: [{name: worker, image: busybox}]
""",
    good="""apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: demo}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers: [{name: worker, image: busybox}]
""",
    fix="Use the field names and types the CRD declares (`kubectl explain` shows them).",
    tags=("schema", "manifest"),
    example_mode="tree",
)


@reports(RULE, SchemaViolation)
def message(finding: SchemaViolation) -> str:
    return finding.message
