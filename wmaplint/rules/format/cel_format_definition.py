"""WM121 cel-format-definition: the definition is written in the proposed CEL format, which no released
runtime reads."""

from __future__ import annotations

from wmaplint.definition.cel_proposal import CelFormatDefinition
from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB

_ACCESSOR = """\
scaleDefinition:
        replicasPath:
          expression: 'object.spec.parallelism'
          replace: "[{'op': 'replace', 'path': '/spec/parallelism', 'value': value}]\""""

RULE = define(
    "WM121", "cel-format-definition", "error",
    "The definition is written in the proposed CEL format, which the released runtime does not read.",
    why="Upstream proposed writing definitions in CEL under the same apiVersion (dsx-ai-factory/workload-map "
    "pull request #352, closed without merging): `*Path` fields become `{expression, patch, replace}` "
    "accessors, with `spec.variables` and `references`. The released Karta CRD and runtime read only the jq "
    "path fields, which are strings, so such a definition gives the platform no pod template, no replicas "
    "and no status. Checked field by field against the released format it gives dozens of unknown-field and "
    "jq findings that all say this one thing.",
    bad=JOB.replace("scaleDefinition: {replicasPath: '.spec.parallelism // 1'}", _ACCESSOR, 1),
    good=JOB,
    fix="Write the definition in the released format: each `*Path` field a jq path (`replicasPath: "
    ".spec.parallelism // 1`), without `spec.variables` and `references`; `wmaplint new --kind KIND` "
    "drafts one.",
    tags=("format", "migration"),
)


@reports(RULE, CelFormatDefinition)
def message(finding: CelFormatDefinition) -> str:
    return (f"`{finding.field}` ({finding.shape}) belongs to the proposed CEL definition format, which no "
            "released Karta runtime reads: the released runtime reads only the jq path fields (strings), so "
            "there this definition gives no pod template, no replicas and no status; the rest of this "
            "document is not checked (write it with jq paths to have it checked)")
