"""Example documents of the rule documentation: small, real-looking, valid definitions that each rule's
failing and passing examples are made from (``job_with``: the Job example with one piece of text replaced),
and a CRD and a rule pack for the rules on those documents."""

from __future__ import annotations

JOB = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: batch-job-v1}
spec:
  structureDefinition:
    rootComponent:
      name: job
      kind: {group: batch, version: v1, kind: Job}
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: '.spec.parallelism // 1'}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          running: [{byExpression: {expression: '(.status.active // 0) > 0', expectedResult: "true"}}]
          completed: [{byConditions: [{type: Complete, status: "True"}]}]
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
"""


def _replace(base: str, old: str, new: str) -> str:
    if old not in base:
        raise ValueError(f"{old!r} is not in the example")
    return base.replace(old, new, 1)


def job_with(old: str, new: str) -> str:
    """The Job example with one piece of text replaced (the replaced text must be present)."""
    return _replace(JOB, old, new)


WORKER_CHILD = """\
    childComponents:
    - name: worker
      kind: {group: "", version: v1, kind: Pod}
      ownerRef: job
      specDefinition: {podTemplateSpecPath: .spec.template}
"""


def job_with_child(child: str = WORKER_CHILD) -> str:
    """The Job example with child components (``child``: the ``childComponents`` block) before its root."""
    return JOB.replace("    rootComponent:", child + "    rootComponent:", 1)


CHILD_JOB = """\
    - name: {name}
      ownerRef: job
      kind: {{group: batch, version: v1, kind: Job}}
      specDefinition: {{podTemplateSpecPath: .spec.template}}
"""


def job_with_children(count: int, *, scaled: bool = True, selected: bool = True) -> str:
    """The Job example with its pods moved into ``count`` child Jobs, all in one gang: each child scaled and
    with a pod selector, or (for scaling tests and benchmarks) without either."""
    parts = [job_with("      specDefinition: {podTemplateSpecPath: .spec.template}\n", "")]
    parts.append("    childComponents:\n")
    for i in range(count):
        parts.append(CHILD_JOB.format(name=f"c{i}"))
        if scaled:
            parts.append("      scaleDefinition: {replicasPath: '.spec.parallelism // 1'}\n")
        if selected:
            selector = f"{{keyPath: .metadata.labels.c{i}}}"
            parts.append(f"      podSelector:\n        componentTypeSelector: {selector}\n")
    parts.append("  optimizationInstructions:\n    gangScheduling:\n      podGroups:\n      - name: all\n")
    parts.append("        members:\n")
    parts.extend(f"        - componentName: c{i}\n" for i in range(count))
    return "".join(parts)


POD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: core-pod-v1}
spec:
  structureDefinition:
    rootComponent:
      name: pod
      kind: {group: "", version: v1, kind: Pod}
      specDefinition: {podTemplateSpecPath: .}
      scaleDefinition: {replicasPath: '1'}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings:
          initializing: [{byPhase: Pending}]
          running: [{byPhase: Running}]
          completed: [{byPhase: Succeeded}]
          failed: [{byPhase: Failed}]
"""


JOBSET = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: jobset-x-k8s-io-jobset-v1alpha2}
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          completed: [{byConditions: [{type: Completed, status: "True"}]}]
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: '.spec.replicatedJobs[]?.name'
      specDefinition: {podTemplateSpecPath: '.spec.replicatedJobs[]?.template.spec.template'}
      scaleDefinition: {replicasPath: '.spec.replicatedJobs[]? | (.template.spec.parallelism // 1)'}
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'}
"""

MPIJOB = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: kubeflow-org-mpijob-v2beta1}
spec:
  structureDefinition:
    rootComponent:
      name: mpijob
      kind: {group: kubeflow.org, version: v2beta1, kind: MPIJob}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          completed: [{byConditions: [{type: Succeeded, status: "True"}]}]
    childComponents:
    - name: worker
      kind: {group: "", version: v1, kind: Pod}
      ownerRef: mpijob
      specDefinition: {podTemplateSpecPath: '.spec.mpiReplicaSpecs.Worker.template'}
      scaleDefinition: {replicasPath: '.spec.mpiReplicaSpecs.Worker.replicas // 1'}
      podSelector:
        componentTypeSelector:
          keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]'
          value: worker
"""


