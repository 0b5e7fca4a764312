"""Knowledge of what controllers write: condition types, phases (bundled and from CRD enums), statuses."""

from __future__ import annotations

import pytest

from wmaplint.controllers import load_model, model_for
from wmaplint.fixes import apply_edits
from wmaplint.schema import default_store
from wmaplint.schema.bundle import shipped_bundle
from wmaplint.status.knowledge import phase_values, schema_enum

from .helpers import catalog_text, only, status_findings, vary

PYTORCH = catalog_text("kubeflow-org-pytorchjob-v1.yaml")
RAYJOB = catalog_text("ray-io-rayjob-v1.yaml")
JOB = catalog_text("batch-job-v1.yaml")


def test_misspelt_condition_type_gets_a_suggestion_and_fix() -> None:
    text = vary(PYTORCH, '[{type: Succeeded, status: "True"}]', '[{type: Succeded, status: "True"}]')
    [d] = only(status_findings(text), "WM420")
    assert "'Succeded'" in d.message and "did you mean 'Succeeded'?" in d.message
    assert "kubeflow.org/v1/PyTorchJob" in d.message
    assert apply_edits(text, list(d.fixes[0].edits)) == vary(text, "Succeded", "Succeeded")
    line = text.splitlines()[d.span.start_line - 1]
    assert line[d.span.start_col - 1 : d.span.end_col - 1] == "Succeded"


def test_condition_type_of_another_framework() -> None:
    # "Complete" is the batch Job's type; the training operator says "Succeeded".
    text = vary(PYTORCH, '[{type: Succeeded, status: "True"}]', '[{type: Complete, status: "True"}]')
    [d] = only(status_findings(text), "WM420")
    assert "never set by kubeflow.org/v1/PyTorchJob" in d.message and "Succeeded" in d.message


def test_kind_without_conditions() -> None:
    text = vary(
        RAYJOB,
        "          running:\n            - byPhase: Running\n",
        '          running:\n            - byConditions: [{type: Ready, status: "True"}]\n',
    )
    text = vary(
        text,
        "        phaseDefinition:",
        "        conditionsDefinition: {path: .status.conditions, "
        "typeFieldName: type, statusFieldName: status}\n        phaseDefinition:",
    )
    [d] = only(status_findings(text), "WM420")
    assert "has no conditions" in d.message


def test_non_exhaustive_kind_reports_only_near_misses() -> None:
    text = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: dgd}
spec:
  structureDefinition:
    rootComponent:
      name: graph
      kind: {group: nvidia.com, version: v1alpha1, kind: DynamoGraphDeployment}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          initializing:
            - byConditions: [{type: PresetsCombined, status: "True"}, {type: Ready, status: "False"}]
          running: [{byConditions: [{type: Ready, status: "True"}, {type: GatewayAttached, status: "True"}]}]
          failed: [{byConditions: [{type: Redy, status: "False"}]}]
"""
    found = only(status_findings(text), "WM420")
    assert [d.message.split("'")[1] for d in found] == ["Redy"]


def test_phase_typo_in_by_phase() -> None:
    text = vary(RAYJOB, "            - byPhase: Running\n", "            - byPhase: running\n")
    [d] = only(status_findings(text), "WM421")
    assert "did you mean 'Running'?" in d.message and "JobDeploymentStatus" in d.message
    assert apply_edits(text, list(d.fixes[0].edits)) == RAYJOB


def test_phase_compared_in_an_expression() -> None:
    text = vary(
        RAYJOB,
        "          running:\n            - byPhase: Running\n",
        "          running:\n            - byExpression:\n                expression: "
        '.status.jobDeploymentStatus == "Runing"\n                expectedResult: "true"\n',
    )
    [d] = only(status_findings(text), "WM421")
    assert "'Runing'" in d.message and "did you mean 'Running'?" in d.message


def test_catalog_rayjob_phases_are_known() -> None:
    assert only(status_findings(RAYJOB), "WM421") == []


def test_phase_enum_from_the_crd_schema() -> None:
    # .status.rollingUpdate.phase is not in the bundled knowledge; its enum comes from the CRD.
    text = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: dgd-rollout}
spec:
  structureDefinition:
    rootComponent:
      name: dgd
      kind: {group: nvidia.com, version: v1beta1, kind: DynamoGraphDeployment}
      statusDefinition:
        phaseDefinition: {path: .status.rollingUpdate.phase}
        statusMappings:
          initializing: [{byPhase: Pending}]
          running: [{byPhase: InProgress}]
          failed: [{byPhase: Failed}]
          degraded: [{byPhase: Complete}]
"""
    [d] = only(status_findings(text), "WM421")
    assert "'Complete'" in d.message and "did you mean 'Completed'?" in d.message
    assert "CRD schema's enum" in d.message


def test_schema_enum_reads_real_crds() -> None:
    store = default_store([])  # the bundled CRDs
    resolved = store.lookup("nvidia.com", "v1beta1", "DynamoGraphDeployment")[0]
    assert set(schema_enum(resolved.type, ".status.state")) == {
        "initializing",
        "pending",
        "successful",
        "failed",
    }
    assert schema_enum(resolved.type, ".status.nope") == ()
    assert schema_enum(resolved.type, ".status.components[]") == ()


