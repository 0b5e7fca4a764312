"""`tree` as a gate: with `--pods`, a pod list that differs from the tree exits 1 and one that agrees 0;
`--fail-level` sets the lowest severity that fails, as for `check`; `tree DIR` leaves out what `exclude:`
of the configuration names, as `check` does."""

import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wmaplint import cli_resolve

ROOT = Path(__file__).parents[2]
PODS = ROOT / "tests" / "rules" / "fixtures" / "WM734-pod-count-differs"
GPUS = ROOT / "tests" / "rules" / "fixtures" / "WM735-gpu-total-differs"
JOBSET = ROOT / "catalog" / "examples" / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"


@pytest.fixture()
def cli():
    group = click.Group(commands={"tree": cli_resolve.tree})
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(group, [str(a) for a in args], **kw)


def test_a_pod_list_that_differs_from_the_tree_exits_1(cli):
    result = cli("tree", PODS / "jobset.yaml", "--pods", PODS / "pods-one-worker-missing.json")
    assert "WM734" in result.stderr
    assert result.exit_code == 1, result.output


def test_a_gpu_total_that_differs_exits_1(cli):
    result = cli("tree", GPUS / "jobset.yaml", "--pods", GPUS / "pods-gpu-injected.json")
    assert "WM735" in result.stderr
    assert result.exit_code == 1, result.output


def test_a_pod_list_that_agrees_exits_0(cli):
    result = cli("tree", PODS / "jobset.yaml", "--pods", PODS / "pods.json")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_fail_level_works_as_for_check(cli, tmp_path):
    manifest = tmp_path / "jobset.yaml"
    manifest.write_text(JOBSET.read_text().replace("\nspec:\n", "\nspec:\n  colour: blue\n", 1))
    shown = cli("tree", manifest)
    assert shown.exit_code == 0, shown.output  # a warning alone does not fail a tree by default
    assert shown.stderr == f'{manifest}:8:3: warning WM607 unknown field "spec.colour"\n'
    assert cli("tree", manifest, "--fail-level", "error").exit_code == 0
    assert cli("tree", manifest, "--fail-level", "warning").exit_code == 1
    assert cli("tree", manifest, "--fail-level", "info").exit_code == 1
    clean = cli("tree", JOBSET, "--fail-level", "info")
    assert clean.exit_code == 0, clean.output


def test_an_excluded_folder_is_left_out_of_a_walk_as_check_leaves_it_out(cli, tmp_path):
    (tmp_path / ".git").mkdir()
    shutil.copy(JOBSET, tmp_path / "jobset.yaml")
    chart = tmp_path / "charts" / "train" / "templates"
    chart.mkdir(parents=True)
    template = "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{ .Values.name }}\n"
    (chart / "job.yaml").write_text(template)
    (tmp_path / ".wmaplint.yaml").write_text("exclude: [charts/]\n")
    result = cli("tree", tmp_path)
    assert result.exit_code == 0, result.output
    assert "WM120" not in result.stderr
    assert result.stdout.startswith("JobSet research/llm-pretrain")
    named = cli("tree", chart / "job.yaml")  # a file named on the command line is read, as check reads it
    assert "WM120" in named.stderr


def test_a_configuration_that_cannot_be_read_is_one_line_and_exit_2(cli, tmp_path):
    (tmp_path / ".git").mkdir()
    shutil.copy(JOBSET, tmp_path / "jobset.yaml")
    (tmp_path / ".wmaplint.yaml").write_text("exclude: 3\n")
    result = cli("tree", tmp_path)
    assert result.exit_code == 2
    assert result.stderr.startswith("wmaplint: ") and "exclude must be a list of strings" in result.stderr
