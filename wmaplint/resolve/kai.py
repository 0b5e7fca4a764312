"""What KAI-Scheduler's pod grouper does with a workload's kind before it reads any gang: which grouper it
picks for the pods' top owner, and whether a definition is one its Karta grouper takes.

Facts of kai-scheduler/KAI-Scheduler@d5bc503 (``KAI`` below): ``pkg/podgrouper/podgrouper/hub/hub.go``
(``NewDefaultPluginsHub``: the kinds with a grouper of KAI's own, which keeps precedence; the Karta grouper is
the fallback for every other kind, ``GetPodGrouperPlugin``),
``pkg/podgrouper/podgrouper/plugins/karta/hub.go`` (``getKartaForGvk``: the Karta whose root kind is exactly
the top owner's group, version and kind, not empty, with gang instructions and passing the library's
validator; two such are an error and neither is used; without one the default grouper applies), and the
library's validator as KAI's pinned release runs it (dsx-ai-factory/karta@6ae3969
``pkg/api/runai/v1alpha1/validation.go``; KAI's go.mod pins run-ai/karta v0.1.1-0.20260708043952-998140308a96,
whose validator has the same checks).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from wmaplint.source import to_python

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition

KAI = "kai-scheduler/KAI-Scheduler@d5bc503"

# (group, version, kind) -> KAI's own grouper for the kind; "*" matches every version (hub.go
# getRegularPlugin)
NATIVE_GROUPERS: dict[tuple[str, str, str], str] = {
    ("apps", "v1", "Deployment"): "Deployment",
    ("machinelearning.seldon.io", "v1alpha2", "SeldonDeployment"): "default",
    ("machinelearning.seldon.io", "v1", "SeldonDeployment"): "default",
    ("kubevirt.io", "v1", "VirtualMachineInstance"): "default",
    ("kubeflow.org", "v1", "TFJob"): "TFJob",
    ("kubeflow.org", "v1", "PyTorchJob"): "PyTorchJob",
    ("kubeflow.org", "v1", "XGBoostJob"): "XGBoostJob",
    ("kubeflow.org", "v1", "JAXJob"): "JAXJob",
    ("kubeflow.org", "v1", "MPIJob"): "MPIJob",
    ("kubeflow.org", "v2beta1", "MPIJob"): "MPIJob",
    ("kubeflow.org", "v1beta1", "Notebook"): "Notebook",
    ("batch", "v1", "Job"): "Job",
    ("apps", "v1", "StatefulSet"): "default",
    ("apps", "v1", "ReplicaSet"): "default",
    ("run.ai", "v1", "RunaiJob"): "RunaiJob",
    ("", "v1", "Pod"): "Pod",
    ("amlarc.azureml.com", "v1alpha1", "AmlJob"): "AmlJob",
    ("serving.knative.dev", "v1", "Service"): "Knative",
    ("batch", "v1", "CronJob"): "CronJob",
    ("workspace.devfile.io", "v1alpha2", "DevWorkspace"): "default",
    ("ray.io", "v1alpha1", "RayCluster"): "RayCluster",
    ("ray.io", "v1alpha1", "RayJob"): "RayJob",
    ("ray.io", "v1alpha1", "RayService"): "RayService",
    ("ray.io", "v1", "RayCluster"): "RayCluster",
    ("ray.io", "v1", "RayJob"): "RayJob",
    ("ray.io", "v1", "RayService"): "RayService",
    ("kubeflow.org", "v1alpha1", "ScheduledWorkflow"): "default",
    ("tekton.dev", "v1", "PipelineRun"): "default",
    ("tekton.dev", "v1", "TaskRun"): "default",
    ("egx.nvidia.io", "v1", "SPOTRequest"): "SPOTRequest",
    ("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet"): "LeaderWorkerSet",
    ("jobset.x-k8s.io", "v1alpha2", "JobSet"): "JobSet",
    ("grove.io", "v1alpha1", "PodGangSet"): "Grove",
    ("grove.io", "v1alpha1", "PodCliqueSet"): "Grove",
    # skipped top owners: the grouper of the next owner down groups the pods
    ("argoproj.io", "v1alpha1", "Workflow"): "skip-top-owner",
    ("trainer.kubeflow.org", "v1alpha1", "TrainJob"): "skip-top-owner (the JobSet's)",
    ("nvidia.com", "*", "DynamoGraphDeployment"): "skip-top-owner (Grove's or LeaderWorkerSet's)",
    **{("run.ai", "*", kind): "skip-top-owner" for kind in (
        "TrainingWorkload", "InteractiveWorkload", "DistributedWorkload", "InferenceWorkload",
        "DistributedInferenceWorkload")},
}

# k8s.io/apimachinery pkg/util/validation IsDNS1123Subdomain
_SUBDOMAIN = re.compile(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*")
SUBDOMAIN_MAX = 253


def native_grouper(api_version: str, kind: str) -> str | None:
    """KAI's own grouper for a top owner of ``api_version``/``kind``, None when the Karta grouper is asked."""
    group, _, version = api_version.rpartition("/")
    return NATIVE_GROUPERS.get((group, version, kind)) or NATIVE_GROUPERS.get((group, "*", kind))


