"""Pods that live in another object: a workload whose pod templates come from an object it names.

Kubeflow Trainer: a TrainJob runs the JobSet of the TrainingRuntime or ClusterTrainingRuntime named by
``.spec.runtimeRef`` (kind default ClusterTrainingRuntime; a TrainingRuntime is looked up in the TrainJob's
namespace). The trainer's replicated job is the one labelled ``trainer.kubeflow.org/trainjob-ancestor-step:
trainer``, else the one named ``node``; the TrainJob overrides its ``node`` container's image and resources
(``.spec.trainer.image``, ``.resourcesPerNode``) and its pod count (``.spec.trainer.numNodes``, else the
runtime's ``.spec.mlPolicy.numNodes``, else 1). When the runtime is among the objects given, the trainer
component's pods are resolved from it; when it is not, a note says which runtime is needed.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass, field
from wmaplint.resolve.model import ComponentNode
from wmaplint.resolve.templates import pod_template
from wmaplint.resolve.values import get

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

TRAINER_GROUP = "trainer.kubeflow.org"
RUNTIME_KINDS = ("TrainingRuntime", "ClusterTrainingRuntime")
ANCESTOR_LABEL = "trainer.kubeflow.org/trainjob-ancestor-step"
TRAINER_CONTAINER = "node"


# Built-in kinds that never run pods. Manifests sit beside them in real repositories; no definition is
# missing for them, so the tree passes them by instead of warning.
_NOT_WORKLOADS = {
    "v1": {
        "ConfigMap", "Secret", "Service", "ServiceAccount", "PersistentVolumeClaim", "PersistentVolume",
        "Namespace", "Endpoints", "LimitRange", "ResourceQuota",
    },
    "rbac.authorization.k8s.io/v1": {"Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding"},
    "networking.k8s.io/v1": {"Ingress", "NetworkPolicy", "IngressClass"},
    "policy/v1": {"PodDisruptionBudget"},
    "scheduling.k8s.io/v1": {"PriorityClass"},
    "storage.k8s.io/v1": {"StorageClass"},
    "autoscaling/v2": {"HorizontalPodAutoscaler"},
    "apiextensions.k8s.io/v1": {"CustomResourceDefinition"},
}


def is_built_in_non_workload(value: object) -> bool:
    """A built-in object that never runs pods (ConfigMap, Service, RBAC, ...)."""
    if not isinstance(value, dict) or not isinstance(value.get("apiVersion"), str):
        return False
    return value.get("kind") in _NOT_WORKLOADS.get(value["apiVersion"], ())


def is_referenced_object(value: object) -> bool:
    """Objects only ever referred to by workloads (not workloads themselves)."""
    if not isinstance(value, dict) or not isinstance(value.get("apiVersion"), str):
        return False
    return value["apiVersion"].rpartition("/")[0] == TRAINER_GROUP and value.get("kind") in RUNTIME_KINDS


@dataclass
class References:
    """Objects workloads may name, with where each came from (a file path)."""

    objects: list[tuple[dict[str, Any], str]] = field(default_factory=list)

    def add(self, value: Any, origin: str) -> bool:
        if is_referenced_object(value):
            self.objects.append((value, origin))
            return True
        return False

    def find(
        self, group: str, kind: str, name: str, namespace: str | None
    ) -> tuple[dict[str, Any], str] | None:
        for obj, origin in self.objects:
            if (
                obj["apiVersion"].rpartition("/")[0] == group
                and obj.get("kind") == kind
                and get(obj, "metadata", "name") == name
                and (namespace is None or (get(obj, "metadata", "namespace") or "default") == namespace)
            ):
                return obj, origin
        return None


@dataclass
class Resolved:
    """What resolving a workload's references changed: notes for the tree, quantity problems."""

    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def resolve_references(
    obj: Any, components: dict[str, ComponentNode], references: References | None
) -> Resolved:
    """Fill in the pods a workload's components take from the objects it names (only TrainJob today)."""
    if (
        isinstance(obj, dict)
        and isinstance(obj.get("apiVersion"), str)
        and obj["apiVersion"].rpartition("/")[0] == TRAINER_GROUP
        and obj.get("kind") == "TrainJob"
    ):
        return _trainjob(obj, components, references or References())
    return Resolved()


