"""Facts of the Kubeflow Trainer controller model (schemas/controllers/trainer.yaml), each shown on a real
catalog definition, example or recorded object: the outcome that changed with the fact. Kubeflow Trainer:
no release writes Created; Complete and Failed carry the JobSet's reasons."""

from __future__ import annotations

from wmaplint.controllers import model_for

from .helpers import (
    catalog,
    created_count,
    example,
    findings,
    vary,
)


def test_a_trainjob_expression_waiting_for_a_created_condition() -> None:
    text = vary(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"),
                "and ((.status.jobsStatus // []) | length > 0)",
                'and any(.status.conditions[]?; .type == "Created" and .status == "True")')
    [d] = findings(text, "WM440")
    assert "'Created'" in d.message and "Complete, Failed, Suspended" in d.message
    assert findings(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"), "WM440") == []


def test_a_trainjob_mapping_the_created_condition() -> None:
    text = vary(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"),
                '- byConditions: [{type: Complete, status: "True"}]',
                '- byConditions: [{type: Complete, status: "True"}]\n'
                '            - byConditions: [{type: Created, status: "True"}]')
    [d] = findings(text, "WM420")
    assert "'Created'" in d.message and "kubeflow/trainer v2.3.0" in d.message


def test_trainjob_failed_reasons_include_the_deadline() -> None:
    failed = '- byConditions: [{type: Failed, status: "True"}]'
    text = catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml")
    [d] = findings(vary(text, failed, failed.replace('"True"}', '"True", reason: DeadlineExceded}')), "WM423")
    assert "did you mean 'DeadlineExceeded'?" in d.message
    for reason in ("DeadlineExceeded", "FailedJobs", "ReachedMaxRestarts", "TrainingRuntimeNotSupported"):
        variant = vary(text, failed, failed.replace('"True"}', f'"True", reason: {reason}}}'))
        assert findings(variant, "WM423") == []


def test_a_trainjob_creates_one_jobset_and_runtime_dependent_objects() -> None:
    manifest = example("trainer-kubeflow-org-trainjob-v1alpha1/torch-multi-node-gpu.yaml")
    assert created_count(manifest, "jobset") == [1]
    model = model_for("trainer.kubeflow.org", "TrainJob", "v1alpha1")
    assert model is not None
    counts = {c.name: c.count for c in model.creates}
    assert counts["podgroup"] == counts["mpi-secret"] == counts["configmap"] == counts["pod"] == "unknown"


def test_a_trainjob_counting_processes_per_node_as_nodes() -> None:
    text = vary(catalog("trainer-kubeflow-org-trainjob-v1alpha1.yaml"),
                "replicasPath: .spec.trainer.numNodes // 1",
                "replicasPath: .spec.trainer.numProcPerNode // 1")
    [d] = findings(text, "WM536")
    assert ".spec.trainer.numProcPerNode" in d.message and ".spec.trainer.numNodes" in d.message
