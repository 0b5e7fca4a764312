"""WM531 gang-key-names-a-part: a gang key groups by a label naming a part of the workload (a replica type, a
role, an entry) rather than the workload or its run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.controllers.reading import label_reads
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.controllers import source_of
from wmaplint.rules.examples import JOBSET

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

_GANG = """\
  optimizationInstructions:
    gangScheduling:
      podGroups:
        - name: jobset
          members:
            - componentName: replicatedjob
              groupByKeyPaths: ['.metadata.labels["jobset.sigs.k8s.io/jobset-name"]']
"""

RULE = define(
    "WM531", "gang-key-names-a-part", "error",
    "A gang key groups pods by a label that names a part of the workload, not the workload or its run.",
    why="The scheduler makes one gang a distinct value of the group-by keys. A label whose value names a "
    "part of the workload (its replica type, role or the entry a pod comes from) splits one workload into "
    "one gang a part, which then start apart, and gives pods of two workloads with the same part the same "
    "gang. The roles of the labels are the controller model's (schemas/controllers/, `pods.labels[].role`, "
    "e.g. JobSet's `jobset.sigs.k8s.io/replicatedjob-name` names an entry of .spec.replicatedJobs, "
    "kubernetes-sigs/jobset api/jobset/v1alpha2/jobset_types.go).",
    bad=JOBSET.replace('spec:\n  structureDefinition:', 'spec:\n' + _GANG.replace(
        "jobset-name", "replicatedjob-name") + '  structureDefinition:'),
    good=JOBSET.replace('spec:\n  structureDefinition:', 'spec:\n' + _GANG + '  structureDefinition:'),
    fix="Group by a label naming the workload or its run; the message lists them.",
)

PARTS = {"component": "which component of the workload the pod belongs to",
         "entry": "the entry of the workload's spec the pod was made from"}


@definition_check(RULE)
def gang_key_names_a_part(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    model = ctx.root_model
    if model is None or model.pods is None:
        return
    whole = [label.key for label in model.labels_with_role("workload", "run")]
    for expr in ctx.definition.gang_expressions:
        if expr.field != "groupByKeyPaths":
            continue
        for read in label_reads(expr, "gang key"):
            label = model.label(read.key)
            if label is None or label.role not in PARTS:
                continue
            instead = (f"; group by a label naming the workload or its run: {', '.join(whole)}" if whole
                       else "")
            message = (f"gang key reads label {read.key!r}, whose value is {PARTS[label.role]} "
                       f"({label.value}), not the {model.kind}: one workload splits into a gang a value and "
                       f"workloads sharing a value share a gang{instead} ({source_of(model, label.source)})")
            yield ctx.diag(RULE, expr.node.span_of(read.start, read.end), message)
