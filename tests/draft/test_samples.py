"""Every real sample manifest in ../shared/samples of a kind the catalog covers, resolved with the draft
`wmaplint new` makes of its kind: the same pods and GPUs as with the shipped definition, except where the
shipped definition knows what the controller does beyond its schema (listed below, with the reason).
Collected only when ../shared is present (see tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .helpers import REPO, totals, wmaplint

# sample -> ((catalog pods, GPUs), (draft pods, GPUs), why they differ). None differ: the ten samples that
# differed before the draft read the controller model's counts (multi-node NIM, Grove scaling groups, LWS
# group size, Milvus deployment groups and 2.6 topology, Dynamo multinode, the RayJob submitter,
# LLMInferenceService data parallelism) have the catalog's pods and GPUs.
DIFFERENT: dict[str, tuple[tuple[int, int], tuple[int, int], str]] = {}
# kinds no draft can be made of: the NIMCache's caching pod asks for a flat {cpu, memory} map
NO_DRAFT = {"NIMCache"}


def _catalog_kinds() -> set[tuple[str, str, str]]:
    kinds = set()
    for path in (REPO / "catalog").glob("*.yaml"):
        definition = yaml.safe_load(path.read_text(encoding="utf-8"))
        kind = definition["spec"]["structureDefinition"]["rootComponent"]["kind"]
        kinds.add((kind["group"], kind["version"], kind["kind"]))
    return kinds


@pytest.fixture(scope="module")
def drafts(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str, str], Path]:
    made: dict[tuple[str, str, str], Path] = {}
    folder = tmp_path_factory.mktemp("drafts")
    for group, version, kind in sorted(_catalog_kinds()):
        result = wmaplint("new", "--kind", f"{group}/{version}/{kind}" if group else f"{version}/{kind}")
        if kind in NO_DRAFT:
            assert result.exit_code == 2
            continue
        assert result.exit_code == 0, result.output
        path = folder / f"{group or 'core'}-{kind}-{version}.yaml"
        path.write_text(result.stdout, encoding="utf-8")
        made[(group, version, kind)] = path
    return made


def _workloads(sample: Path) -> list[tuple[tuple[str, str, str], str]]:
    found = []
    for document in yaml.safe_load_all(sample.read_text(encoding="utf-8")):
        if isinstance(document, dict) and isinstance(document.get("metadata"), dict):
            group, _, version = str(document.get("apiVersion", "")).rpartition("/")
            name = str(document["metadata"].get("name") or "")  # `tree` names a generateName object ""
            found.append(((group, version, str(document.get("kind"))), name))
    return found


def test_every_sample_of_a_drafted_kind_has_the_catalogs_totals_or_a_reason(shared: Path, drafts) -> None:
    samples = shared / "samples"
    compared = {}
    for sample in sorted(samples.rglob("*.yaml")):
        with_catalog = totals(sample)
        for gvk, name in _workloads(sample):
            if gvk not in drafts or name not in with_catalog:
                continue  # not of a drafted kind, or not a workload (a runtime the TrainJobs name)
            key = str(sample.relative_to(samples))
            assert key not in compared  # one workload of a drafted kind per sample
            compared[key] = (with_catalog[name], totals(sample, drafts[gvk])[name])
    assert len(compared) >= 40
    differences = {sample: pair for sample, pair in compared.items() if pair[0] != pair[1]}
    assert differences == {sample: (catalog, draft) for sample, (catalog, draft, _) in DIFFERENT.items()}
