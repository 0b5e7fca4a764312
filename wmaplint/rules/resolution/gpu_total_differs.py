"""WM735 gpu-total-differs: the listed pods of a workload ask for other GPUs than the tree predicts."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import GpuTotalDiffers
from wmaplint.rules import reports
from wmaplint.rules.examples import JOBSET_PODS, jobset_tree_with_pods

RULE = define(
    "WM735",
    "gpu-total-differs",
    "warning",
    "With `tree --pods`, the workload's listed pods ask for more or fewer GPUs than the tree predicts.",
    why="The platform books GPUs from the definition's pod templates; pods that ask for others (an "
    "operator that adds or changes resources, a definition reading the wrong template) are quota the "
    "platform does not see.",
    bad=jobset_tree_with_pods(pod=JOBSET_PODS.replace(
        "image: trainer}", "image: trainer, resources: {limits: {nvidia.com/gpu: 1}}}", 1)),
    good=jobset_tree_with_pods(),
    fix="Point the component's pod template path at the template the controller runs.",
    example_mode="tree",
)


@reports(RULE, GpuTotalDiffers)
def gpu_total_differs(finding: GpuTotalDiffers) -> str:
    # the wording runs only when there is a finding to word; every check imports the rules, not decimal
    from wmaplint.resolve.quantities import counted, format_amount

    return (f"{finding.kind} {finding.name}: the tree predicts {counted(finding.predicted, 'GPU')}, the "
            f"workload's listed pods ask for {format_amount(finding.listed)}")
