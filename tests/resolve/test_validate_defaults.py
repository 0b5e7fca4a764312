"""Required fields that carry a schema default are filled by the API server before validation."""

from wmaplint.resolve.validate import structural_problems
from wmaplint.schema.store import SchemaStore


def raycluster_schema():
    [resolved] = SchemaStore([], cache_dir=None).lookup("ray.io", "v1", "RayCluster")  # the bundled CRD
    return resolved.raw


def worker_group(**fields):
    group = {"groupName": "gpu", "template": {"spec": {"containers": [{"name": "w", "image": "ray"}]}}}
    group.update(fields)
    return {
        "apiVersion": "ray.io/v1",
        "kind": "RayCluster",
        "metadata": {"name": "c"},
        "spec": {
            "headGroupSpec": {"template": {"spec": {"containers": [{"name": "h", "image": "ray"}]}}},
            "workerGroupSpecs": [group],
        },
    }


def test_missing_required_field_with_a_default_is_not_a_finding():
    # minReplicas (default 0) and maxReplicas (default 2147483647) are required but defaulted
    assert structural_problems(raycluster_schema(), worker_group(replicas=2)) == []


def test_missing_required_field_without_a_default_is_still_reported():
    manifest = worker_group(replicas=2)
    del manifest["spec"]["workerGroupSpecs"][0]["groupName"]
    messages = [p.message for p in structural_problems(raycluster_schema(), manifest)]
    assert messages == ["spec.workerGroupSpecs[0].groupName: Required value"]
