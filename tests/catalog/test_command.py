"""`wmaplint catalog`: the shipped definitions listed, shown one at a time, and the table README.md shows."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import yaml
from click.testing import CliRunner

from wmaplint.catalog import CatalogEntry, find_entries, list_catalog, markdown_table
from wmaplint.cli import main

REPO = Path(__file__).resolve().parents[2]
KARTA_FILES = [
    p
    for p in sorted((REPO / "catalog").glob("*.yaml"))
    if yaml.safe_load(p.read_text(encoding="utf-8")).get("kind") == "Karta"
]


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_every_shipped_definition_is_listed_with_its_shape() -> None:
    result = run("catalog", "--format", "json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)["definitions"]
    assert sorted(d["file"] for d in listed) == sorted(p.name for p in KARTA_FILES)
    jobset = next(d for d in listed if d["kind"] == "JobSet")
    assert (jobset["group"], jobset["version"], jobset["name"]) == (
        "jobset.x-k8s.io",
        "v1alpha2",
        "jobset-x-k8s-io-jobset-v1alpha2",
    )
    assert [(c["name"], c["podBearing"], c["multiInstance"]) for c in jobset["components"]] == [
        ("jobset", False, False),
        ("replicatedjob", True, True),
    ]
    # the runtime's evaluation order
    assert jobset["statusKeys"] == ["suspended", "running", "failed", "completed", "initializing"]
    assert jobset["suspend"] is True and jobset["gangs"] == ["jobset"]


def test_the_text_listing_has_one_row_per_definition() -> None:
    result = run("catalog")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].split()[:2] == ["KIND", "FILE"]
    assert len(lines) == len(KARTA_FILES) + 2
    assert any(line.startswith("jobset.x-k8s.io/v1alpha2 JobSet ") for line in lines)
    assert f"{len(KARTA_FILES)} definitions" in lines[-1]


def test_show_prints_the_definition_as_shipped() -> None:
    for query in ("JobSet", "jobset", "jobset.x-k8s.io/v1alpha2/JobSet", "JobSet.jobset.x-k8s.io",
                  "jobset-x-k8s-io-jobset-v1alpha2"):
        result = run("catalog", "show", query)
        assert result.exit_code == 0, query
        assert result.output == (REPO / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml").read_text("utf-8")
    pod = run("catalog", "show", "v1/Pod")
    assert pod.exit_code == 0 and "kind: {group: \"\", version: v1, kind: Pod}" in pod.output
    data = json.loads(run("catalog", "show", "JobSet", "--format", "json").output)
    assert data["definition"]["kind"] == "Karta" and data["kind"] == "JobSet"


def test_show_of_an_unknown_kind_is_one_line_and_exit_two() -> None:
    result = CliRunner().invoke(main, ["catalog", "show", "NoSuchKind"])
    assert result.exit_code == 2
    assert result.output.strip() == (
        "wmaplint: no shipped definition for 'NoSuchKind' (see `wmaplint catalog`)"
    )


def _entry(group: str, version: str, kind: str) -> CatalogEntry:
    name = f"{group.replace('.', '-') or 'core'}-{kind.lower()}-{version}"
    return CatalogEntry(name, Path(f"{name}.yaml"), group, version, kind, "")


def test_a_kind_served_in_several_versions_needs_its_version() -> None:
    entries = [_entry("kubeflow.org", "v1", "MPIJob"), _entry("kubeflow.org", "v2beta1", "MPIJob")]
    assert len(find_entries("MPIJob", entries)) == 2
    assert [e.version for e in find_entries("kubeflow.org/v2beta1/MPIJob", entries)] == ["v2beta1"]
    assert [e.version for e in find_entries("kubeflow-org-mpijob-v1", entries)] == ["v1"]
    assert [e.version for e in find_entries("MPIJob.kubeflow.org/v1", entries)] == ["v1"]


def test_an_ambiguous_kind_lists_the_choices(monkeypatch) -> None:
    import wmaplint.cli_catalog as command

    entries = [_entry("kubeflow.org", "v1", "MPIJob"), _entry("kubeflow.org", "v2beta1", "MPIJob")]
    monkeypatch.setattr(command, "list_catalog", lambda: entries)
    result = CliRunner().invoke(main, ["catalog", "show", "mpijob"])
    assert result.exit_code == 2
    assert "2 shipped definitions describe 'mpijob': kubeflow.org/v1/MPIJob, kubeflow.org/v2beta1/MPIJob" in (
        result.output
    )


def test_readme_shows_the_current_catalog_table() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert markdown_table(list_catalog()) in readme, (
        "README.md's catalog table is stale: paste `wmaplint catalog --format markdown` into it"
    )


def test_the_command_is_lazy() -> None:
    code = "import sys, wmaplint.cli; print('wmaplint.catalog' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    assert "catalog" in run("--help").output


def test_the_readme_tour_tree_is_what_tree_prints() -> None:
    """The JobSet example of the announcement: 3 pods and 12 GPUs, exactly as `wmaplint tree` prints it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = "$ wmaplint tree catalog/examples/jobset-x-k8s-io-jobset-v1alpha2/leader-workers-gpu.yaml\n"
    shown = readme[readme.index(command) + len(command) :].split("```", 1)[0]
    example = REPO / "catalog" / "examples" / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"
    result = run("tree", str(example))
    assert result.exit_code == 0
    assert result.stdout == shown
    assert shown.startswith("JobSet research/llm-pretrain: 1 workload, 3 pods, 12 GPUs,")
