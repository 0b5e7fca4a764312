"""WM120 helm-template: the file is a Helm template, which is YAML only once Helm renders it."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.rules import reports
from wmaplint.rules.examples import JOB
from wmaplint.source.faults import HelmTemplate

RULE = define(
    "WM120", "helm-template", "warning",
    "The file is a Helm template: it is checked once rendered.",
    why="Charts ship definitions as templates (`name: {{ .Values.name }}`). Until Helm renders them they are "
    "not YAML, so a check of the template itself stops at the first action with a parse error that says "
    "nothing about the definition, and quoted actions would be checked as if they were the values the "
    "cluster gets.",
    bad=JOB.replace("metadata: {name: batch-job-v1}", "metadata:\n  name: {{ .Values.name }}", 1),
    good=JOB,
    fix="Check what Helm renders: `helm template CHART | wmaplint check -` (definitions in the stream are "
    "checked, other documents skipped), or leave the chart's templates out with `exclude: "
    "[charts/*/templates/]` in .wmaplint.yaml.",
    tags=("yaml", "helm"),
)


@reports(RULE, HelmTemplate)
def message(finding: HelmTemplate) -> str:
    chart = finding.chart or "CHART"
    where = f"a template of the Helm chart {finding.chart}" if finding.chart else "a Helm template"
    named = finding.chart and finding.chart != "."
    folder = f"{finding.chart}/templates/" if named else "charts/*/templates/"
    return (f"this file is {where} (`{finding.action}` is template syntax, not YAML), so it is not checked: "
            f"check the rendered chart with `helm template {chart} | wmaplint check -`, or leave the folder "
            f"out with `exclude: [\"{folder}\"]` in .wmaplint.yaml")
