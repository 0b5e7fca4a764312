"""Example definitions shared by rule documentation: small, real-looking, and valid."""

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


def job_with(old: str, new: str) -> str:
    """The Job example with one piece of text replaced (the replaced text must be present)."""
    if old not in JOB:
        raise ValueError(f"{old!r} is not in the Job example")
    return JOB.replace(old, new, 1)


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
