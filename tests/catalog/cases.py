"""Expected outcomes for the catalog examples, and the pod labels each framework's controller adds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# (definition name, example file stem) -> what the definition must yield on that manifest.
#   replicas: component -> replicas per instance (in instance order)
#   ids:      component -> instance ids (only for multi-instance components)
#   status:   every status key whose matchers match, in runtime order
#   pods/gpus: totals over all pod-bearing components (replicas x per-pod nvidia.com/gpu)
EXPECTED: dict[tuple[str, str], dict[str, Any]] = {
    ("jobset-x-k8s-io-jobset-v1alpha2", "leader-workers-gpu"): {
        "ids": {"replicatedjob": ["leader", "worker"]},
        "replicas": {"replicatedjob": [1, 2]},
        "status": ["running"],
        "pods": 3,
        "gpus": 12,
    },
    ("jobset-x-k8s-io-jobset-v1alpha2", "multislice-suspended"): {
        "ids": {"replicatedjob": ["slice", "driver"]},
        "replicas": {"replicatedjob": [8, 1]},
        "status": ["suspended"],
        "pods": 9,
        "gpus": 64,
    },
}

LabelFn = Callable[[str, str, dict[str, Any], int], dict[str, str]]


def _jobset(component: str, instance: str, obj: dict[str, Any], index: int) -> dict[str, str]:
    name = obj["metadata"]["name"]
    return {
        "jobset.sigs.k8s.io/jobset-name": name,
        "jobset.sigs.k8s.io/replicatedjob-name": instance,
        "jobset.sigs.k8s.io/job-index": "0",
        "jobset.sigs.k8s.io/job-key": f"{name}-{instance}-0",
        "jobset.sigs.k8s.io/restart-attempt": "0",
        "batch.kubernetes.io/job-name": f"{name}-{instance}-0",
        "batch.kubernetes.io/job-completion-index": str(index),
    }


# definition name -> labels the framework's controller puts on a pod of (component, instance id, replica index)
CONTROLLER_LABELS: dict[str, LabelFn] = {
    "jobset-x-k8s-io-jobset-v1alpha2": _jobset,
}
