"""WM708 fragment-misaligned: a fragmentedPodSpecDefinition field yields fewer outputs than the other
fragments."""

from __future__ import annotations

from wmaplint.diagnostics import define
from wmaplint.resolve.findings import FragmentMisaligned
from wmaplint.rules import reports

_FRAGMENTS = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: example-com-service-v1}
spec:
  structureDefinition:
    rootComponent:
      name: service
      kind: {group: example.com, version: v1, kind: Service}
      statusDefinition: {statusMappings: {running: [{}]}}
    childComponents:
    - name: part
      ownerRef: service
      instanceIdPath: .spec.parts[].name
      specDefinition:
        fragmentedPodSpecDefinition:
          containerPath: '.spec.parts[] | .containers[] | select(.name == "main")'
          labelsPath: '.spec.parts[] | (.labels // {})'
      podSelector: {componentInstanceSelector: {idPath: .metadata.labels.part}}
---
apiVersion: example.com/v1
kind: Service
metadata: {name: demo}
spec:
  parts:
  - {name: a, containers: [{name: sidecar}]}
  - {name: b, containers: [{name: main}]}
"""

RULE = define(
    "WM708",
    "fragment-misaligned",
    "warning",
    "A fragmentedPodSpecDefinition field yields fewer outputs than the other fragments.",
    why="Fragments are merged by index without any check, so a missing value shifts every later instance "
    "onto the wrong resources or containers.",
    bad=_FRAGMENTS,
    good=_FRAGMENTS.replace(
        "containerPath: '.spec.parts[] | .containers[] | select(.name == \"main\")'",
        "containersPath: '.spec.parts[] | .containers'",
    ),
    fix="Yield one value per instance: `.spec.parts[] | (first(.containers[] | select(...)) // null)`.",
    example_mode="tree",
)


@reports(RULE, FragmentMisaligned)
def message(finding: FragmentMisaligned) -> str:
    return (
        f"{finding.field} of {finding.component} gives {finding.outputs} output(s) while other fragments "
        f"give {finding.width}; fragments merge by index, so later instances get the wrong values"
    )