RAYJOB = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: ray-io-rayjob-v1}
spec:
  structureDefinition:
    rootComponent:
      name: rayjob
      kind: {group: ray.io, version: v1, kind: RayJob}
      statusDefinition:
        phaseDefinition: {path: .status.jobStatus}
        statusMappings:
          initializing: [{byPhase: PENDING}]
          running: [{byPhase: RUNNING}]
          completed: [{byPhase: SUCCEEDED}]
          failed: [{byPhase: FAILED}]
    childComponents:
    - name: head
      kind: {group: "", version: v1, kind: Pod}
      ownerRef: rayjob
      specDefinition: {podTemplateSpecPath: .spec.rayClusterSpec.headGroupSpec.template}
      scaleDefinition: {replicasPath: '"1"'}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["ray.io/node-type"]', value: head}
    - name: worker
      kind: {group: "", version: v1, kind: Pod}
      ownerRef: rayjob
      instanceIdPath: '.spec.rayClusterSpec.workerGroupSpecs[]?.groupName'
      specDefinition: {podTemplateSpecPath: '.spec.rayClusterSpec.workerGroupSpecs[]?.template'}
      scaleDefinition: {replicasPath: '.spec.rayClusterSpec.workerGroupSpecs[]?.replicas'}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["ray.io/node-type"]', value: worker}
        componentInstanceSelector: {idPath: '.metadata.labels["ray.io/group"]'}
"""


def rayjob_with(old: str, new: str) -> str:
    return _replace(RAYJOB, old, new)


def jobset_with(old: str, new: str) -> str:
    return _replace(JOBSET, old, new)


def mpijob_with(old: str, new: str) -> str:
    return _replace(MPIJOB, old, new)


JOB_SUSPENDABLE = job_with(
    "      statusDefinition:",
    "      suspendDefinition:\n"
    '        suspendActions: [{path: .spec.suspend, value: "true"}]\n'
    '        resumeActions: [{path: .spec.suspend, value: "false"}]\n'
    "      statusDefinition:",
)

PYTORCHJOB = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: kubeflow-org-pytorchjob-v1}
spec:
  structureDefinition:
    rootComponent:
      name: pytorchjob
      kind: {group: kubeflow.org, version: v1, kind: PyTorchJob}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          initializing: [{byConditions: [{type: Created, status: "True"}, {type: Running, status: "False"}]}]
          running: [{byConditions: [{type: Running, status: "True"}]}]
          completed: [{byConditions: [{type: Succeeded, status: "True"}]}]
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
    childComponents:
      - name: worker
        kind: {group: "", version: v1, kind: Pod}
        ownerRef: pytorchjob
        specDefinition: {podTemplateSpecPath: '.spec.pytorchReplicaSpecs.Worker.template'}
        scaleDefinition: {replicasPath: '.spec.pytorchReplicaSpecs.Worker.replicas // 1'}
        podSelector:
          componentTypeSelector:
            keyPath: '.metadata.labels["training.kubeflow.org/replica-type"]'
            value: worker
"""

# A workload the bundled knowledge does not describe: nothing says which conditions exclude each other.
# Tests give it other mappings through custom_definition().
CUSTOM_HEAD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: example-com-trainingrun-v1}
spec:
  structureDefinition:
    rootComponent:
      name: run
      kind: {group: example.com, version: v1, kind: TrainingRun}
      specDefinition: {podTemplateSpecPath: .spec.template}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
"""


def custom_definition(mappings: str) -> str:
    """The TrainingRun definition with these statusMappings lines (indented ten spaces)."""
    return CUSTOM_HEAD + mappings


CUSTOM = custom_definition("""\
          initializing: [{byConditions: [{type: Started, status: "False"}]}]
          running: [{byConditions: [{type: Started, status: "True"}, {type: Finished, status: "False"}]}]
          completed: [{byConditions: [{type: Finished, status: "True"}, {type: Succeeded, status: "True"}]}]
          failed: [{byConditions: [{type: Finished, status: "True"}, {type: Succeeded, status: "False"}]}]
""")


# A CRD whose spec declares two integers; crd_with() adds validation rules (and properties) to the spec.
CRD_HEAD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              minReplicas: {type: integer}
"""


def crd_with(validation: str, extra_properties: str = "") -> str:
    """The Widget CRD with more spec properties (indented fourteen spaces) and these validation rule lines
    (``x-kubernetes-validations`` entries, indented twelve spaces)."""
    return CRD_HEAD + extra_properties + "            x-kubernetes-validations:\n" + validation


PACK = """\
apiVersion: wmaplint.dev/v1
kind: RulePack
metadata: {name: acme}
rules:
  - id: ACME001
    name: root-has-status
    severity: warning
    message: the root component should say how to read its status
    docs: Without a status definition the platform cannot tell a running workload from a failed one.
    given: $.spec.structureDefinition.rootComponent
    assert: has(self.statusDefinition)
"""


