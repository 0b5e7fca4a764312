"""Every object of the shipped examples, the objects workloads name included (a TrainJob's
ClusterTrainingRuntime), is valid for the CRD the schema bundle pins: no WM607 or WM604 where the tree reads
them. (kubeflow/trainer@8c0f505, the pinned release, has no `numProcPerNode` under `mlPolicy.torch`: a
TrainJob sets it, `spec.trainer.numProcPerNode`.)"""

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wmaplint import cli_resolve

EXAMPLES = Path(__file__).resolve().parents[2] / "catalog" / "examples"


@pytest.mark.parametrize("folder", sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()))
def test_every_example_object_is_valid_for_its_pinned_crd(folder: str) -> None:
    group = click.Group(commands={"tree": cli_resolve.tree})
    result = CliRunner().invoke(group, ["tree", str(EXAMPLES / folder)])
    schema = [line for line in result.stderr.splitlines() if " WM607 " in line or " WM604 " in line]
    assert schema == []
