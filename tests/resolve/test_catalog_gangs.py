"""Every shipped definition's gang, as KAI's Karta grouper builds it, on every manifest the catalog has for it
(catalog/examples/ and the inline manifests of catalog/tests/): no PodGroup whose pods compute different
min-available, and no gang finding. Where upstream's published definitions are at hand (../shared), their
gangs on the same manifests give exactly the findings the model computes for their shapes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from wmaplint.resolve.run import TreeRun, resolve_files

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "catalog" / "examples"
SUITES = ROOT / "catalog" / "tests"
UPSTREAM = ROOT.parent / "shared" / "published" / "upstream-catalog"
GANG_RULES = {"WM714", "WM715", "WM736", "WM737", "WM738", "WM739", "WM740"}


def _inline_manifests() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for suite in sorted(SUITES.glob("*.test.yaml")):
        data = yaml.safe_load(suite.read_text(encoding="utf-8")) or {}
        cases = data.get("cases", []) if isinstance(data, dict) else data
        for case in cases or []:
            if isinstance(case, dict) and isinstance(case.get("manifest"), dict):
                found.append((f"{suite.name}::{case.get('name')}", case["manifest"]))
    return found


def _consistent(run: TreeRun) -> None:
    for workload in run.workloads:
        grouping = workload.grouping
        assert grouping is not None, workload.name
        differing = {g.name: sorted(g.computed) for g in grouping.groups if len(g.computed) > 1}
        assert differing == {}, workload.name
    assert [d.message for d in run.diagnostics if d.rule in GANG_RULES] == []


@pytest.mark.parametrize("example", sorted(EXAMPLES.glob("*/*.yaml")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_shipped_gang_is_consistent_on_every_example(example: Path) -> None:
    _consistent(resolve_files([str(example)], validate=False))


@pytest.mark.parametrize(("name", "manifest"), _inline_manifests(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_the_shipped_gang_is_consistent_on_every_suite_manifest(tmp_path: Path, name: str,
                                                                 manifest: dict[str, Any]) -> None:
    path = tmp_path / "manifest.yaml"
    path.write_text(yaml.safe_dump(manifest), encoding="utf-8")
    _consistent(resolve_files([str(path)], validate=False))


def test_every_shipped_gang_is_read_by_the_karta_grouper_on_some_example() -> None:
    grouped = set()
    for example in EXAMPLES.glob("*/*.yaml"):
        for workload in resolve_files([str(example)], validate=False).workloads:
            if workload.grouping is not None and workload.grouping.grouper == "karta":
                grouped.add(workload.definition_name)
    with_gangs = {p.stem for p in (ROOT / "catalog").glob("*.yaml")
                  if "gangScheduling:" in p.read_text(encoding="utf-8")}
    assert with_gangs and with_gangs <= grouped


# -- upstream's published definitions, where they are at hand ------------------------------------------------

upstream = pytest.mark.skipif(not UPSTREAM.is_dir(), reason="../shared/published is not here")


def _upstream(name: str, example: str) -> TreeRun:
    return resolve_files([str(EXAMPLES / name / example)], [str(UPSTREAM / f"{name}.yaml")],
                         use_catalog=False, validate=False)


@upstream
def test_upstreams_gang_per_replicated_job_is_consistent() -> None:
    run = _upstream("jobset-x-k8s-io-jobset-v1alpha2", "leader-workers-gpu.yaml")
    [workload] = run.workloads
    assert workload.grouping is not None
    assert {g.name: g.min_available for g in workload.grouping.groups} == {
        "pg-<uid>-leader": 1, "pg-<uid>-worker": 2}
    assert [d.rule for d in run.diagnostics if d.rule in GANG_RULES] == []


@upstream
def test_upstreams_gang_per_dynamo_component_is_consistent() -> None:
    run = _upstream("nvidia-com-dynamographdeployment-v1beta1", "trtllm-disagg-multinode.yaml")
    [workload] = run.workloads
    assert workload.grouping is not None and len(workload.grouping.groups) == 3
    assert all(len(g.computed) == 1 for g in workload.grouping.groups)
    assert [d.rule for d in run.diagnostics if d.rule in GANG_RULES] == []


@upstream
def test_upstreams_mpijob_gang_gives_the_launcher_and_the_workers_different_min_available() -> None:
    run = _upstream("kubeflow-org-mpijob-v2beta1", "nccl-allreduce.yaml")
    [finding] = [d for d in run.diagnostics if d.rule in GANG_RULES]
    assert finding.rule == "WM736"
    assert "1 pod of launcher computes 1 (member launcher); 4 pods of worker compute 4 (member worker)" \
        in finding.message
