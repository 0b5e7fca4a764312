"""Evaluating validation rules on objects: the Karta selector rules and real sample manifests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from cel_rule_ids import rule_of

from wmaplint.cel import validate_object
from wmaplint.cel.crd import crd_schemas


def load_all(path: Path) -> list[Any]:
    with path.open() as handle:
        return [d for d in yaml.load_all(handle, Loader=yaml.CSafeLoader) if isinstance(d, dict)]


def _karta(selector: dict[str, Any]) -> dict[str, Any]:
    return {
        "apiVersion": "run.ai/v1alpha1",
        "kind": "Karta",
        "metadata": {"name": "x"},
        "spec": {
            "structureDefinition": {
                "rootComponent": {
                    "name": "job",
                    "kind": {"group": "batch", "version": "v1", "kind": "Job"},
                    "podSelector": {"componentTypeSelector": selector},
                }
            }
        },
    }


def _schema(doc: dict[str, Any]) -> dict[str, Any]:
    schema, _ = next(iter(crd_schemas(doc)))
    return dict(schema)


def test_karta_selector_rules_reject_value_only(karta_crd: dict[str, Any]) -> None:
    violations = validate_object(_schema(karta_crd), _karta({"value": "x"}))
    assert [v.detail for v in violations] == [
        "at least one of keyPath or matchLabels must be set",
        "value requires keyPath",
    ]
    path = "spec.structureDefinition.rootComponent.podSelector.componentTypeSelector"
    assert (
        violations[0].message == f"{path}: Invalid value: at least one of keyPath or matchLabels must be set"
    )
    assert all(rule_of(v) == "WM604" and v.field_path == path for v in violations)
    assert violations[0].schema_pointer[-2:] == ("x-kubernetes-validations", 0)


@pytest.mark.parametrize(
    "selector",
    [
        {"keyPath": ".metadata.labels.app"},
        {"keyPath": ".metadata.labels.app", "value": "worker"},
        {"matchLabels": {"app": "worker"}},
    ],
)
def test_karta_selector_rules_accept_valid_selectors(
    karta_crd: dict[str, Any], selector: dict[str, Any]
) -> None:
    assert validate_object(_schema(karta_crd), _karta(selector)) == []


def test_scalar_rule_messages_and_runtime_errors() -> None:
    schema = {
        "type": "object",
        "properties": {
            "spec": {
                "type": "object",
                "properties": {
                    "count": {
                        "type": "integer",
                        "x-kubernetes-validations": [
                            {
                                "rule": "self > 0",
                                "messageExpression": "'count ' + string(self) + ' must be positive'",
                            },
                            {"rule": "self < 10", "reason": "FieldValueForbidden"},
                        ],
                    },
                    "name": {"type": "string", "x-kubernetes-validations": [{"rule": "self.size() < 3"}]},
                    "limits": {
                        "type": "object",
                        "additionalProperties": {"type": "string"},
                        "x-kubernetes-validations": [
                            {"rule": "self.cpu == '1'", "message": "cpu must be 1"},
                            {"rule": "quantity(self.mem).isLessThan(quantity('2Gi'))"},
                        ],
                    },
                },
            }
        },
    }
    obj = {"spec": {"count": -30, "name": "abcd", "limits": {"mem": "3Gi"}}}
    messages = [v.message for v in validate_object(schema, obj)]
    assert messages == [
        "spec.count: Invalid value: -30: count -30 must be positive",
        'spec.name: Invalid value: "abcd": failed rule: self.size() < 3',
        'spec.limits: Invalid value: "object": no such key: cpu evaluating rule: cpu must be 1',
        "spec.limits: Invalid value: failed rule: quantity(self.mem).isLessThan(quantity('2Gi'))",
    ]
    obj = {"spec": {"count": 30, "limits": {"cpu": "1", "mem": "1500Mi"}}}
    assert [v.message for v in validate_object(schema, obj)] == [
        "spec.count: Forbidden: failed rule: self < 10"
    ]


def test_hostile_rule_is_not_run() -> None:
    schema = {
        "type": "object",
        "x-kubernetes-validations": [
            {"rule": "lists.range(1000000000).all(i, lists.range(1000000000).all(j, i != j))"}
        ],
    }
    [violation] = validate_object(schema, {"apiVersion": "v1", "kind": "X"})
    assert rule_of(violation) == "WM608"
    assert violation.message == (
        "<nil>: rule not evaluated: its cost on this data may reach 7,000,000,005,000,000,001, over the "
        "per-call limit of 1,000,000"
    )


def _index_crds(crd_docs: list[tuple[Path, dict[str, Any]]]) -> dict[tuple[str, str], dict[str, Any]]:
    index = {}
    for path, doc in crd_docs:
        if path.name.endswith(".minimal.yaml"):
            continue
        if True:
            spec = doc.get("spec", {})
            for version, (schema, _) in zip(spec.get("versions", []), crd_schemas(doc), strict=False):
                index[(f"{spec['group']}/{version['name']}", spec["names"]["kind"])] = dict(schema)
    return index


# One upstream sample really breaks its CRD: it sets spec.replicas together with spec.scale.enabled.
KNOWN_VIOLATIONS = {
    "nim-standalone-autoscaling-llm.yaml": [
        "spec: Invalid value: spec.replicas cannot be set when spec.scale.enabled is true"
    ],
}


def test_real_samples_pass_their_crds(shared: Path, crd_docs: list[tuple[Path, dict[str, Any]]]) -> None:
    index = _index_crds(crd_docs)
    checked = 0
    for path in sorted((shared / "samples").rglob("*.yaml")):
        found = []
        for manifest in load_all(path):
            schema = index.get((manifest.get("apiVersion"), manifest.get("kind")))
            if schema is None:
                continue
            checked += 1
            found += [v.message for v in validate_object(schema, manifest)]
        assert found == KNOWN_VIOLATIONS.get(path.name, []), path
    assert checked >= 30
