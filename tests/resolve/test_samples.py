"""Real upstream manifests from ../shared/samples resolved with the JobSet definition of the fixtures.

Hand counts (pods per replicatedJob = replicas (default 1) x parallelism (default 1)):
- simple-paralleljobs: workers 1 x 4 = 4, driver 1 x 1 = 1 -> 5 pods; no resources -> 0 GPUs.
- pytorch-cnn-mnist: workers 1 x 4 = 4 pods; no resources -> 0 GPUs.
- tpu-multislice-v6e-jax-workload: slice 2 x 4 = 8 pods, each google.com/tpu 4 -> 32 TPUs, 0 GPUs.
"""

import pytest
import yaml

from tests.resolve.typed import findings, resolve


@pytest.mark.parametrize(
    ("sample", "pods", "instances", "extra"),
    [
        ("simple-paralleljobs.yaml", 5, {"workers": 4, "driver": 1}, {}),
        ("pytorch-cnn-mnist.yaml", 4, {"workers": 4}, {}),
        ("tpu-multislice-v6e-jax-workload.yaml", 8, {"slice": 8}, {"google.com/tpu": 32}),
    ],
)
def test_jobset_samples(shared, jobset_definition, runtime, sample, pods, instances, extra):
    manifest = yaml.safe_load((shared / "samples" / "jobset.x-k8s.io" / sample).read_text())
    workload = resolve(jobset_definition, manifest, runtime=runtime)
    assert findings(workload) == []
    assert workload.total_pods == pods
    assert workload.total_resources.get("nvidia.com/gpu", 0) == 0
    assert {i.id: i.pods for i in workload.components["replicatedjob"].instances} == instances
    for name, amount in extra.items():
        assert workload.total_resources[name] == amount
    # no status written in the samples: only the catch-all `initializing: [{}]` matches
    assert workload.status.status == "Initializing"
    assert workload.gangs[0].min_available == pods
