"""Every workload manifest in ../shared/samples resolves with the shipped catalog into the tree counted by
hand below (collected only when ../shared is present; see conftest.py).

Counts are pods and nvidia.com/gpu of what the object asks for (replicas x pods per replica), counted from
the files by hand; comments say how. A manifest exits 0, or 1 when it breaks a rule of its own CRD.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.resolve.references import is_referenced_object

from .conftest import SHARED

SAMPLES = SHARED / "samples"

# sample -> [(kind, pods, GPUs)] per workload document, in file order
EXPECTED: dict[str, list[tuple[str, int, int]]] = {
    # one pod from podTemplate (cpu 2, memory 4Gi)
    "agents.x-k8s.io/sandbox-aio.yaml": [("Sandbox", 1, 0)],
    # NIMCache: the caching job's pod; NIMService: replicas 1 x pipeline 2 pods x 8 GPUs
    "apps.nvidia.com/nim-multi-node-nimservice.yaml": [("NIMCache", 1, 0), ("NIMService", 2, 16)],
    # NIMService: scale.hpa.minReplicas 1 x 1 GPU (the sample also sets replicas, which its CRD forbids)
    "apps.nvidia.com/nim-standalone-autoscaling-llm.yaml": [("NIMCache", 1, 0), ("NIMService", 1, 1)],
    "apps.nvidia.com/nim-standalone-basic-llm.yaml": [("NIMCache", 1, 0), ("NIMService", 1, 1)],
    "apps.nvidia.com/nimcache-hf.yaml": [("NIMCache", 1, 0)],
    # cliques frontend 2, vision-encoder 1, pleader 1, pworker 4, dleader 1, dworker 2
    "grove.io/pcs-complete-inference-pipeline.yaml": [("PodCliqueSet", 11, 0)],
    # pleader 2 + pworker 8 (scaling group of 2 replicas x 1 + 4) + dleader 1 + dworker 2
    "grove.io/pcs-multi-node-disaggregated.yaml": [("PodCliqueSet", 13, 0)],
    # pca 3 + pcb 2 + pcc 2 + pcd 2
    "grove.io/pcs-simple1.yaml": [("PodCliqueSet", 9, 0)],
    # workers: 1 job x parallelism 4
    "jobset.x-k8s.io/pytorch-cnn-mnist.yaml": [("JobSet", 4, 0)],
    # workers 1 x 4 + driver 1 x 1
    "jobset.x-k8s.io/simple-paralleljobs.yaml": [("JobSet", 5, 0)],
    # slice: 2 jobs x parallelism 4 = 8 pods, each 4 google.com/tpu (32 TPUs, no GPUs)
    "jobset.x-k8s.io/tpu-multislice-v6e-jax-workload.yaml": [("JobSet", 8, 0)],
    # launcher 1 + workers 2 (cpu 2, memory 4Gi each)
    "kubeflow.org/mpijob-v1-tensorflow-mnist.yaml": [("MPIJob", 3, 0)],
    "kubeflow.org/mpijob-v2beta1-pi.yaml": [("MPIJob", 3, 0)],
    # launcher 1 (no GPU) + workers 2 x 1 GPU
    "kubeflow.org/mpijob-v2beta1-tensorflow-benchmarks.yaml": [("MPIJob", 3, 2)],
    # no Master; workers replicas 2 (elastic 1..3)
    "kubeflow.org/pytorchjob-v1-elastic-imagenet.yaml": [("PyTorchJob", 2, 0)],
    # master 1 + worker 1, 1 GPU each
    "kubeflow.org/pytorchjob-v1-mnist-nccl.yaml": [("PyTorchJob", 2, 2)],
    "kubeflow.org/pytorchjob-v1-simple.yaml": [("PyTorchJob", 2, 0)],
    # 3 groups x size 4 (leader + 3 workers)
    "leaderworkerset.x-k8s.io/lws-multi-template.yaml": [("LeaderWorkerSet", 12, 0)],
    "leaderworkerset.x-k8s.io/lws-sample.yaml": [("LeaderWorkerSet", 12, 0)],
    # 2 groups x size 2, 8 GPUs per pod
    "leaderworkerset.x-k8s.io/lws-vllm-gpu.yaml": [("LeaderWorkerSet", 4, 32)],
    # no image: Milvus 2.6 topology (mixCoord, proxy, dataNode, streamingNode, queryNode, 1 each)
    "milvus.io/milvus-cluster-demo.yaml": [("Milvus", 5, 0)],
    # image v2.5.16: rootCoord, dataCoord, queryCoord, indexCoord, proxy, dataNode, queryNode, indexNode
    "milvus.io/milvus-cluster-resource.yaml": [("Milvus", 8, 0)],
    # no image (2.6): mixCoord 1 + proxy groups 1+1 + dataNode 2+2 + queryNode 2+2 + streamingNode 1+1
    "milvus.io/milvus-deployment-groups.yaml": [("Milvus", 13, 0)],
    # Frontend 1; decode and prefill 1 replica x 2 nodes, 4 GPUs each in Dynamo's own `gpu`
    "nvidia.com/dgd-v1alpha1-sglang-disagg-multinode.yaml": [("DynamoGraphDeployment", 5, 16)],
    # Frontend 1; decode and prefill workers 1 pod x 1 GPU in Dynamo's own `gpu`
    "nvidia.com/dgd-v1alpha1-vllm-disagg.yaml": [("DynamoGraphDeployment", 3, 2)],
    # Frontend 1; VllmDecodeWorker 1 x nvidia.com/gpu 1
    "nvidia.com/dgd-v1beta1-vllm-agg.yaml": [("DynamoGraphDeployment", 2, 1)],
    # head 1; small-group replicas 0 (autoscaled from 0)
    "ray.io/ray-cluster.autoscaler.yaml": [("RayCluster", 1, 0)],
    # head 1 + workergroup 1
    "ray.io/ray-cluster.sample.yaml": [("RayCluster", 2, 0)],
    # head 1 with 4 GPUs, no worker groups
    "ray.io/ray-cluster.verl.yaml": [("RayCluster", 1, 4)],
    # head 1 (4 GPUs) + the K8sJobMode submitter pod
    "ray.io/ray-job.batch-inference.yaml": [("RayJob", 2, 4)],
    # head 1 (1 GPU) + submitter
    "ray.io/ray-job.pytorch-distributed-training.yaml": [("RayJob", 2, 1)],
    # head 1 + small-group 1 + submitter
    "ray.io/ray-job.sample.yaml": [("RayJob", 3, 0)],
    # head 1 + gpu-group 1 (4 GPUs)
    "ray.io/ray-service.llm-serve.yaml": [("RayService", 2, 4)],
    "ray.io/ray-service.sample.yaml": [("RayService", 2, 0)],
    # head 1 + gpu-group 1 (1 GPU)
    "ray.io/ray-service.stable-diffusion.yaml": [("RayService", 2, 1)],
    # parallelism 2, 1 GPU each (the PodGroup beside it is not a workload of the catalog)
    "scheduling.run.ai/kai-external-podgroup-job.yaml": [("Job", 2, 2)],
    # minScale unset: 1 pod
    "serving.knative.dev/ksvc-helloworld.yaml": [("Service", 1, 0)],
    "serving.knative.dev/ksvc-multicontainer.yaml": [("Service", 1, 0)],
    "serving.knative.dev/ksvc-volumes-pvc.yaml": [("Service", 1, 0)],
    # predictor minReplicas default 1, 1 GPU
    "serving.kserve.io/isvc-hf-storage-gpu.yaml": [("InferenceService", 1, 1)],
    "serving.kserve.io/isvc-torchserve-v2-mnist-gpu.yaml": [("InferenceService", 1, 1)],
    # transformer collocated in the predictor pod: 1 pod
    "serving.kserve.io/isvc-transformer-collocation.yaml": [("InferenceService", 1, 0)],
    # 1 group of data/dataLocal = 32/8 = 4 pods (leader + 3 workers) x 8 GPUs; scheduler pod from a preset
    "serving.kserve.io/llmisvc-v1alpha1-dp-ep-deepseek-r1-gpu-deepep-ht.yaml": [
        ("LLMInferenceService", 4, 32)
    ],
    # main 1 + prefill 2, 1 GPU each; scheduler pod from a preset
    "serving.kserve.io/llmisvc-v1alpha2-pd-qwen2-7b-gpu.yaml": [("LLMInferenceService", 3, 3)],
    # main replicas 3 x 1 GPU
    "serving.kserve.io/llmisvc-v1alpha2-qwen2-7b-gpu.yaml": [("LLMInferenceService", 3, 3)],
    # numNodes 3; the runtime torch-distributed gives the pod template (no resources)
    "trainer.kubeflow.org/trainjob-01-multi-node.yaml": [("TrainJob", 3, 0)],
    # numNodes 2 with resourcesPerNode (cpu 2, memory 4Gi)
    "trainer.kubeflow.org/trainjob-02-runtime-patches.yaml": [("TrainJob", 2, 0)],
    # numNodes 2 x 1 GPU (runtime flux-distributed not among the samples)
    "trainer.kubeflow.org/trainjob-flux-lammps-train-gpus.yaml": [("TrainJob", 2, 2)],
}
# samples that break a rule of their own CRD (exit 1): spec.replicas together with spec.scale.enabled
BREAKS_ITS_CRD = {"apps.nvidia.com/nim-standalone-autoscaling-llm.yaml"}
# objects workloads name, not workloads
REFERENCED = {"trainer.kubeflow.org/clustertrainingruntime-torch-distributed.yaml"}
RUNTIME = str(SAMPLES / "trainer.kubeflow.org" / "clustertrainingruntime-torch-distributed.yaml")


def _tree(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["tree", *args, "--format", "json"])
    return result.exit_code, json.loads(result.stdout) if result.stdout.strip() else {}


def test_every_sample_is_counted_here() -> None:
    found = {str(p.relative_to(SAMPLES)) for p in SAMPLES.rglob("*.yaml")}
    assert found == set(EXPECTED) | REFERENCED


@pytest.mark.parametrize("sample", sorted(EXPECTED))
def test_sample_resolves_to_its_hand_count(sample: str) -> None:
    code, out = _tree(str(SAMPLES / sample))
    assert code == (1 if sample in BREAKS_ITS_CRD else 0), out.get("diagnostics")
    got = [(w["kind"], w["totals"]["pods"], w["totals"]["gpus"]) for w in out["workloads"]]
    assert got == EXPECTED[sample]
    for workload in out["workloads"]:
        assert workload["findings"] == [], workload["findings"]


def test_tpus_are_totalled_by_name() -> None:
    _, out = _tree(str(SAMPLES / "jobset.x-k8s.io" / "tpu-multislice-v6e-jax-workload.yaml"))
    assert out["workloads"][0]["totals"]["accelerators"] == {"google.com/tpu": 32}


def test_dynamo_gpus_in_its_own_words_are_unseen_by_a_platform() -> None:
    _, out = _tree(str(SAMPLES / "nvidia.com" / "dgd-v1alpha1-sglang-disagg-multinode.yaml"))
    assert out["workloads"][0]["totals"]["unseenByPlatform"] == {"nvidia.com/gpu": "16"}


@pytest.mark.parametrize(
    "sample", [f"trainer.kubeflow.org/trainjob-0{n}.yaml" for n in ("1-multi-node", "2-runtime-patches")]
)
def test_trainjobs_resolve_with_their_runtime(sample: str) -> None:
    alone = _tree(str(SAMPLES / sample))[1]["workloads"][0]
    assert "ClusterTrainingRuntime torch-distributed, which is not in the input" in alone["notes"][0]
    code, out = _tree("--with", RUNTIME, str(SAMPLES / sample))
    [workload] = out["workloads"]
    assert code == 0 and (workload["kind"], workload["totals"]["pods"], workload["totals"]["gpus"]) == tuple(
        EXPECTED[sample][0]
    )
    assert "from ClusterTrainingRuntime torch-distributed" in workload["notes"][0]
    node = next(c for c in workload["components"] if c["name"] == "node")
    assert node["instances"][0]["pod"]["containers"] == ["node"]  # the runtime's trainer container


def test_the_runtime_is_a_referenced_object() -> None:
    import yaml

    for sample in REFERENCED:
        assert is_referenced_object(yaml.safe_load((SAMPLES / sample).read_text(encoding="utf-8")))