def pack_with(old: str, new: str) -> str:
    """The rule pack example with one piece of text replaced (the replaced text must be present)."""
    return _replace(PACK, old, new)


# -- resolution: a definition followed by manifests (and pods), the examples of mode ``tree`` --------------

# The JobSet definition without its scale path (``jobset_tree`` adds one), then the manifest it resolves.
JOBSET_TREE_HEAD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: jobset-x-k8s-io-jobset-v1alpha2}
spec:
  structureDefinition:
    rootComponent:
      name: jobset
      kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions}
        statusMappings:
          completed: [{byConditions: [{type: Completed, status: "True"}]}]
    childComponents:
    - name: replicatedjob
      kind: {group: batch, version: v1, kind: Job}
      ownerRef: jobset
      instanceIdPath: .spec.replicatedJobs[].name
      specDefinition: {podTemplateSpecPath: '.spec.replicatedJobs[].template.spec.template'}
"""
JOBSET_MANIFEST = """\
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: train}
spec:
  replicatedJobs:
  - name: leader
    template: {spec: {template: {spec: {containers: [{name: main, image: trainer}]}}}}
  - name: workers
    replicas: 2
    template: {spec: {parallelism: 1, template: {spec: {containers: [{name: main, image: trainer}]}}}}
"""
JOBSET_SCALE = ".spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1)"


def jobset_tree(scale: str = JOBSET_SCALE, manifest: str = JOBSET_MANIFEST) -> str:
    """The JobSet definition with ``scale`` as the replicated jobs' replicasPath, then ``manifest``."""
    return JOBSET_TREE_HEAD + f"      scaleDefinition: {{replicasPath: '{scale}'}}\n" + manifest


# Pod selectors of the replicated jobs, and a pod of the workers job they claim.
JOBSET_SELECTOR = """\
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["jobset.sigs.k8s.io/jobset-name"]'}
        componentInstanceSelector: {idPath: '.metadata.labels["jobset.sigs.k8s.io/replicatedjob-name"]'}
"""
JOBSET_POD = """\
---
apiVersion: v1
kind: Pod
metadata:
  name: train-workers-0-0
  labels: {jobset.sigs.k8s.io/jobset-name: train, jobset.sigs.k8s.io/replicatedjob-name: workers}
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: train-workers-0, uid: u1, controller: true}]
spec: {containers: [{name: main, image: trainer}]}
"""


# Every pod of the JobSet manifest: the leader and the two workers (JOBSET_POD is the first worker).
JOBSET_PODS = (
    JOBSET_POD.replace("train-workers-0-0", "train-leader-0-0").replace("name: workers", "name: leader")
    + JOBSET_POD
    + JOBSET_POD.replace("train-workers-0-0", "train-workers-1-0")
)


def jobset_tree_with_pods(selector: str = JOBSET_SELECTOR, pod: str = JOBSET_PODS) -> str:
    """The scaled JobSet definition with pod selectors, the manifest, and its pods (by default all)."""
    return (JOBSET_TREE_HEAD + f"      scaleDefinition: {{replicasPath: '{JOBSET_SCALE}'}}\n" + selector
            + JOBSET_MANIFEST + pod)


# -- definition test suites: the examples of mode ``test`` ------------------------------------------------

_SUITE = """\
definition:
  apiVersion: run.ai/v1alpha1
  kind: Karta
  metadata: {name: batch-job-v1}
  spec:
    structureDefinition:
      rootComponent:
        name: job
        kind: {group: batch, version: v1, kind: Job}
        specDefinition: {podTemplateSpecPath: .spec.template}
        scaleDefinition: {replicasPath: '.spec.parallelism // 1'}
        statusDefinition:
          conditionsDefinition: {path: .status.conditions}
          statusMappings:
            completed: [{byConditions: [{type: Complete, status: "True"}]}]
cases:
- name: two pods with one GPU each
  manifest:
    apiVersion: batch/v1
    kind: Job
    metadata: {name: pi}
    spec:
      parallelism: 2
      template: {spec: {containers: [{name: pi, image: perl, resources: {limits: {nvidia.com/gpu: 1}}}]}}
  expect:
    totals: {pods: %d, gpus: 2}
    status: Undefined
"""


def suite(pods: int = 2) -> str:
    """A suite of one case that passes when it expects ``pods`` 2."""
    return _SUITE % pods


# -- the pods a controller creates: an MPIJob (kubeflow/mpi-operator v2beta1) and the definition's selectors -

