"""The shipped best-practice pack: loads cleanly, each rule fails and passes on real definitions, catalog is
clean."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.engine import lint_text
from wmaplint.packs.in_use import shipped_pack_paths
from wmaplint.packs.loader import PackCel, load_pack
from wmaplint.rules.examples import JOB, job_with

from .helpers import PackLab

CHILDREN = """\
    childComponents:
      - name: head
        ownerRef: job
        kind: {group: "", version: v1, kind: Pod}
        specDefinition: {podTemplateSpecPath: .spec.head}
        scaleDefinition: {replicasPath: "1"}
        podSelector:
          componentTypeSelector:
            matchLabels: {"example.com/role": head}
      - name: worker
        ownerRef: job
        kind: {group: "", version: v1, kind: Pod}
        specDefinition: {podTemplateSpecPath: .spec.worker}
        scaleDefinition: {replicasPath: .spec.workers}
        podSelector:
          componentTypeSelector: {keyPath: '.metadata.labels["example.com/worker"]'}
  optimizationInstructions:
    gangScheduling:
      podGroups:
        - name: all
          members:
            - componentName: head
            - componentName: worker
"""
TWO_PODS = JOB + CHILDREN


def pack_rules(text: str, path: str = "job.yaml") -> list:
    return [d for d in lint_text(text, path) if d.rule.startswith("KBP")]


def test_shipped_packs_load_without_problems() -> None:
    paths = shipped_pack_paths()
    assert paths and all(Path(p).parent.name == "packs" for p in paths)
    for path in paths:
        pack = load_pack(path)
        assert pack.problems == [] and pack.rules


def test_shipped_rules_are_quiet_on_good_definitions() -> None:
    assert pack_rules(JOB) == [] and pack_rules(TWO_PODS) == []


def test_kbp001_gang_member_without_scale() -> None:
    text = TWO_PODS.replace("        scaleDefinition: {replicasPath: .spec.workers}\n", "")
    (found,) = pack_rules(text)
    assert found.rule == "KBP001" and "'worker'" in found.message
    assert text.splitlines()[found.span.start_line - 1].strip() == "- name: worker"


def test_kbp001_root_component_in_a_gang() -> None:
    text = TWO_PODS.replace("      scaleDefinition: {replicasPath: '.spec.parallelism // 1'}\n", "")
    assert [d.rule for d in pack_rules(text)] == []  # the root is no gang member
    # a member without a scale of its own takes its children's (the library's CalculateSubtreeScale)
    assert pack_rules(text.replace("- componentName: head", "- componentName: job")) == []
    unscaled = text.replace("        scaleDefinition: {replicasPath: .spec.workers}\n", "").replace(
        '        scaleDefinition: {replicasPath: "1"}\n', "")
    found = [d for d in pack_rules(unscaled.replace("- componentName: head", "- componentName: job"))
             if "'job'" in d.message]
    assert len(found) == 1 and found[0].rule == "KBP001"
    assert text.splitlines()[found[0].span.start_line - 1].strip() == "name: job"  # the root component


def test_kbp001_components_outside_gangs_need_no_scale() -> None:
    text = TWO_PODS.replace("        scaleDefinition: {replicasPath: .spec.workers}\n", "")
    assert pack_rules(text.split("  optimizationInstructions:")[0]) == []


def test_kbp002_selector_label_key_invalid() -> None:
    text = TWO_PODS.replace('"example.com/role": head', '"example.com/role": head, "-bad key": x')
    (found,) = pack_rules(text)
    assert found.rule == "KBP002" and found.message == "not valid label keys: -bad key"
    assert "matchLabels" in text.splitlines()[found.span.start_line - 1]


@pytest.mark.parametrize("key", ["a" * 64, "Example.com/role", "example.com/", "/role", "x/y/z"])
def test_kbp002_rejects(key: str) -> None:
    text = TWO_PODS.replace('"example.com/role": head', f'"{key}": head')
    assert [d.rule for d in pack_rules(text)] == ["KBP002"]


@pytest.mark.parametrize("key", ["a" * 63, "app.kubernetes.io/name", "role", "x_y.z-1", "a/b"])
def test_kbp002_accepts(key: str) -> None:
    text = TWO_PODS.replace('"example.com/role": head', f'"{key}": head')
    assert pack_rules(text) == []


def test_kbp003_definition_name_convention() -> None:
    (found,) = pack_rules(job_with("name: batch-job-v1", "name: job-definition"))
    assert (
        found.rule == "KBP003" and "should be 'batch-job-v1'" in found.message and found.span.start_line == 3
    )


def test_kbp003_core_group() -> None:
    text = job_with("{group: batch, version: v1, kind: Job}", '{group: "", version: v1, kind: Pod}')
    (found,) = pack_rules(text)
    assert "should be 'core-pod-v1'" in found.message
    assert pack_rules(text.replace("name: batch-job-v1", "name: core-pod-v1")) == []


def about_selectors(text: str) -> list:
    return [d for d in lint_text(text, "job.yaml") if "componentTypeSelector" in d.message]


def test_a_pod_child_without_pod_selector_is_one_finding_of_the_built_in_rule() -> None:
    """The pack's KBP004 said what WM520 says; the finding has one id now (docs/rule-packs.md)."""
    text = TWO_PODS.replace(
        "        podSelector:\n          componentTypeSelector: {keyPath: "
        "'.metadata.labels[\"example.com/worker\"]'}\n",
        "",
    )
    worker = [d for d in about_selectors(text) if "'worker'" in d.message]
    assert [d.rule for d in worker] == ["WM520"]
    assert text.splitlines()[worker[0].span.start_line - 1].strip() == "- name: worker"


