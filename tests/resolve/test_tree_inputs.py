"""What `tree` reads: directories walked as `check` walks them, files without a workload, definitions that do
not fit the manifests."""

import json
import os
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wmaplint import cli_resolve

from .conftest import FIXTURES

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "catalog" / "examples"
RUNTIME = EXAMPLES / "trainer-kubeflow-org-trainjob-v1alpha1" / "torch-gpu-runtime.yaml"
DEFINITION = str(FIXTURES / "jobset.karta.yaml")
MANIFEST = str(FIXTURES / "jobset-leader-workers.yaml")


@pytest.fixture()
def cli():
    group = click.Group(commands={"tree": cli_resolve.tree})
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(group, list(args), **kw)


def test_a_directory_is_walked_as_check_walks_it(cli, tmp_path):
    shutil.copytree(EXAMPLES / "core-pod-v1", tmp_path / "pods")
    jobset = EXAMPLES / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"
    shutil.copy(jobset, tmp_path / "js.yaml")
    (tmp_path / "node_modules").mkdir()
    vendored = "apiVersion: v1\nkind: Pod\nmetadata: {name: vendored}\n"
    (tmp_path / "node_modules" / "x.yaml").write_text(vendored)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "y.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: hidden}\n")
    (tmp_path / "notes.txt").write_text("not yaml")
    recording = ROOT / "catalog" / "tests" / "recordings" / "core-pod-v1" / "completed.yaml"
    shutil.copy(recording, tmp_path / "pods" / "recorded.yaml")  # a recording is for `test`, not a manifest
    result = cli("tree", str(tmp_path), "--format", "json")
    assert result.exit_code == 0, result.output
    names = [w["name"] for w in json.loads(result.output)["workloads"]]
    assert names == ["llm-pretrain", "notebook-alice", "eval-run"]


def test_a_file_holding_only_a_training_runtime_is_an_empty_result_with_a_note(cli):
    result = cli("tree", str(RUNTIME))
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert (
        f"wmaplint: no workload to resolve ({RUNTIME}: ClusterTrainingRuntime torch-gpu is not a workload: "
        "give it with --with beside the workloads that name it)"
    ) in result.stderr


def test_a_file_holding_only_objects_that_run_no_pods_is_an_empty_result(cli, tmp_path):
    only = tmp_path / "config.yaml"
    only.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")
    result = cli("tree", str(only))
    assert result.exit_code == 0, result.output
    assert "v1 ConfigMap runs no pods; passed by" in result.stderr


def test_a_definition_whose_kind_fits_no_manifest_is_an_error(cli, tmp_path):
    pod = EXAMPLES / "core-pod-v1" / "gpu-notebook.yaml"
    result = cli("tree", str(pod), "--definition", DEFINITION)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        f"wmaplint: --definition {DEFINITION} describes jobset.x-k8s.io JobSet, which no manifest is "
        "(the manifests are v1 Pod)"
    ]
    assert result.stdout == ""


def test_a_definition_that_fits_one_of_the_manifests_is_used(cli, tmp_path):
    pod = EXAMPLES / "core-pod-v1" / "gpu-notebook.yaml"
    result = cli("tree", MANIFEST, str(pod), "--definition", DEFINITION, "--format", "json")
    assert result.exit_code == 0, result.output
    workloads = json.loads(result.output)["workloads"]
    assert [(w["kind"], w["definitionFile"]) for w in workloads] == [
        ("JobSet", DEFINITION), ("Pod", str(ROOT / "catalog" / "core-pod-v1.yaml"))
    ]


def test_a_file_is_named_from_the_working_directory_of_each_call(tmp_path, monkeypatch):
    from wmaplint.resolve.loading import catalog_dir, shown_path

    (tmp_path / "team").mkdir()
    path = str(tmp_path / "team" / "job.yaml")
    monkeypatch.chdir(tmp_path)
    assert shown_path(path) == os.path.join("team", "job.yaml")
    monkeypatch.chdir(tmp_path / "team")
    assert shown_path(path) == "job.yaml"
    assert shown_path("job.yaml") == "job.yaml"
    shipped = str(catalog_dir() / "jobset-x-k8s-io-jobset-v1alpha2.yaml")
    assert shown_path(shipped) == "the shipped catalog's jobset-x-k8s-io-jobset-v1alpha2.yaml"
    assert shown_path("<stdin>") == "<stdin>"
