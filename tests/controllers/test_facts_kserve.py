"""Facts of the KServe controller model (schemas/controllers/kserve.yaml), each shown on a real catalog
definition, example or recorded object: the outcome that changed with the fact. KServe: a LeaderWorkerSet
group is ParallelismSpec.GetSize pods; an autoscaler floors the replicas."""

from __future__ import annotations

from .helpers import (
    example,
    pods_by_component,
)


def test_an_llminferenceservice_group_size_with_data_local_above_data() -> None:
    manifest = example("serving-kserve-io-llminferenceservice-v1alpha2/autoscaled-pd.yaml")
    manifest["spec"].pop("prefill")
    manifest["spec"]["worker"] = manifest["spec"]["template"]
    manifest["spec"]["parallelism"] = {"data": 4, "dataLocal": 8}
    pods = pods_by_component(manifest)
    # data / dataLocal is 0 in integer division, at least 1: a group is the leader alone, 2 groups
    assert pods["leader-pod"] == 2 and pods["worker-pod"] == 0


def test_an_autoscaled_llminferenceservice_runs_min_replicas() -> None:
    pods = pods_by_component(example("serving-kserve-io-llminferenceservice-v1alpha2/autoscaled-pd.yaml"))
    assert pods["main-pod"] == 2 and pods["prefill-pod"] == 2
