"""CEL on Karta definitions: the CRD's own rules (WM604) and gang groupByExpressions over a Pod (WM605)."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from wmaplint.config import Overrides
from wmaplint.engine import Options, lint_text

KARTA_HEAD = """apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: batch-job}
spec:
  structureDefinition:
    rootComponent:
      name: job
      kind: {group: batch, version: v1, kind: Job}
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: '.spec.parallelism // 1'}
"""


def gang(*expressions: str) -> str:
    entries = ", ".join(f"'{e}'" for e in expressions)
    return (
        KARTA_HEAD
        + "  optimizationInstructions:\n    gangScheduling:\n      podGroups:\n      - name: job\n"
        + f"        members:\n        - componentName: job\n          groupByExpressions: [{entries}]\n"
    )


def findings(text: str, rule: str, options: Options | None = None) -> list[tuple[int, int, str]]:
    return [
        (d.span.start_line, d.span.start_col, d.message)
        for d in lint_text(text, "karta.yaml", options)
        if d.rule == rule
    ]


EXPRESSION_COLUMN = len("          groupByExpressions: ['") + 1


def test_misspelled_pod_field_is_reported_inside_the_string() -> None:
    text = gang('self.metadata.label["app"]')
    [(line, column, message)] = findings(text, "WM605")
    assert "groupByExpressions" in text.splitlines()[line - 1]
    # the checker points at the selection of the missing field (its dot), inside the quoted string
    assert column == EXPRESSION_COLUMN + len("self.metadata")
    assert "undefined field 'label'" in message


def test_syntax_error_and_map_result_are_reported() -> None:
    result = findings(gang("self.spec.nodeName +", "pod.metadata.labels"), "WM605")
    assert len(result) == 2
    assert result[0][2].startswith("groupByExpressions[0]: compilation failed")
    assert "must yield a scalar value" in result[1][2]


def test_second_entry_is_placed_on_its_own_string() -> None:
    text = gang('pod.metadata.labels["team"]', "self.spec.nodeNam")
    [(line, column, message)] = findings(text, "WM605")
    second = text.splitlines()[line - 1].index("'self.spec.nodeNam'") + 2
    assert second <= column < second + len("self.spec.nodeNam")
    assert message.startswith("groupByExpressions[1]:")


@pytest.mark.parametrize(
    "expression",
    [
        'self.metadata.labels["app"]',
        "pod.spec.nodeName",
        "self.metadata.name.split('-')[0]",
        "has(pod.spec.schedulerName) ? pod.spec.schedulerName : 'default'",
        "size(self.spec.containers)",
    ],
)
def test_valid_pod_expressions_pass(expression: str) -> None:
    assert findings(gang(expression), "WM605") == []


def test_without_a_pod_schema_nothing_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("wmaplint.schema.store.shipped_bundle", lambda: None)  # not even the bundled schemas
    monkeypatch.setenv("WMAPLINT_SCHEMA_PATH", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path / "cache"))
    assert findings(gang("self.nope"), "WM605") == []


def test_catalog_definitions_pass_the_karta_crd_rules(repo: Path) -> None:
    checked = 0
    for path in sorted((repo / "catalog").glob("*.yaml")):
        text = path.read_text()
        assert findings(text, "WM604") == [], path.name
        assert findings(text, "WM605") == [], path.name
        checked += 1
    assert checked >= 10


def test_selector_rules_are_left_to_the_structural_checks() -> None:
    text = KARTA_HEAD + "      podSelector:\n        componentTypeSelector: {value: worker}\n"
    rules = {d.rule for d in lint_text(text, "karta.yaml")}
    assert "WM510" in rules  # the structural check says it once
    assert "WM604" not in rules


def test_value_without_keypath_is_reported_once() -> None:
    text = KARTA_HEAD + "      podSelector:\n        componentTypeSelector: {value: w, matchLabels: {a: b}}\n"
    rules = [d.rule for d in lint_text(text, "karta.yaml")]
    assert rules.count("WM511") == 1
    assert "WM604" not in rules


def test_other_karta_crd_rules_are_reported(tmp_path: Path, karta_crd: dict) -> None:
    """A Karta CRD release with a rule wmaplint does not know: its violations are WM604 at the field."""
    crd = copy.deepcopy(karta_crd)
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    root = schema["properties"]["spec"]["properties"]["structureDefinition"]["properties"]["rootComponent"]
    root.setdefault("x-kubernetes-validations", []).append(
        {"rule": "self.name.size() <= 8", "message": "component names are at most 8 characters"}
    )
    path = tmp_path / "karta.yaml"
    path.write_text(yaml.safe_dump(crd))
    options = Options(overrides=Overrides(extra_crds=(str(path),)))
    long_name = KARTA_HEAD.replace("name: job\n", "name: a-very-long-name\n")
    [(line, column, message)] = findings(long_name, "WM604", options)
    assert (line, column) == (6, 5)  # the rootComponent key
    assert message == (
        "the Karta CRD rejects this: spec.structureDefinition.rootComponent: Invalid value: "
        "component names are at most 8 characters"
    )
    assert findings(KARTA_HEAD, "WM604", options) == []
