"""Facts of the MPI operator controller model (schemas/controllers/mpi-operator.yaml), each shown on a real
catalog definition, example or recorded object: the outcome that changed with the fact. MPI operator v2:
its own reasons, the launcher Job's among them; Restarting is never set."""

from __future__ import annotations

import pytest

from wmaplint.controllers import model_for

from .helpers import (
    catalog,
    example,
    findings,
    needs_recordings,
    pods_of,
    recorded_objects,
    vary,
)


def test_an_mpijob_v2_mapping_restarting() -> None:
    text = vary(catalog("kubeflow-org-mpijob-v2beta1.yaml"), "          initializing:\n",
                '          degraded:\n            - byConditions: [{type: Restarting, status: "True"}]\n'
                "          initializing:\n")
    [d] = findings(text, "WM420")
    assert "'Restarting'" in d.message and "kubeflow/mpi-operator v0.8.0" in d.message


def test_an_mpijob_v2_failed_reason_of_its_launcher_job() -> None:
    failed = '- byConditions: [{type: Failed, status: "True"}]'
    text = catalog("kubeflow-org-mpijob-v2beta1.yaml")
    misspelt = vary(text, failed, failed.replace('"True"}', '"True", reason: BackoffLimitExeeded}'))
    [d] = findings(misspelt, "WM423")
    assert "did you mean 'BackoffLimitExceeded'?" in d.message
    ok = vary(text, failed, failed.replace('"True"}', '"True", reason: BackoffLimitExceeded}'))
    assert findings(ok, "WM423") == []


@needs_recordings
@pytest.mark.parametrize(("folder", "version"), [("kubeflow-org-mpijob-v2beta1", "v2beta1"),
                                                  ("kubeflow-org-pytorchjob-v1", "v1")])
def test_every_recorded_condition_and_reason_is_in_the_model(folder: str, version: str) -> None:
    objects = recorded_objects(folder)
    model = model_for("kubeflow.org", objects[0]["kind"], version)
    assert objects and model is not None
    seen = {(c["type"], c.get("reason", ""))
            for obj in objects for c in obj.get("status", {}).get("conditions") or []}
    assert seen and all(reason in model.status.conditions[ctype].reasons for ctype, reason in seen)


INDEX = "training.kubeflow.org/replica-index"


def test_mpijob_v2_worker_indexes_shift_with_the_launcher_as_a_worker() -> None:
    manifest = example("kubeflow-org-mpijob-v2beta1/launcher-as-worker-succeeded.yaml")
    assert manifest["spec"]["runLauncherAsWorker"] is True
    specs = manifest["spec"]["mpiReplicaSpecs"]
    specs["Worker"] = {"replicas": 2, "template": specs["Launcher"]["template"]}
    workers = [p.labels[INDEX] for p in pods_of(manifest) if p.created == "worker"]
    assert workers == ["1", "2"]
    manifest["spec"]["runLauncherAsWorker"] = False
    workers = [p.labels[INDEX] for p in pods_of(manifest) if p.created == "worker"]
    assert workers == ["0", "1"]
