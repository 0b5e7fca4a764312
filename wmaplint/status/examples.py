"""Example definitions for the status mapping rules' documentation (small, real-looking, valid)."""

from wmaplint.examples import POD, job_with

__all__ = [
    "CUSTOM", "CUSTOM_HEAD", "JOB_SUSPENDABLE", "JOB_WITH_INITIALIZING", "POD", "PYTORCHJOB",
    "custom_definition",
]

JOB_SUSPENDABLE = job_with(
    "      statusDefinition:",
    "      suspendDefinition:\n"
    '        suspendActions: [{path: .spec.suspend, value: "true"}]\n'
    '        resumeActions: [{path: .spec.suspend, value: "false"}]\n'
    "      statusDefinition:",
)

JOB_WITH_INITIALIZING = job_with(
    "          completed:",
    "          initializing: "
    "[{byExpression: {expression: '(.status.ready // 0) == 0', expectedResult: \"true\"}}]\n"
    "          completed:",
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