def _kinds():
    """Each kind and version of the shipped model, with its status facts."""
    return [(kind, version) for kind in load_model().kinds if kind.status is not None
            for version in kind.versions]


def test_bundled_phases_agree_with_crd_enums() -> None:
    store = default_store([])  # the bundled CRDs
    checked = 0
    for kind, version in _kinds():
        assert kind.status is not None
        for resolved in store.lookup(kind.group, version, kind.kind):
            for path, phase in kind.status.phases.items():
                enum = schema_enum(resolved.type, path)
                if enum:
                    checked += 1
                    assert set(enum) <= set(phase.values), (kind.gvk(version), path)
    assert checked >= 3


@pytest.mark.parametrize(
    "written, suggestion", [("true", "True"), ("false", "False"), ("unknown", "Unknown")]
)
def test_condition_status_case_matters(written: str, suggestion: str) -> None:
    text = vary(JOB, '[{type: Failed, status: "True"}]', f'[{{type: Failed, status: "{written}"}}]')
    [d] = only(status_findings(text), "WM422")
    assert d.severity.label == "error" and "case matters" in d.message
    assert apply_edits(text, list(d.fixes[0].edits)) == vary(text, f'status: "{written}"',
                                                                  f'status: "{suggestion}"')


def test_unquoted_boolean_status() -> None:
    text = vary(JOB, '[{type: Failed, status: "True"}]', "[{type: Failed, status: true}]")
    [d] = only(status_findings(text), "WM422")
    assert "YAML boolean" in d.message
    assert apply_edits(text, list(d.fixes[0].edits)) == vary(text, "status: true", 'status: "True"')


def test_reason_typo_is_info() -> None:
    text = vary(
        JOB, '[{type: Failed, status: "True"}]', '[{type: Failed, status: "True", reason: DeadlineExeeded}]'
    )
    [d] = only(status_findings(text), "WM423")
    assert d.severity.label == "info" and "'DeadlineExceeded'" in d.message


def test_every_framework_crd_is_described() -> None:
    bundle = shipped_bundle()
    assert bundle is not None
    missing = []
    for source in bundle.sources:  # every pinned CRD, as the bundle ships it
        if source.format != "crd":
            continue
        raws = bundle.payload(source)["raws"]
        for group, version, kind in source.gvks:
            props = raws[(group, version, kind)].get("properties", {})
            if "conditions" not in props.get("status", {}).get("properties", {}):
                continue
            found = model_for(group, kind, version)
            if found is None or found.status is None:
                missing.append(f"{group}/{version}/{kind}")
    # Karta itself and the scheduler's PodGroup are not workloads a definition targets.
    assert sorted(set(missing)) == ["run.ai/v1alpha1/Karta", "scheduling.run.ai/v2alpha2/PodGroup"]
    described = {kind.gvk(version) for kind, version in _kinds()}
    for gvk in ("batch/v1/Job", "v1/Pod", "apps/v1/Deployment", "apps/v1/StatefulSet"):
        assert gvk in described


def test_everything_known_has_a_source() -> None:
    for kind, version in _kinds():
        status = kind.status
        assert status is not None and status.source, kind.gvk(version)
        for condition in status.conditions.values():
            assert condition.source, (kind.gvk(version), condition.type)
        for phase in status.phases.values():
            assert phase.source and phase.values, (kind.gvk(version), phase.path)
        for pair in status.exclusive:
            assert set(pair) <= set(status.conditions), (kind.gvk(version), pair)


def test_phase_values_normalise_the_path() -> None:
    rayjob = model_for("ray.io", "RayJob", "v1")
    values, source = phase_values(rayjob, '(.status.jobDeploymentStatus // "")')
    assert "Complete" in values and "ray.io/v1/RayJob" in source


UNKNOWN_TYPE_OVERLAP = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: batch-job-v1}
spec:
  structureDefinition:
    rootComponent:
      name: job
      kind: {group: batch, version: v1, kind: Job}
      specDefinition: {podTemplateSpecPath: .spec.template}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          running:
            - byExpression: {expression: '(.status.active // 0) > 0', expectedResult: "true"}
          completed:
            - byConditions: [{type: Complete, status: "True"}]
          failed:
            - byConditions: [{type: Failed, status: "True"}]
            - byConditions: [{type: Failure, status: "True"}]
"""


def test_a_type_that_never_exists_is_one_finding_with_the_near_miss_as_fix() -> None:
    # failed[1] needs a Failure condition, which a Job never has: it matches no object, so it overlaps
    # nothing (no WM431 about Complete=True and Failure=True); WM420 says it, and offers Failed.
    findings = [d for d in status_findings(UNKNOWN_TYPE_OVERLAP) if d.rule != "WM414"]
    assert [d.rule for d in findings] == ["WM420"]
    [d] = findings
    assert "'Failure'" in d.message and "did you mean 'Failed'?" in d.message
    fixed = apply_edits(UNKNOWN_TYPE_OVERLAP, list(d.fixes[0].edits))
    assert fixed == vary(UNKNOWN_TYPE_OVERLAP, "{type: Failure, ", "{type: Failed, ")


def test_a_known_type_still_overlaps() -> None:
    text = vary(UNKNOWN_TYPE_OVERLAP, "{type: Failure, ", "{type: Suspended, ")
    assert [d.rule for d in status_findings(text) if d.rule != "WM414"] == ["WM431"]
