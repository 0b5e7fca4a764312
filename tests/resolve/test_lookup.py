"""Finding the definition for a manifest follows the runtime: group and kind decide, an exact version wins,
another served version of the same group and kind resolves to the definition there is."""

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wmaplint import cli_resolve
from wmaplint.resolve.loading import DefinitionIndex, version_priority

ROOT = Path(__file__).parents[2]
JOBSET = ROOT / "catalog" / "examples" / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml"


@pytest.fixture()
def cli():
    group = click.Group(commands={"tree": cli_resolve.tree})
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(group, list(args), **kw)


def test_a_manifest_of_another_version_resolves_to_the_definition_of_its_group_and_kind(cli, tmp_path,
                                                                                       monkeypatch):
    monkeypatch.chdir(ROOT)
    manifest = tmp_path / "jobset-v1beta1.yaml"
    manifest.write_text(JOBSET.read_text().replace("jobset.x-k8s.io/v1alpha2", "jobset.x-k8s.io/v1beta1"))
    result = cli("tree", str(manifest))
    assert result.exit_code == 0, result.output
    assert "no definition for" not in result.output
    definition = next(line for line in result.output.splitlines() if line.startswith("  definition:"))
    assert definition == (
        "  definition: jobset-x-k8s-io-jobset-v1alpha2 (jobset.x-k8s.io/v1alpha2, for a "
        "jobset.x-k8s.io/v1beta1 manifest; file catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml)"
    )


def test_the_definition_line_names_the_file_for_an_exact_version(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = cli("tree", str(JOBSET))
    assert result.exit_code == 0, result.output
    assert (
        "  definition: jobset-x-k8s-io-jobset-v1alpha2 (jobset.x-k8s.io/v1alpha2; file "
        "catalog/jobset-x-k8s-io-jobset-v1alpha2.yaml)"
    ) in result.output.splitlines()


def test_an_exact_version_wins_over_other_versions():
    index = DefinitionIndex()
    index.add_catalog()
    [v1] = index.lookup(("kubeflow.org", "v1", "MPIJob"))
    [v2] = index.lookup(("kubeflow.org", "v2beta1", "MPIJob"))
    assert v1.gvk == ("kubeflow.org", "v1", "MPIJob") and v2.gvk == ("kubeflow.org", "v2beta1", "MPIJob")


def test_among_other_versions_the_highest_kubernetes_priority_is_taken():
    index = DefinitionIndex()
    index.add_catalog()
    [chosen] = index.lookup(("kubeflow.org", "v3alpha1", "MPIJob"))
    assert chosen.gvk[1] == "v1"  # GA before beta before alpha, as the API server orders versions
    [dynamo] = index.lookup(("nvidia.com", "v1", "DynamoGraphDeployment"))
    assert dynamo.gvk[1] == "v1beta1"


def test_version_priority_is_the_api_servers_order():
    versions = ["v1alpha1", "v11alpha2", "foo1", "v1", "v2beta1", "v10", "v12alpha1", "v10beta3", "foo10",
                "v3beta1"]
    ordered = sorted(versions, key=version_priority)
    assert ordered == ["v10", "v1", "v10beta3", "v3beta1", "v2beta1", "v12alpha1", "v11alpha2", "v1alpha1",
                       "foo1", "foo10"]


def test_explicit_definitions_of_any_version_come_before_the_catalog(tmp_path):
    from wmaplint.resolve.loading import load_file

    draft = tmp_path / "jobset.yaml"
    catalog = ROOT / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml"
    draft.write_text(catalog.read_text().replace("version: v1alpha2", "version: v1alpha1", 1))
    index = DefinitionIndex()
    index.add(load_file(str(draft)).documents)
    index.add_catalog()
    [chosen] = index.lookup(("jobset.x-k8s.io", "v1alpha2", "JobSet"))
    assert chosen.loaded.path == str(draft)