def test_a_single_pod_bearing_component_needs_no_selector() -> None:
    text = (
        JOB.replace("      specDefinition: {podTemplateSpecPath: .spec.template}\n", "")
        + """\
    childComponents:
      - name: pods
        ownerRef: job
        specDefinition: {podTemplateSpecPath: .spec.template}
"""
    )
    assert about_selectors(text) == []


def test_shipped_pack_is_disabled_by_ignoring_its_prefix(tmp_path: Path) -> None:
    lab = PackLab(tmp_path)
    text = job_with("name: batch-job-v1", "name: job-definition")
    assert pack_rules(text) != []
    assert [
        d for d in lab.lint(text, packs=(), extra_config="ignore: [KBP]\n") if d.rule.startswith("KBP")
    ] == []


def test_catalog_definitions_are_clean(repo: Path) -> None:
    for path in sorted((repo / "catalog").glob("*.yaml")):
        found = pack_rules(path.read_text(encoding="utf-8"), str(path))
        assert found == [], (path.name, [(d.rule, d.message) for d in found])


NUL_LABEL = '      podSelector: {componentTypeSelector: {matchLabels: {"a\\0/b": x}}}\n'


@pytest.mark.parametrize("text", [
    TWO_PODS,
    TWO_PODS.replace('"example.com/role": head', '"example.com/role": head, "-bad key": x'),
    TWO_PODS.replace("        scaleDefinition: {replicasPath: .spec.workers}\n", ""),
    job_with("name: batch-job-v1", "name: job-definition"),
    job_with("name: batch-job-v1", "name: 99999999999999999999"),  # no int64, no uint64: the runtime refuses
    job_with("name: batch-job-v1", 'name: "batch-job-v1\\0"'),  # the runtime cuts a string at its NUL
    job_with("      name: job\n", "      name: job\n" + NUL_LABEL),
])
def test_the_python_evaluator_gives_the_runtime_s_findings(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = [(d.rule, d.span, d.message) for d in pack_rules(text)]
    monkeypatch.setattr(PackCel, "interpreted", property(lambda program: None))  # the runtime alone
    assert [(d.rule, d.span, d.message) for d in pack_rules(text)] == found
