"""Schema-aware checks through `check`: real CRDs (the bundled ones, as on a fresh machine), two operator
releases, pod paths, missing schemas."""

from __future__ import annotations

from wmaplint.config import Overrides
from wmaplint.engine import Options, lint_text
from wmaplint.fixes import apply_edits

LLMISVC = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: serving-kserve-io-llminferenceservice-v1alpha1}
spec:
  structureDefinition:
    rootComponent:
      name: llminferenceservice
      kind: {group: serving.kserve.io, version: v1alpha1, kind: LLMInferenceService}
      statusDefinition:
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status}
        statusMappings:
          running: [{byConditions: [{type: Ready, status: "True"}]}]
          failed: [{byConditions: [{type: Ready, status: "False"}]}]
    childComponents:
    - name: main
      kind: {group: apps, version: v1, kind: Deployment}
      ownerRef: llminferenceservice
      specDefinition: {podSpecPath: .spec.template}
      scaleDefinition: {minReplicasPath: '.spec.scaling.minReplicas // 1'}
"""


def findings(text: str, rule: str) -> list:
    return [d for d in lint_text(text, "def.yaml") if d.rule == rule]


def test_a_field_only_one_operator_release_declares_is_no_finding() -> None:
    """`.spec.scaling` is in the LLMInferenceService v1alpha1 of KServe aaac4e2, not of 5b033a4: a definition
    written for the newer release reads nothing on the older one, as if unset (its API server prunes the
    field), which is no fault; a field no release declares is one, said once for both."""
    assert findings(LLMISVC, "WM301") == []
    text = LLMISVC.replace(".spec.scaling.minReplicas", ".spec.scalin.minReplicas")
    (d,) = findings(text, "WM301")
    assert "'scalin'" in d.message and "[against" not in d.message
    assert (d.span.start_line, d.span.start_col) == (19, 49)


def test_misspelled_segment_points_at_the_segment_with_a_suggestion() -> None:
    text = LLMISVC.replace(".spec.scaling.minReplicas // 1", ".spec.replica // 1")
    found = [d for d in findings(text, "WM301") if "replica" in d.message]
    assert found and all(d.span.start_col == 49 for d in found)
    assert "replicas" in found[0].data["suggestions"]


def test_pod_paths_are_checked_against_the_pod_schema() -> None:
    text = LLMISVC + ("      podSelector:\n        componentTypeSelector: {keyPath: '.metadata.label.app', "
                      "value: main}\n")
    (d,) = [d for d in findings(text, "WM301") if "label" in d.message]
    assert d.span.start_line == 21 and "labels" in d.data["suggestions"]


def test_missing_schema_is_a_warning_naming_the_gvk_and_an_error_when_strict() -> None:
    text = LLMISVC.replace("group: serving.kserve.io, version: v1alpha1, kind: LLMInferenceService",
                           "group: example.com, version: v1, kind: Widget")
    (d,) = [d for d in lint_text(text, "def.yaml", Options(overrides=Overrides())) if d.rule == "WM901"]
    assert "example.com/v1 Widget" in d.message and d.severity.label == "warning"
    assert "--crds" in d.message and "schemas add" in d.message and "/" + "tmp" not in d.message
    (d,) = [d for d in lint_text(text, "def.yaml", Options(strict=True)) if d.rule == "WM901"]
    assert d.severity.label == "error"


def test_strict_turns_only_the_could_not_check_warnings_into_errors() -> None:
    from wmaplint import rules
    from wmaplint.diagnostics import RULES, Severity

    rules.load()
    seen = {}
    for rule in RULES.values():
        if rule.severity != Severity.WARNING or rule.example_mode != "check":
            continue
        strict = lint_text(rule.bad, rule.example_filename, Options(strict=True))
        found = [d for d in strict if d.rule == rule.id]
        assert found, rule.id
        seen[rule.id] = {d.severity for d in found} == {Severity.ERROR}
    assert {rule_id for rule_id, escalated in seen.items() if escalated} == {"WM901", "WM903"}
    assert len(seen) > 10


def test_a_kind_of_the_bundle_is_checked_with_no_schema_source_at_all() -> None:
    text = LLMISVC.replace(".spec.template}", ".spec.templat}")
    found = [d for d in findings(text, "WM301") if "'templat'" in d.message]
    assert [(d.span.start_line, d.span.start_col) for d in found] == [(18, 43)]  # both releases, said once
    assert not findings(text, "WM901")


OLD_RAYJOB_WORKER = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: ray-io-rayjob-v1}
spec:
  structureDefinition:
    rootComponent:
      name: rayjob
      kind: {group: ray.io, version: v1, kind: RayJob}
      statusDefinition:
        phaseDefinition: {path: .status.jobDeploymentStatus}
        statusMappings:
          running: [{byPhase: Running}]
          failed: [{byPhase: Failed}]
    childComponents:
    - name: worker
      ownerRef: rayjob
      instanceIdPath: .spec.workerGroupSpecs[].groupName
      podSelector:
        componentInstanceSelector: {idPath: '.metadata.labels["ray.io/group"]'}
"""


def test_old_rayjob_worker_path_says_where_the_field_lives_and_fixes_it() -> None:
    (d,) = findings(OLD_RAYJOB_WORKER, "WM301")
    assert (d.span.start_line, d.span.start_col, d.span.end_col) == (17, 29, 45)
    assert "'.rayClusterSpec.workerGroupSpecs'" in d.message
    fixed = apply_edits(OLD_RAYJOB_WORKER, list(d.fixes[0].edits))
    assert fixed == OLD_RAYJOB_WORKER.replace(".spec.workerGroupSpecs",
                                              ".spec.rayClusterSpec.workerGroupSpecs")


def test_without_core_schemas_built_in_child_kinds_are_not_unknown_and_pod_paths_say_why(
        tmp_path, monkeypatch, bundled_crd) -> None:
    (tmp_path / "rayjob.yaml").write_text(bundled_crd("crds/ray.io/rayjob_v1.yaml"))
    monkeypatch.setenv("WMAPLINT_SCHEMA_PATH", str(tmp_path / "rayjob.yaml"))
    monkeypatch.setattr("wmaplint.schema.store.shipped_bundle", lambda: None)  # a damaged installation
    pod_kind = '      kind: {group: "", version: v1, kind: Pod}\n'
    text = OLD_RAYJOB_WORKER.replace("      ownerRef: rayjob\n", "      ownerRef: rayjob\n" + pod_kind)
    found = lint_text(text, "def.yaml")
    assert "WM903" not in [d.rule for d in found]
    (core,) = [d for d in found if d.rule == "WM901"]
    assert "core API" in core.message and core.span.start_line == 20  # the first pod-context path


def test_the_root_metadata_is_object_meta_whatever_the_crd_declares() -> None:
    """The LLMInferenceService CRD declares `metadata: {type: object}`; the API server serves ObjectMeta."""
    text = LLMISVC.replace(
        "running: [{byConditions: [{type: Ready, status: \"True\"}]}]",
        "running: [{byExpression: {expression: '.metadata.labels[\"app\"] != null and .metadata.name != "
        "\"\"', expectedResult: \"true\"}}]",
    )
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "byExpression" in row)
    found = [d for d in lint_text(text, "def.yaml") if d.rule.startswith("WM3") and d.span.start_line == line]
    assert found == []
    misspelled = text.replace(".metadata.name", ".metadata.nmae")
    found = [d for d in findings(misspelled, "WM301") if "'nmae'" in d.message]
    assert found and all("ObjectMeta" in d.message and d.data["suggestions"] == ["name"] for d in found)
