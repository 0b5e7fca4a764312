"""Hand-built reports for the reporter tests: a JobSet definition with findings like the checks produce."""

from __future__ import annotations

from wmaplint.diagnostics import (
    RULES,
    CheckOutcome,
    Diagnostic,
    Fix,
    RelatedLocation,
    Severity,
    Span,
    TextEdit,
    define,
)

DEFINITION_PATH = "catalog/jobset/jobset.yaml"
CRD_PATH = "../shared/crds/jobset.x-k8s.io/jobset_v1alpha2.yaml"

DEFINITION = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: jobset-x-k8s-io-jobset-v1alpha2
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: .spec.replicatedJob[].name
      scaleDefinition:
        replicasPath: '.spec.replicatedJobs[] | .replicas * (.template.spec.parallelism // 1)'
"""

# Test-only rules in the 8xx range, which no area of the project uses.
TEST_RULES = {
    "WM801": dict(
        name="test-unknown-field",
        severity="error",
        summary="A jq path names a field the CRD schema does not have.",
        why="The platform reads nothing from a field that does not exist, so the workload is misreported.",
        bad="spec:\n  path: .spec.replicatedJob\n",
        good="spec:\n  path: .spec.replicatedJobs\n",
        fix="Use the field name from the CRD; the message suggests the closest one.",
        tags=("correctness", "jq"),
    ),
    "WM802": dict(
        name="test-no-status",
        severity="warning",
        summary="The status mapping has no entry for a phase the framework reaches.",
        why="Without it a finished job stays 'running' on dashboards.",
        bad="statusMappings:\n  failed: []\n",
        good="statusMappings:\n  failed: []\n  completed: []\n",
        fix="Add a mapping for the phase, usually by conditions.",
    ),
    "WM803": dict(
        name="test-scale-hint",
        severity="info",
        summary="A replicas expression multiplies by a field that defaults to one.",
        why="Informational: ``// 1`` already covers the missing field.",
        bad="replicasPath: .replicas * .parallelism\n",
        good="replicasPath: .replicas * (.parallelism // 1)\n",
    ),
}


def register_test_rules() -> list[str]:
    added = []
    for rule_id, fields in TEST_RULES.items():
        if rule_id not in RULES:
            added.append(rule_id)
        define(rule_id, **fields)  # type: ignore[arg-type]
    return added


def unregister(rule_ids: list[str]) -> None:
    for rule_id in rule_ids:
        RULES.pop(rule_id, None)


def span_of(text: str, line: int, token: str, occurrence: int = 1) -> Span:
    """The span of the ``occurrence``-th ``token`` on 1-based ``line`` (code-point columns)."""
    content = text.splitlines()[line - 1]
    index = -1
    for _ in range(occurrence):
        index = content.index(token, index + 1)
    return Span(line, index + 1, line, index + 1 + len(token))


def unknown_field() -> Diagnostic:
    span = span_of(DEFINITION, 18, "replicatedJob")
    return Diagnostic(
        rule="WM801",
        severity=Severity.ERROR,
        message='unknown field "replicatedJob" in JobSet.spec; did you mean "replicatedJobs"?',
        path=DEFINITION_PATH,
        span=span,
        related=(
            RelatedLocation(CRD_PATH, Span(223, 15, 223, 29), "JobSet.spec.replicatedJobs is defined here"),
        ),
        fixes=(Fix('replace with "replicatedJobs"', (TextEdit(span, "replicatedJobs"),)),),
        data={"alternatives": ["replicatedJobs"], "schemaPath": ["spec", "replicatedJobs"]},
    )


def missing_status() -> Diagnostic:
    start = span_of(DEFINITION, 12, "statusMappings")
    return Diagnostic(
        rule="WM802",
        severity=Severity.WARNING,
        message="status mapping has no entry for completed",
        path=DEFINITION_PATH,
        span=Span(12, start.start_col, 13, 69),
    )


def scale_hint() -> Diagnostic:
    return Diagnostic(
        rule="WM803",
        severity=Severity.INFO,
        message="parallelism defaults to 1 when absent",
        path=DEFINITION_PATH,
        span=span_of(DEFINITION, 20, ".template.spec.parallelism"),
    )


def jobset_report() -> CheckOutcome:
    """Three findings given out of order, so every reporter's sorting is exercised."""
    return CheckOutcome(
        diagnostics=[scale_hint(), unknown_field(), missing_status()],
        sources={DEFINITION_PATH: DEFINITION},
        files_checked=1,
    )