def has_gang_instructions(definition: Definition) -> bool:
    """hub.go hasGangSchedulingInstructions: a podGroup, or at least one podGroups entry."""
    return definition.pod_group is not None or bool(definition.pod_groups)


def subdomain_problems(name: str) -> list[str]:
    """What IsDNS1123Subdomain says of ``name``, in its words; empty when it is a valid name."""
    problems = []
    if len(name) > SUBDOMAIN_MAX:
        problems.append(f"must be no more than {SUBDOMAIN_MAX} characters")
    if not _SUBDOMAIN.fullmatch(name):
        problems.append("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                        "'-' or '.', and must start and end with an alphanumeric character")
    return problems


def validator_errors(definition: Definition) -> list[str]:
    """The errors of the library's validator (KartaValidator.Validate) that the typed model can tell, in its
    words: repeated names (then nothing else), the root's kind, owner and status, each child's owner, empty
    names, several pod spec shapes, an instance id path without its selector or the reverse, an ownership
    cycle, an unknown podGroups member. Its jq syntax check is left to the jq rules."""
    components = definition.components
    seen: set[str] = set()
    repeated = []
    for component in [*definition.children, *([definition.root] if definition.root else [])]:
        name = component.name or ""
        if name in seen:
            repeated.append(f"component name {name} is not unique")
        seen.add(name)
    if repeated:
        return repeated
    errors: list[str] = []
    root = definition.root
    if root is not None:
        kind = root.kind
        if kind is None or not kind.version or not kind.kind or (not kind.group and kind.kind != "Pod"):
            errors.append("root component must have full kind (group, version, kind)")
        if root.owner_ref_node is not None and to_python(root.owner_ref_node) is not None:
            errors.append("root component cannot have owner ref")
        if root.status is None:
            errors.append("root component must have status definition")
    for component in definition.children:
        if not component.owner_ref:
            errors.append(f"child component '{component.name or ''}' has no owner ref")
        elif component.owner_ref not in seen:
            errors.append(f"child component '{component.name or ''}' has owner ref to non-existing component "
                          f"'{component.owner_ref}'")
    for component in components:
        name = component.name or ""
        if not name:
            errors.append("component name is empty")
        if len(component.spec_shapes()) > 1:
            errors.append(f"component '{name}' has multiple pod spec definitions")
        if component.instance_id_path is not None and component.instance_selector_node is None:
            errors.append(f"component '{name}' has instance id path but no pod component instance selector")
        elif component.instance_selector_node is not None and component.instance_id_path is None:
            errors.append(f"component '{name}' has pod component instance selector but no instance id path")
    if not errors:
        cycle = _cycle(definition)
        if cycle is not None:
            errors.append(f"ownership cycle detected involving component {cycle}")
    errors.extend(f"pod-group member component '{member.component or ''}' is not defined (should be a root "
                  "or child component)"
                  for member in definition.gang_members if (member.component or "") not in seen)
    return errors


def _cycle(definition: Definition) -> str | None:
    owners = {c.name or "": c.owner_ref for c in definition.components}
    for child in definition.children:
        visited: set[str] = set()
        current: str | None = child.name or ""
        while current:
            if current in visited:
                return current
            visited.add(current)
            current = owners.get(current)
    return None


def hub_choice(definitions: list[tuple[str, Definition]]) -> str:
    """What KAI's Karta hub makes of several definitions (name, definition) of one exact kind: it takes those
    with gang instructions that pass the validator, and two of them are an error (plugins/karta/hub.go
    getKartaForGvk)."""
    taken = [name for name, d in definitions
             if not d.legacy and has_gang_instructions(d) and not validator_errors(d)]
    if len(taken) > 1:
        return (f"KAI's Karta hub finds {len(taken)} with gang instructions ({', '.join(taken)}): an error, "
                "so it groups the pods with neither (plugins/karta/hub.go getKartaForGvk)")
    if taken:
        return f"KAI's Karta hub takes {taken[0]}, the one with gang instructions that passes the validator"
    return "KAI's Karta hub takes none: none has gang instructions and passes the validator"
