"""WM301 unknown-schema-field: a jq path reads a field that the target schema does not declare."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.jq.inference.findings import PrunedField, UnknownField
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB, job_with

RULE = define(
    "WM301", "unknown-schema-field", "error",
    "A jq path reads a field that the target schema does not declare.",
    why="A misspelled or misplaced field is valid jq and yields null at runtime, so the scheduler or "
    "dashboard silently sees no pod template, no replicas or no status. Upstream accepts it; only the CRD "
    "can tell. The object's own `metadata`, and that of embedded resources, is checked against Kubernetes' "
    "ObjectMeta, which the API server serves whatever the CRD declares. Under a nested `metadata` that the "
    "CRD declares as an object without properties, the API server prunes every field when the object is "
    "written, so reading one is reported too.",
    bad=job_with("{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: .spec.templat}"),
    good=JOB,
    fix="Use the field name the CRD declares (the message lists the closest ones).",
)


@reports(RULE, UnknownField)
@reports(RULE, PrunedField)
def message(finding: UnknownField | PrunedField) -> str:
    if isinstance(finding, PrunedField):
        return (f"field {finding.name!r} never reaches the cluster: the schema declares this `metadata` as "
                "an object without properties, and the API server prunes every field under it when the "
                "object is written, so the path yields null (controller-gen writes template metadata this "
                "way unless its generateEmbeddedObjectMeta option is on)")
    where = f" of {finding.parent}" if finding.parent else ""
    meant = " or ".join(repr(s) for s in finding.suggestions)
    hint = f"; did you mean {meant}?" if finding.suggestions else ""
    if finding.deeper:
        hint = f"; it exists deeper, at {' and '.join(repr(p) for p in finding.deeper)} below this object"
    return f"field {finding.name!r} does not exist in the schema{where}{hint}"
