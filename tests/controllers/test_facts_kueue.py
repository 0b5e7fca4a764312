"""Facts of the Kueue controller model (schemas/controllers/kueue.yaml), each shown on a real catalog
definition, example or recorded object: the outcome that changed with the fact. Kueue v0.19.2: PodsReady is
Started or Recovered when True; two condition types the list lacked; a Workload suspends through
spec.active."""

from __future__ import annotations

from wmaplint.engine import lint_text

from .helpers import (
    findings,
    vary,
)

WORKLOAD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata:
  name: kueue-x-k8s-io-workload-v1beta2
spec:
  structureDefinition:
    rootComponent:
      name: workload
      kind: {group: kueue.x-k8s.io, version: v1beta2, kind: Workload}
      suspendDefinition:
        suspendActions:
          - {path: .spec.active, value: "false"}
        resumeActions:
          - {path: .spec.active, value: "true"}
      statusDefinition:
        conditionsDefinition:
          path: .status.conditions
          typeFieldName: type
          statusFieldName: status
          reasonFieldName: reason
        statusMappings:
          completed:
            - byConditions: [{type: Finished, status: "True", reason: Succeeded}]
          failed:
            - byConditions: [{type: Finished, status: "True", reason: Failed}]
          suspended:
            - byConditions: [{type: Evicted, status: "True", reason: Deactivated}]
          running:
            - byConditions: [{type: PodsReady, status: "True", reason: Started}]
              byExpression:
                expression: any(.status.conditions[]?; .type == "Finished" and .status == "True") | not
                expectedResult: "true"
          initializing:
            - byExpression:
                expression: >-
                  any(.status.conditions[]?; .type == "Admitted" and .status == "True")
                expectedResult: "true"
"""


def test_a_workload_definition_as_kueue_writes_it_has_no_status_finding() -> None:
    found = lint_text(WORKLOAD, "workload.yaml")
    assert [d.message for d in found if d.rule.startswith(("WM4", "WM5"))] == []


def test_a_misspelled_pods_ready_reason() -> None:
    text = vary(WORKLOAD, "reason: Started}", "reason: Recoverd}")
    [d] = findings(text, "WM423")
    assert "'Recovered'" in d.message


def test_a_workload_expression_on_a_condition_type_of_v0_19() -> None:
    old = '.type == "Admitted" and'
    assert findings(vary(WORKLOAD, old, '.type == "WaitingForReplacementPods" and'), "WM440") == []
    assert findings(vary(WORKLOAD, old, '.type == "BlockedOnPreemptionGates" and'), "WM440") == []
    [d] = findings(vary(WORKLOAD, old, '.type == "Admited" and'), "WM440")
    assert "Admitted" in d.message


def test_a_workload_suspend_writing_the_resume_value() -> None:
    # the values of a suspend switch swapped: spec.active is true while the workload may run
    action = '{path: .spec.active, value: "%s"}'
    swapped = vary(WORKLOAD, action % "false", action % "<resume>")
    swapped = vary(swapped, action % "true", action % "false")
    suspend, resume = findings(swapped.replace("<resume>", "true"), "WM535")
    assert "suspends on false and resumes on true" in suspend.message
    assert "this resume action writes false to .spec.active" in resume.message
