"""WM713 pod-claimed-twice: a pod matches the componentTypeSelector of more than one leaf component."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import PodClaimedTwice
from wmaplint.rules import reports

_CLAIMED_TWICE = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: kubeflow-org-pytorchjob-v1}
spec:
  structureDefinition:
    rootComponent:
      name: pytorchjob
      kind: {group: kubeflow.org, version: v1, kind: PyTorchJob}
      statusDefinition: {statusMappings: {running: [{}]}}
    childComponents:
    - name: master
      ownerRef: pytorchjob
      specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Master.template}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]'}
    - name: worker
      ownerRef: pytorchjob
      specDefinition: {podTemplateSpecPath: .spec.pytorchReplicaSpecs.Worker.template}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]'}
---
apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: mnist}
spec:
  pytorchReplicaSpecs:
    Master: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: mnist}]}}}
    Worker: {replicas: 1, template: {spec: {containers: [{name: pytorch, image: mnist}]}}}
---
apiVersion: v1
kind: Pod
metadata:
  name: mnist-worker-0
  labels: {training.kubeflow.org/job-name: mnist, training.kubeflow.org/replica-type: worker}
  ownerReferences: [{apiVersion: kubeflow.org/v1, kind: PyTorchJob, name: mnist, uid: u1, controller: true}]
spec: {containers: [{name: pytorch, image: mnist}]}
"""
_REPLICA_TYPE_KEY = """'.metadata.labels["training.kubeflow.org/replica-type"]'"""
_REPLICA_TYPE_SELECTOR = f"        componentTypeSelector: {{keyPath: {_REPLICA_TYPE_KEY}}}\n"


def _with_selector_values(text: str, *values: str) -> str:
    """The example with each replica-type selector, in order, compared with a value."""
    for value in values:
        text = text.replace(
            _REPLICA_TYPE_SELECTOR,
            "        componentTypeSelector:\n"
            f"          {{keyPath: {_REPLICA_TYPE_KEY}, value: {value}}}\n",
            1,
        )
    return text


RULE = define(
    "WM713",
    "pod-claimed-twice",
    "warning",
    "A pod matches the componentTypeSelector of more than one leaf component.",
    why="KAI's pod grouper takes the first matching leaf in definition order, root first (FORMAT.md §2.7), "
    "while kli describe lists the pod under every component whose selector matches it, counting it twice; "
    "either way some view of the workload is wrong.",
    bad=_CLAIMED_TWICE,
    good=_with_selector_values(_CLAIMED_TWICE, "master", "worker"),
    fix="Compare the selector with a value (`value: worker`) so that each pod matches one component.",
    example_mode="tree",
)


@reports(RULE, PodClaimedTwice)
def message(finding: PodClaimedTwice) -> str:
    return (
        f"pod {finding.pod} matches the componentTypeSelector of {', '.join(finding.claimed_by)}; KAI takes "
        f"{finding.claimed_by[0]}, and kli describe lists it under each"
    )
