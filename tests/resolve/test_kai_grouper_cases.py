"""KAI-Scheduler's own Karta grouper cases (fixtures/kai-grouper-cases.yaml), through `wmaplint tree --pods`:
the
PodGroup each case expects, by name, min-available, min-subgroups, sub-groups and topology, or KAI's error."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from wmaplint.cli import main

from .conftest import FIXTURES

CASES = yaml.safe_load((FIXTURES / "kai-grouper-cases.yaml").read_text(encoding="utf-8"))


def _merged(base: Any, over: Any) -> Any:
    if over is None:
        return base
    if isinstance(base, dict) and isinstance(over, dict):
        return {**base, **{key: _merged(base.get(key), value) for key, value in over.items()}}
    return over


def _definition(case: dict[str, Any]) -> dict[str, Any]:
    definition = copy.deepcopy(CASES["definition"])
    if case.get("no_spec"):
        for child in definition["spec"]["structureDefinition"]["childComponents"]:
            del child["specDefinition"]
    if case["gang"] is not None:
        definition["spec"]["optimizationInstructions"] = {"gangScheduling": case["gang"]}
    return definition


def _pods(case: dict[str, Any]) -> dict[str, Any]:
    items = []
    for spec in case["pods"]:
        pod = copy.deepcopy(CASES["pod"])
        pod["metadata"]["name"] = spec.get("name", pod["metadata"]["name"])
        pod["metadata"]["labels"].update({k: v for k, v in spec.items() if k != "name"})
        items.append(pod)
    return {"apiVersion": "v1", "kind": "List", "items": items}


def _tree(tmp_path: Path, case: dict[str, Any]) -> dict[str, Any]:
    files = {"definition.yaml": _definition(case), "pods.yaml": _pods(case),
             "pyflow.yaml": _merged(CASES["workload"], case.get("workload"))}
    for name, value in files.items():
        (tmp_path / name).write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")
    arguments = [str(tmp_path / "pyflow.yaml"), "--definition", str(tmp_path / "definition.yaml"), "--pods",
                 str(tmp_path / "pods.yaml"), "--format", "json"]
    result = CliRunner().invoke(main, ["tree", *arguments])
    [workload] = json.loads(result.stdout)["workloads"]
    grouping: dict[str, Any] = workload["grouping"]
    assert grouping["pods"] == "listed"
    return grouping


@pytest.mark.parametrize("case", CASES["cases"], ids=lambda case: case["name"])
def test_the_pod_groups_kai_expects(tmp_path: Path, case: dict[str, Any]) -> None:
    grouping = _tree(tmp_path, case)
    expect = case["expect"]
    assert grouping["grouper"] == expect.get("grouper", "karta")
    assert len(grouping["podGroups"]) == len(expect["podGroups"]), grouping
    for found, wanted in zip(grouping["podGroups"], expect["podGroups"], strict=True):
        assert {key: found[key] for key in wanted} == wanted
    errors = [failed["error"] for failed in grouping["failed"]]
    for text in expect.get("errors", []):
        assert errors and all(text in error for error in errors), errors
    if not expect.get("errors"):
        assert errors == []


def test_kais_end_to_end_custom_job(tmp_path: Path) -> None:
    case = yaml.safe_load((FIXTURES / "kai-e2e-customjob.yaml").read_text(encoding="utf-8"))
    workload = case["workload"]
    metadata = workload["metadata"]
    owner = {"apiVersion": workload["apiVersion"], "kind": workload["kind"], "name": metadata["name"],
             "uid": metadata["uid"]}
    pods = [{"apiVersion": "v1", "kind": "Pod", "metadata": {
        "name": f"custom-{role}-{index}", "namespace": "e2e", "labels": {"e2e.example.com/role": role},
        "ownerReferences": [owner]}, "spec": {"containers": [{"name": "main", "image": "busybox"}]}}
        for role, index in case["pods"]]
    files = {"definition.yaml": case["definition"], "customjob.yaml": workload,
             "pods.yaml": {"apiVersion": "v1", "kind": "List", "items": pods}}
    for name, value in files.items():
        (tmp_path / name).write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")
    arguments = [str(tmp_path / "customjob.yaml"), "--definition", str(tmp_path / "definition.yaml"),
                 "--pods", str(tmp_path / "pods.yaml"), "--format", "json"]
    result = CliRunner().invoke(main, ["tree", *arguments])
    [found] = json.loads(result.stdout)["workloads"]
    [group] = found["grouping"]["podGroups"]
    assert {key: group[key] for key in ("name", "minAvailable", "minSubGroups")} == {
        key: case["expect"][key] for key in ("name", "minAvailable", "minSubGroups")}
    assert [{key: sub[key] for key in ("name", "minAvailable", "pods")} for sub in group["subGroups"]] == \
        case["expect"]["subGroups"]
