"""The controller model: every shipped file has the one shape, every catalog kind is covered, and the API
answers from it; a project's files are merged over it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from wmaplint.controllers import MODEL_DIR, SCHEMA_FILE, ModelError, load_model, model_for
from wmaplint.shipped_data import shipped

CATALOG = shipped("catalog")
FILES = sorted(MODEL_DIR.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_model_file_has_the_model_shape(path: Path) -> None:
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]
    assert errors == []
    assert data["repository"] and data["release"]


def _catalog_kinds() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(CATALOG.glob("*.yaml")):
        definition = yaml.safe_load(path.read_text(encoding="utf-8"))
        kind = definition["spec"]["structureDefinition"]["rootComponent"]["kind"]
        found.append((kind["group"], kind["kind"], kind["version"]))
    return found


def test_the_model_covers_every_catalog_kind_and_version() -> None:
    kinds = _catalog_kinds()
    assert len(kinds) == 25
    missing = [k for k in kinds if model_for(*k) is None]
    assert missing == []
    for group, kind, version in kinds:
        model = model_for(group, kind, version)
        assert model is not None and model.status is not None and model.suspend is not None, (kind, version)
        assert model.source and model.file.startswith("schemas/controllers/")


def test_every_model_file_has_the_tests_of_its_facts() -> None:
    """The facts of schemas/controllers/<file>.yaml are tested in test_facts_<file>.py (`-` as `_`)."""
    tests = Path(__file__).parent.glob("test_facts_*.py")
    tested = {p.name.removeprefix("test_facts_").removesuffix(".py") for p in tests}
    files = {p.stem.replace("-", "_") for p in MODEL_DIR.glob("*.yaml")}
    assert sorted(files - tested) == []


def test_every_fact_names_its_source() -> None:
    for kind in load_model().kinds:
        assert kind.source
        for created in kind.creates:
            assert created.source and created.count, (kind.kind, created.name)
        if kind.pods:
            assert all(label.source and label.value for label in kind.pods.labels.values())
        if kind.status:
            assert all(c.source for c in kind.status.conditions.values())
            assert all(p.source for p in kind.status.phases.values())
        assert all(f.source for f in kind.fields)
        if kind.suspend:
            assert kind.suspend.source


def test_the_api_answers_from_the_model() -> None:
    rayjob = model_for("ray.io", "RayJob", "v1")
    assert rayjob is not None
    assert set(rayjob.pod_labels("submitter")) >= {"batch.kubernetes.io/job-name"}
    assert "ray.io/node-type" not in rayjob.pod_labels("submitter")
    assert "ray.io/node-type" in rayjob.pod_labels("worker")
    group = rayjob.label("ray.io/group")
    assert group is not None and group.derive is not None and "$entry.groupName" in group.derive
    assert rayjob.suspend is not None and rayjob.suspend.path == ".spec.suspend"
    assert (rayjob.suspend.suspend, rayjob.suspend.resume) == ("true", "false")
    assert rayjob.phase(".status.jobDeploymentStatus // \"\"").values[:2] == ("", "Initializing")
    job = model_for("batch", "Job", "v1")
    assert job.integer_field(".spec.parallelism").is_count
    backoff = job.integer_field(".spec.backoffLimit")
    assert backoff is not None and not backoff.is_count and backoff.what == "retry-limit"
    assert {c.name for c in job.pods_created()} == {"pod"}
    mpi = model_for("kubeflow.org", "MPIJob", "v2beta1")
    assert ("batch", "Job") in mpi.created_kinds()
    assert ("batch", "Job") not in model_for("kubeflow.org", "PyTorchJob", "v1").created_kinds()
    sandbox_old = model_for("agents.x-k8s.io", "Sandbox", "v1alpha1")
    sandbox = model_for("agents.x-k8s.io", "Sandbox", "v1beta1")
    assert sandbox_old.suspend.path == ".spec.replicas" and sandbox.suspend.path == ".spec.operatingMode"
    assert model_for("example.com", "Widget", "v1") is None


def test_the_status_facts_and_assumptions_are_the_models() -> None:
    job = model_for("batch", "Job", "v1")
    assert job is not None and job.status is not None
    assert job.status.exhaustive and "Complete" in job.status.conditions
    # a flow mapping of the older file read "False on resume" as a key; the model keeps the whole sentence
    assert job.status.conditions["Suspended"].source.endswith(
        "(syncJob: ensureJobConditionStatus True JobSuspended while spec.suspend, False JobResumed)")
    assumed = {kind.gvk(v) for kind in load_model().kinds for v in kind.versions if kind.assumptions}
    assert assumed == {"milvus.io/v1beta1/Milvus", "ray.io/v1/RayJob"}


def test_a_project_file_of_the_model_shape_is_merged_version_by_version(tmp_path: Path) -> None:
    extra = tmp_path / "ours.yaml"
    extra.write_text(
        "version: 1\n"
        "kinds:\n"
        "  - group: ray.io\n"
        "    kind: RayCluster\n"
        "    versions: [v1]\n"
        "    source: our fork of kuberay\n"
        "    pods:\n"
        "      labels:\n"
        "        example.com/team: {role: other, value: the owning team, source: our admission webhook}\n"
        "    status:\n"
        "      source: our fork\n"
        "      conditions:\n"
        "        Quiesced: {source: our fork's controller}\n"
        "  - group: example.com\n"
        "    kind: Widget\n"
        "    versions: [v1]\n"
        "    source: the widget operator\n"
        "    suspend: {path: .spec.paused, suspend: 'true', resume: 'false', source: widget_types.go}\n",
        encoding="utf-8",
    )
    model = load_model([extra])
    ray = model.model_for("ray.io", "RayCluster", "v1")
    assert {"ray.io/cluster", "example.com/team"} <= set(ray.pod_labels())
    assert {"HeadPodReady", "Quiesced"} <= set(ray.condition_types())
    assert ray.suspend.path == ".spec.suspend"  # kept from the shipped model
    assert model.model_for("example.com", "Widget", "v1").suspend.path == ".spec.paused"


def test_a_project_file_of_the_wrong_shape_is_one_error_naming_the_place(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("version: 1\nkinds:\n  - {group: a, kind: K, versions: [v1], source: s,"
                   " suspend: {path: spec}}\n")
    with pytest.raises(ModelError, match=re.escape("bad.yaml: kinds.0.suspend")):
        load_model([bad])


def test_a_configuration_names_model_files_with_controllers_or_pod_labels(tmp_path: Path) -> None:
    from wmaplint.config import find_config

    (tmp_path / ".git").mkdir()
    (tmp_path / ".wmaplint.yaml").write_text("controllers: [ours.yaml]\npod-labels: [labels.yaml]\n")
    config = find_config(str(tmp_path))
    assert [Path(p).name for p in config.controller_files] == ["ours.yaml", "labels.yaml"]
