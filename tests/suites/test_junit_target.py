"""`test --junit FILE` never replaces a file the run reads: the suites and recordings and the files they name,
the definitions and CRDs given, and the shipped catalog's definitions recordings are replayed with. Only
suites and recordings are read to know what they name; a definition or CRD file is not a suite."""

import shutil
from pathlib import Path

import pytest

from wmaplint.resolve import loading
from wmaplint.suites import runner

from .test_suites import run_cli

ROOT = Path(__file__).resolve().parents[2]
RECORDING = ROOT / "catalog" / "tests" / "recordings" / "core-pod-v1" / "completed.yaml"
POD_DEFINITION = ROOT / "catalog" / "core-pod-v1.yaml"
CRD = ROOT / "tests" / "rules" / "fixtures" / "WM608-cel-cost-unbounded" / "crd.yaml"


@pytest.fixture()
def run(tmp_path, monkeypatch):
    """A recording replayed with a catalog that is a copy (a report written over it harms nothing)."""
    catalog = tmp_path / "catalog"
    catalog.mkdir()
    shutil.copy(POD_DEFINITION, catalog / POD_DEFINITION.name)
    monkeypatch.setattr(loading, "catalog_dir", lambda: catalog)
    recording = tmp_path / "completed.yaml"
    shutil.copy(RECORDING, recording)
    monkeypatch.chdir(tmp_path)
    return lambda *args: run_cli(str(recording), *args)


def _refused(result, path: Path) -> None:
    assert result.exit_code == 2, result.output
    assert f"--junit {path}: {path} is an input of this run; nothing written" in result.output


def test_the_catalog_definition_a_recording_is_replayed_with_is_not_replaced(run, tmp_path):
    shipped = tmp_path / "catalog" / POD_DEFINITION.name
    before = shipped.read_bytes()
    result = run("--junit", str(shipped))
    _refused(result, shipped)
    assert shipped.read_bytes() == before


def test_a_definition_given_is_not_replaced(run, tmp_path):
    given = tmp_path / "pods.karta.yaml"
    shutil.copy(POD_DEFINITION, given)
    _refused(run("--definition", str(given), "--junit", str(given)), given)


@pytest.mark.parametrize("as_directory", [False, True], ids=["file", "directory"])
def test_a_crd_given_or_below_a_crd_directory_is_not_replaced(run, tmp_path, as_directory):
    crds = tmp_path / "crds"
    crds.mkdir()
    crd = crds / "jobset.yaml"
    shutil.copy(CRD, crd)
    _refused(run("--crds", str(crds if as_directory else crd), "--junit", str(crd)), crd)


def test_only_suites_and_recordings_are_read_for_the_files_they_name(run, tmp_path, monkeypatch):
    # a CRD file read as a suite is parsed whole for nothing: 1.4 s for the 1 MB RayService CRD
    read: list[str] = []
    files_read = runner.files_read
    monkeypatch.setattr(runner, "files_read", lambda path: read.append(path.name) or files_read(path))
    crd = tmp_path / "jobset-crd.yaml"
    shutil.copy(CRD, crd)
    given = tmp_path / "pods.karta.yaml"
    shutil.copy(POD_DEFINITION, given)
    result = run("--crds", str(crd), "--definition", str(given), "--junit", str(tmp_path / "report.xml"))
    assert result.exit_code == 0, result.output
    assert read == ["completed.yaml"]
    assert (tmp_path / "report.xml").read_text().startswith("<?xml")
