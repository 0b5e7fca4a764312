"""Manifests validated against their CRDs in `wmaplint tree`: structure (WM607) and CEL rules (WM604)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from wmaplint.resolve.run import resolve_files
from wmaplint.resolve.validate import SchemaViolation, structural_problems, validate_manifest
from wmaplint.schema.store import shared_store

LWS = """apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: demo}
spec:
  replicas: 2
  leaderWorkerTemplate:
    size: 2
    workerTemplate:
      spec:
        containers:
        - name: worker
          image: busybox
          imagePullPolicy: Always
"""


def tree(tmp_path: Path, text: str, *crds: str) -> list[tuple[str, int, int, str]]:
    path = tmp_path / "manifest.yaml"
    path.write_text(text)
    run = resolve_files([str(path)], use_catalog=False, crds=crds)
    return [
        (d.rule, d.span.start_line, d.span.start_col, d.message)
        for d in run.diagnostics
        if d.rule in ("WM604", "WM607", "WM902")
    ]


def test_real_samples_pass_except_the_known_nim_violation(shared: Path) -> None:
    found: dict[str, list[tuple[str, int, int, str]]] = {}
    for path in sorted((shared / "samples").rglob("*.yaml")):
        run = resolve_files([str(path)], use_catalog=False)
        problems = [
            (d.rule, d.span.start_line, d.span.start_col, d.message)
            for d in run.diagnostics
            if d.rule in ("WM604", "WM607")
        ]
        if problems:
            found[path.name] = problems
        assert not [n for n in run.notes if "no schema source serves" in n], path
    assert found == {
        "nim-standalone-autoscaling-llm.yaml": [
            # the API server's own field error; placed on the `spec` key the rule sits on
            (
                "WM604",
                32,
                1,
                "spec: Invalid value: spec.replicas cannot be set when spec.scale.enabled is true",
            )
        ]
    }


def test_misspelled_field_is_reported_on_its_line(tmp_path: Path) -> None:
    text = LWS.replace(
        "          imagePullPolicy: Always", "          imagePullPolicy: Always\n          imagePulPolicy: x"
    )
    assert tree(tmp_path, text) == [
        (
            "WM607",
            14,
            11,
            'unknown field "spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].imagePulPolicy"',
        )
    ]


def test_valid_manifest_has_no_findings(tmp_path: Path) -> None:
    assert tree(tmp_path, LWS) == []


def test_wrong_type_enum_and_required(tmp_path: Path) -> None:
    text = (
        LWS.replace("replicas: 2", 'replicas: "2"')
        .replace("    size: 2\n", "    size: 2\n    restartPolicy: Sometimes\n")
        .replace("- name: worker\n          image", "- image")
    )
    messages = {(line, message) for _, line, _, message in tree(tmp_path, text)}
    assert messages == {
        (5, 'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "2"'),
        (
            8,
            'spec.leaderWorkerTemplate.restartPolicy: Unsupported value: "Sometimes": supported values: '
            '"Default", "RecreateGroupOnPodRestart", "RecreateGroupAfterStart", "None"',
        ),
        # placed on the list entry that lacks the field
        (12, "spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].name: Required value"),
    }


def test_missing_crd_is_a_note_not_a_finding(tmp_path: Path) -> None:
    path = tmp_path / "widget.yaml"
    path.write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 3}\n")
    run = resolve_files([str(path)], use_catalog=False)
    assert not [d for d in run.diagnostics if d.rule in ("WM604", "WM607")]
    assert any("no schema source serves example.com/v1 Widget" in n for n in run.notes)


WIDGET_CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
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
            x-kubernetes-validations:
            - {rule: self.min <= self.max, message: min must not exceed max, fieldPath: .min}
            properties:
              min: {type: integer}
              max: {type: integer}
              labels: {type: object, additionalProperties: {type: string}}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
"""


def test_crds_option_and_json_output(tmp_path: Path) -> None:
    from wmaplint.cli import main

    crd = tmp_path / "widget-crd.yaml"
    crd.write_text(WIDGET_CRD)
    manifest = tmp_path / "widget.yaml"
    manifest.write_text(
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
        "spec:\n  min: 5\n  max: 3\n  labels: {a: 1}\n  extra: {anything: [1, 2]}\n"
    )
    result = CliRunner().invoke(main, ["tree", str(manifest), "--crds", str(crd), "--format", "json"])
    diagnostics = json.loads(result.stdout)["diagnostics"]
    found = {(d["rule"], d["line"], d["message"]) for d in diagnostics if d["rule"] in ("WM604", "WM607")}
    assert found == {
        ("WM604", 4, "spec.min: Invalid value: min must not exceed max"),
        (
            "WM607",
            7,
            'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: 1',
        ),
    }


def test_missing_crds_path_is_reported(tmp_path: Path) -> None:
    found = tree(tmp_path, LWS, str(tmp_path / "nope"))
    assert [rule for rule, *_ in found] == ["WM902"]


def test_built_in_kinds_use_the_kubernetes_openapi(tmp_path: Path) -> None:
    text = (
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j, labelz: {a: b}}\nspec:\n  parallelism: 2\n"
        "  template:\n    spec:\n      restartPolicy: Never\n"
        "      containers: [{name: c, image: busybox, resources: {limits: {cpu: 1, memory: 1Gi}}}]\n"
    )
    assert tree(tmp_path, text) == [("WM607", 3, 21, 'unknown field "metadata.labelz"')]


def test_hostile_nesting_is_bounded() -> None:
    deep: dict = {}
    node = deep
    for _ in range(10_000):
        node["x"] = {}
        node = node["x"]
    manifest = yaml.safe_load(LWS)
    manifest["spec"]["leaderWorkerTemplate"]["workerTemplate"]["metadata"] = {"annotations": deep}
    problems, note = validate_manifest(manifest, shared_store())
    assert note is None
    assert len(problems) == 1 and problems[0].kind is SchemaViolation


@pytest.mark.parametrize("value", [None, [], "text", {"kind": "X"}, {"apiVersion": 3, "kind": "Job"}])
def test_odd_documents_are_skipped(value: object) -> None:
    assert validate_manifest(value, shared_store()) == ([], None)


def test_structural_problems_without_schema_details() -> None:
    assert structural_problems({}, {"a": 1}) == []