MPIJOB_TREE = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: kubeflow-org-mpijob-v2beta1}
spec:
  structureDefinition:
    rootComponent:
      name: mpijob
      kind: {group: kubeflow.org, version: v2beta1, kind: MPIJob}
    childComponents:
    - name: launcher
      ownerRef: mpijob
      kind: {group: batch, version: v1, kind: Job}
      specDefinition: {podTemplateSpecPath: .spec.mpiReplicaSpecs.Launcher.template}
      podSelector:
        componentTypeSelector:
          {keyPath: '.metadata.labels["training.kubeflow.org/job-role"]', value: launcher}
    - name: worker
      ownerRef: mpijob
      kind: {group: "", version: v1, kind: Pod}
      specDefinition: {podTemplateSpecPath: .spec.mpiReplicaSpecs.Worker.template}
      scaleDefinition: {replicasPath: .spec.mpiReplicaSpecs.Worker.replicas // 1}
      podSelector:
        componentTypeSelector: {keyPath: '.metadata.labels["training.kubeflow.org/job-role"]', value: worker}
"""
MPIJOB_GANG = """\
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: job
        members:
        - {componentName: launcher, groupByKeyPaths: ['%s']}
        - {componentName: worker, groupByKeyPaths: ['%s']}
"""
MPIJOB_MANIFEST = """\
---
apiVersion: kubeflow.org/v2beta1
kind: MPIJob
metadata: {name: pi}
spec:
  mpiReplicaSpecs:
    Launcher:
      template: {spec: {containers: [{name: launcher, image: mpi-pi}]}}
    Worker:
      replicas: 2
      template: {spec: {containers: [{name: worker, image: mpi, resources: {limits: {nvidia.com/gpu: 1}}}]}}
"""


def mpijob_tree(old: str = "", new: str = "", gang_key: str | None = None) -> str:
    """The MPIJob definition (``old`` replaced by ``new``), a gang keyed by ``gang_key``, the manifest."""
    definition = _replace(MPIJOB_TREE, old, new) if old else MPIJOB_TREE
    gang = MPIJOB_GANG % (gang_key, gang_key) if gang_key is not None else ""
    return definition + gang + MPIJOB_MANIFEST


# -- a workload of a kind KAI has no grouper of its own for: its Karta grouper reads the definition's gang --
# (the PyFlow of kai-scheduler/KAI-Scheduler's grouper_test.go: one master, two workers, a role label)

PYFLOW_TREE = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: pyflow}
spec:
  structureDefinition:
    rootComponent:
      name: pyflow
      kind: {group: jobs.example.com, version: v1, kind: PyFlow}
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        statusMappings: {running: [{byPhase: Running}]}
    childComponents:
    - name: master
      ownerRef: pyflow
      specDefinition: {podTemplateSpecPath: .spec.master.template}
      scaleDefinition: {replicasPath: .spec.master.replicas}
      podSelector: {componentTypeSelector: {keyPath: .metadata.labels.role, value: master}}
    - name: worker
      ownerRef: pyflow
      specDefinition: {podTemplateSpecPath: .spec.worker.template}
      scaleDefinition: {replicasPath: .spec.worker.replicas}
      podSelector: {componentTypeSelector: {keyPath: .metadata.labels.role, value: worker}}
  optimizationInstructions:
    gangScheduling:
"""
PYFLOW_MANIFEST = """\
---
apiVersion: jobs.example.com/v1
kind: PyFlow
metadata: {name: pyflow-example, uid: a1b2c3d4-e5f6-7890-abcd-ef1234567890}
spec:
  master:
    replicas: 1
    template:
      metadata: {labels: {role: master, job-name: pyflow-example}}
      spec: {containers: [{name: main, image: pyflow}]}
  worker:
    replicas: 2
    template:
      metadata: {labels: {role: worker, job-name: pyflow-example}}
      spec: {containers: [{name: main, image: pyflow}]}
"""
# the whole PyFlow as one gang: every pod takes the root, whose subtree scale is 1 + 2
PYFLOW_GANG = """\
      podGroups:
      - name: job
        members:
        - {componentName: pyflow}
"""


def pyflow_tree(gang: str = PYFLOW_GANG, old: str = "", new: str = "") -> str:
    """The PyFlow definition with ``gang`` under gangScheduling (``old`` replaced by ``new``), then the
    manifest."""
    definition = _replace(PYFLOW_TREE, old, new) if old else PYFLOW_TREE
    return definition + gang + PYFLOW_MANIFEST
