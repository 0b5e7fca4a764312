"""Shape recognition on the real CRDs the package ships in its schema bundle: where each kind keeps its
pods."""

from __future__ import annotations

from typing import Any

import pytest

from wmaplint.draft.jqtext import shown
from wmaplint.draft.shapes import FRAGMENTS, POD_SPEC, TEMPLATE, recognise


def _sites(store: Any, group: str, version: str, kind: str) -> dict[str, Any]:
    [schema, *_] = store.lookup(group, version, kind)
    return {shown(site.location): site for site in recognise(schema.type).sites}


def test_a_jobset_keeps_one_pod_template_per_replicated_job_inside_a_job_template(bundle_store) -> None:
    sites = _sites(bundle_store, "jobset.x-k8s.io", "v1alpha2", "JobSet")
    assert list(sites) == [".spec.replicatedJobs[].template.spec.template"]
    site = sites[".spec.replicatedJobs[].template.spec.template"]
    assert site.shape == TEMPLATE
    assert shown(site.levels[site.job].location) == ".spec.replicatedJobs[].template.spec"  # the JobSpec
    assert shown(site.entry().location) == ".spec.replicatedJobs[]"


def test_replica_specs_keyed_by_type_are_a_map_of_templates(bundle_store) -> None:
    pytorch = _sites(bundle_store, "kubeflow.org", "v1", "PyTorchJob")
    assert list(pytorch) == [".spec.pytorchReplicaSpecs[].template"]
    mpi = _sites(bundle_store, "kubeflow.org", "v2beta1", "MPIJob")
    assert list(mpi) == [".spec.mpiReplicaSpecs[].template"]


def test_a_ray_job_has_head_workers_and_the_submitter(bundle_store) -> None:
    assert list(_sites(bundle_store, "ray.io", "v1", "RayJob")) == [
        ".spec.rayClusterSpec.headGroupSpec.template",
        ".spec.rayClusterSpec.workerGroupSpecs[].template",
        ".spec.submitterPodTemplate",
    ]


def test_a_leader_worker_set_has_two_templates(bundle_store) -> None:
    assert list(_sites(bundle_store, "leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet")) == [
        ".spec.leaderWorkerTemplate.leaderTemplate",
        ".spec.leaderWorkerTemplate.workerTemplate",
    ]


def test_milvus_components_are_flattened_pod_fields_with_shared_defaults(bundle_store) -> None:
    sites = _sites(bundle_store, "milvus.io", "v1beta1", "Milvus")
    assert len(sites) == 12 and ".spec.components.queryNode" in sites and ".spec.components.mixCoord" in sites
    query = sites[".spec.components.queryNode"]
    assert query.shape == FRAGMENTS
    assert {k: [shown(loc) for loc in v] for k, v in query.fragments.items()} == {
        "resourcesPath": [".spec.components.queryNode.resources"],
        "imagePath": [".spec.components.queryNode.image"],
        "labelsPath": [".spec.components.queryNode.podLabels"],
        "annotationsPath": [".spec.components.queryNode.podAnnotations"],
        "schedulerNamePath": [".spec.components.queryNode.schedulerName"],
        "priorityClassNamePath": [".spec.components.queryNode.priorityClassName"],
        "nodeAffinityPath": [".spec.components.queryNode.affinity.nodeAffinity"],
        "podAffinityPath": [".spec.components.queryNode.affinity.podAffinity"],
    }
    # .spec.components holds what all components share (image, resources...), not pods of its own
    assert shown(query.defaults.location) == ".spec.components"


def test_a_dynamo_service_has_its_resources_beside_a_pod_spec_of_extras(bundle_store) -> None:
    sites = _sites(bundle_store, "nvidia.com", "v1alpha1", "DynamoGraphDeployment")
    service = sites[".spec.services[]"]
    assert service.shape == FRAGMENTS
    paths = {k: [shown(loc) for loc in v] for k, v in service.fragments.items()}
    assert paths["resourcesPath"] == [".spec.services[].resources"]
    assert paths["containerPath"] == [".spec.services[].extraPodSpec.mainContainer"]
    assert paths["containersPath"] == [".spec.services[].extraPodSpec.containers"]


def test_an_inference_service_predictor_is_a_pod_spec_with_model_containers(bundle_store) -> None:
    sites = _sites(bundle_store, "serving.kserve.io", "v1beta1", "InferenceService")
    predictor = sites[".spec.predictor"]
    assert predictor.shape == FRAGMENTS
    models = [shown(loc) for loc in predictor.fragments["containerPath"]]
    assert ".spec.predictor.model" in models and ".spec.predictor.pytorch" in models
    assert [shown(loc) for loc in predictor.fragments["containersPath"]] == [".spec.predictor.containers"]
    transformer = sites[".spec.transformer"]
    assert transformer.shape == POD_SPEC and shown(transformer.metadata) == ".spec.transformer"


def test_pod_specs_of_an_llm_inference_service(bundle_store) -> None:
    sites = _sites(bundle_store, "serving.kserve.io", "v1alpha2", "LLMInferenceService")
    assert {".spec.template", ".spec.worker", ".spec.prefill.template", ".spec.prefill.worker",
            ".spec.router.scheduler.template"} <= set(sites)
    assert all(site.shape == POD_SPEC for site in sites.values())


def test_patches_of_a_training_runtime_are_not_pods_of_a_train_job(bundle_store) -> None:
    [schema] = bundle_store.lookup("trainer.kubeflow.org", "v1alpha1", "TrainJob")
    found = recognise(schema.type)
    assert [shown(site.location) for site in found.sites] == [".spec.trainer"]
    assert [shown(location) for location, _ in found.skipped] == [".spec.runtimePatches"]


@pytest.mark.parametrize(
    ("gvk", "location"),
    [(("", "v1", "Pod"), "."), (("apps", "v1", "Deployment"), ".spec.template"),
     (("batch", "v1", "CronJob"), ".spec.jobTemplate.spec.template"),
     (("serving.knative.dev", "v1", "Service"), ".spec.template")],
)
def test_built_in_and_knative_templates(bundle_store, gvk: tuple[str, str, str], location: str) -> None:
    assert list(_sites(bundle_store, *gvk)) == [location]


@pytest.mark.parametrize(
    "gvk",
    [("apps.nvidia.com", "v1alpha1", "NIMCache"), ("grove.io", "v1alpha1", "PodCliqueScalingGroup"),
     ("run.ai", "v1alpha1", "Karta"), ("", "v1", "ConfigMap")],
)
def test_kinds_without_pods_of_their_own(bundle_store, gvk: tuple[str, str, str]) -> None:
    # a NIMCache's caching pod asks for a flat {cpu, memory} map, not a ResourceRequirements
    assert _sites(bundle_store, *gvk) == {}