def _trainer_component(components: dict[str, ComponentNode], job_name: str) -> ComponentNode | None:
    """The component of the trainer's replicated job: named like it, else the only single-instance child
    with a pod spec."""
    if job_name in components and components[job_name].index >= 0:
        return components[job_name]
    bearing = [c for c in components.values() if c.index >= 0 and c.has_spec and not c.multi_instance]
    return bearing[0] if len(bearing) == 1 else None


def _replicated_jobs(runtime: Any) -> list[Any]:
    jobs = get(runtime, "spec", "template", "spec", "replicatedJobs")
    return jobs if isinstance(jobs, list) else []


def _trainer_job(runtime: dict[str, Any]) -> dict[str, Any] | None:
    jobs = [j for j in _replicated_jobs(runtime) if isinstance(j, dict)]
    for job in jobs:
        if get(job, "template", "metadata", "labels", ANCESTOR_LABEL) == "trainer":
            return job
    return next((j for j in jobs if j.get("name") == TRAINER_CONTAINER), None)


def _count(value: Json) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31 else None


def _trainjob(obj: dict[str, Any], components: dict[str, ComponentNode], references: References) -> Resolved:
    done = Resolved()
    ref = get(obj, "spec", "runtimeRef")
    name = get(ref, "name")
    if not isinstance(name, str) or not name:
        return done
    kind = get(ref, "kind") or "ClusterTrainingRuntime"
    group = get(ref, "apiGroup") or TRAINER_GROUP
    namespace = get(obj, "metadata", "namespace") or "default"
    found = references.find(group, kind, name, namespace if kind == "TrainingRuntime" else None)
    trainer = get(obj, "spec", "trainer")
    trainer = trainer if isinstance(trainer, dict) else {}
    job = _trainer_job(found[0]) if found else None
    target = _trainer_component(components, str(job.get("name")) if job else TRAINER_CONTAINER)
    if target is None or not target.instances:
        return done
    if found is None:
        done.notes.append(
            f"the pods of {target.name} come from {kind} {name}, which is not in the input (pass it with "
            "--with FILE): per-pod resources show only the TrainJob's own overrides"
            + ("" if "numNodes" in trainer else ", and numNodes the runtime sets is not known (1 assumed)")
        )
        return done
    runtime, origin = found
    if job is None:
        done.notes.append(f"{kind} {name} ({origin}) has no trainer replicated job (node): pods not resolved")
        return done
    template = get(job, "template", "spec", "template")
    template = copy.deepcopy(template) if isinstance(template, dict) else {}
    spec = template["spec"] if isinstance(template.get("spec"), dict) else {}
    containers = [c for c in spec.get("containers") or [] if isinstance(c, dict)]
    main = next((c for c in containers if c.get("name") == TRAINER_CONTAINER), None)
    main = main or (containers[0] if containers else None)
    if main is not None:
        if isinstance(trainer.get("image"), str):
            main["image"] = trainer["image"]
        if isinstance(trainer.get("resourcesPerNode"), dict):
            main["resources"] = trainer["resourcesPerNode"]
    built, problems = pod_template(template.get("metadata"), spec)
    done.problems.extend(problems)
    nodes = _count(trainer.get("numNodes"))
    from_runtime = _count(get(runtime, "spec", "mlPolicy", "numNodes"))
    inst = target.instances[0]
    inst.template = built
    read = inst.effective_replicas  # what the definition's own scale path gave
    if nodes is None and from_runtime is not None:
        inst.replicas = from_runtime
    count = inst.effective_replicas
    source = "the TrainJob's numNodes" if nodes is not None else (
        "the runtime's mlPolicy.numNodes" if from_runtime is not None else "the definition"
    )
    platform = f" (a platform reading the definition counts {read})" if read != count else ""
    done.notes.append(
        f"the pods of {target.name} come from {kind} {name} ({origin}), replicated job {job.get('name')}: "
        f"{count} node(s) from {source}{platform}, with the TrainJob's image and resourcesPerNode applied"
    )
    others = [str(j.get("name")) for j in _replicated_jobs(runtime) if isinstance(j, dict) and j is not job]
    if others:
        done.notes.append(
            f"{kind} {name} also runs {', '.join(others)}, which this definition does not count as components"
        )
    return done
