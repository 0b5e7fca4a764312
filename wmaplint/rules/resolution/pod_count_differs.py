"""WM734 pod-count-differs: a component claims more or fewer of the listed pods than the tree predicts."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import PodCountDiffers
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_POD, jobset_tree_with_pods

RULE = define(
    "WM734",
    "pod-count-differs",
    "warning",
    "With `tree --pods`, a component claims more or fewer of the listed pods than the tree predicts.",
    why="`tree --pods` compares the tree with the pods `kubectl get pods -o json` lists: the pods of the "
    "workload (by their owners, or by the label its controller writes to name it), attributed to components "
    "by the definition's selectors. A difference is a pod the controller has not made yet (pending, "
    "failed, scaled), or a definition whose counts or selectors are wrong.",
    bad=jobset_tree_with_pods(pod=JOBSET_POD),
    good=jobset_tree_with_pods(),
    fix="Check the pods' phases first; if every pod is running, fix the replicas path or the selectors of "
    "the component the message names.",
    example_mode="tree",
)


@reports(RULE, PodCountDiffers)
def count_differs(finding: PodCountDiffers) -> str:
    # the wording runs only when there is a finding to word; every check imports the rules, not decimal
    from wmaplint.resolve.quantities import counted

    part = f"{finding.component}/{finding.instance}" if finding.instance else finding.component
    which = f" ({finding.which})" if finding.which else ""
    predicted = counted(finding.predicted, "pod")
    return f"{part}: the tree predicts {predicted}, the pod list has {finding.listed}{which}"
