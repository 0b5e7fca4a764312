import copy

import pytest

from wmaplint.resolve import rules
from wmaplint.resolve.tree import resolve_workload


def test_worked_example_is_one_workload_of_three_pods_and_twelve_gpus(
    jobset_definition, jobset_manifest, runtime
):
    workload = resolve_workload(jobset_definition, jobset_manifest, runtime=runtime)
    assert (workload.kind, workload.name, workload.namespace) == ("JobSet", "llm-train", "team-a")
    assert workload.total_pods == 3
    assert workload.total_resources["nvidia.com/gpu"] == 12
    job = workload.components["replicatedjob"]
    assert [(i.id, i.effective_replicas, i.pods) for i in job.instances] == [
        ("leader", 1, 1),
        ("workers", 2, 2),
    ]
    assert workload.root.instances[0].children == [job]
    assert workload.findings == []


def test_zip_mismatch_names_the_expression(jobset_definition, jobset_manifest, runtime):
    child = jobset_definition["spec"]["structureDefinition"]["childComponents"][0]
    # `//` outside the iteration collapses the stream: one output for two instances
    child["scaleDefinition"]["replicasPath"] = ".spec.replicatedJobs[].replicas // 1"
    manifest = copy.deepcopy(jobset_manifest)
    del manifest["spec"]["replicatedJobs"][0]["replicas"]
    workload = resolve_workload(jobset_definition, manifest, runtime=runtime)
    [finding] = workload.findings
    assert finding.rule == rules.INSTANCE_COUNT_MISMATCH
    assert finding.definition_path == (
        "spec",
        "structureDefinition",
        "childComponents",
        0,
        "scaleDefinition",
        "replicasPath",
    )
    assert "instance ids count (2) does not match results count (1)" in finding.message


def test_replicas_as_numeric_strings_and_not_numbers(jobset_definition, jobset_manifest, runtime):
    child = jobset_definition["spec"]["structureDefinition"]["childComponents"][0]
    child["scaleDefinition"] = {"replicasPath": ".spec.replicatedJobs[] | (.replicas // 1 | tostring)"}
    workload = resolve_workload(jobset_definition, jobset_manifest, runtime=runtime)
    assert workload.total_pods == 3 and workload.findings == []
    child["scaleDefinition"] = {"replicasPath": ".spec.replicatedJobs[] | .name"}
    workload = resolve_workload(jobset_definition, jobset_manifest, runtime=runtime)
    assert {f.rule for f in workload.findings} == {rules.REPLICAS_NOT_A_NUMBER}
    assert 'replicas value "leader" at index 0 is not a number' in workload.findings[0].message


def test_min_replicas_when_replicas_is_absent(runtime):
    definition = _single(
        {"podTemplateSpecPath": ".spec.template"},
        {"minReplicasPath": ".spec.min", "maxReplicasPath": ".spec.max"},
    )
    workload = resolve_workload(
        definition, {"kind": "Thing", "spec": {"min": 3, "max": 9, "template": _pod(1)}}, runtime=runtime
    )
    assert workload.total_pods == 3 and workload.total_resources["nvidia.com/gpu"] == 3


def test_pod_spec_path_with_metadata_path(runtime):
    definition = _single({"podSpecPath": ".spec.pod", "metadataPath": ".spec.meta"}, {"replicasPath": '"2"'})
    workload = resolve_workload(
        definition, {"spec": {"pod": _pod(2)["spec"], "meta": {"labels": {"a": "b"}}}}, runtime=runtime
    )
    inst = workload.root.instances[0]
    assert (
        inst.template.metadata == {"labels": {"a": "b"}} and workload.total_resources["nvidia.com/gpu"] == 4
    )


def test_fragments_merge_by_index_and_misalignment_is_reported(runtime):
    definition = _single(
        {
            "fragmentedPodSpecDefinition": {
                "resourcesPath": ".spec.parts[] | .resources",
                "containerPath": '.spec.parts[] | .containers[]? | select(.name == "main")',
            }
        },
        {"replicasPath": ".spec.parts[] | .replicas"},
        instance_id=".spec.parts[].name",
    )
    manifest = {
        "spec": {
            "parts": [
                {
                    "name": "a",
                    "replicas": 2,
                    "resources": {"limits": {"nvidia.com/gpu": 1}},
                    "containers": [{"name": "x"}],
                },
                {
                    "name": "b",
                    "replicas": 1,
                    "resources": {"limits": {"nvidia.com/gpu": 2}},
                    "containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": 8}}}],
                },
            ]
        }
    }
    workload = resolve_workload(definition, manifest, runtime=runtime)
    a, b = workload.root.instances
    # containerPath gave one output: it lands on instance a (index 0) -- the runtime's silent shift
    assert a.template.resources["nvidia.com/gpu"] == 8
    assert b.template.resources["nvidia.com/gpu"] == 2
    assert rules.FRAGMENT_MISALIGNED in {f.rule for f in workload.findings}


def test_child_subtrees_multiply_by_parent_replicas(runtime):
    # LeaderWorkerSet shape: group (replicas) -> leader (1) + worker (size - 1)
    definition = {
        "spec": {
            "structureDefinition": {
                "rootComponent": {"name": "lws", "kind": {"group": "x", "version": "v1", "kind": "LWS"}},
                "childComponents": [
                    {
                        "name": "group",
                        "ownerRef": "lws",
                        "scaleDefinition": {"replicasPath": ".spec.replicas"},
                    },
                    {
                        "name": "leader",
                        "ownerRef": "group",
                        "specDefinition": {"podTemplateSpecPath": ".spec.leader"},
                        "scaleDefinition": {"replicasPath": '"1"'},
                    },
                    {
                        "name": "worker",
                        "ownerRef": "group",
                        "specDefinition": {"podTemplateSpecPath": ".spec.worker"},
                        "scaleDefinition": {"replicasPath": ".spec.size - 1"},
                    },
                ],
            }
        }
    }
    manifest = {"spec": {"replicas": 3, "size": 4, "leader": _pod(0), "worker": _pod(8)}}
    workload = resolve_workload(definition, manifest, runtime=runtime)
    assert workload.total_pods == 3 * (1 + 3)
    assert workload.total_resources["nvidia.com/gpu"] == 3 * 3 * 8


def test_runtime_error_is_a_finding_with_the_expression_path(runtime):
    definition = _single({"podTemplateSpecPath": ".spec.template.x.y"}, {})
    workload = resolve_workload(definition, {"spec": {"template": {"x": 5}}}, runtime=runtime)
    [finding] = workload.findings
    assert finding.rule == rules.JQ_RUNTIME_ERROR
    assert finding.definition_path[-2:] == ("specDefinition", "podTemplateSpecPath")


def test_hostile_inputs_do_not_raise(runtime):
    deep: object = {}
    for _ in range(10_000):
        deep = {"a": deep}
    for definition, manifest in [
        ({}, {}),
        ("x", None),
        (_single({"podTemplateSpecPath": "."}, {}), deep),
        (_single({"podTemplateSpecPath": ".spec[]"}, {}), {"spec": list(range(100_000))}),
        ({"spec": {"structureDefinition": {"rootComponent": [], "childComponents": 5}}}, {}),
    ]:
        workload = resolve_workload(definition, manifest, runtime=runtime)
        assert workload is not None


def test_ownership_cycle_does_not_hang(runtime):
    definition = _single({"podTemplateSpecPath": ".spec.template"}, {})
    definition["spec"]["structureDefinition"]["childComponents"] = [
        {"name": "a", "ownerRef": "b"},
        {"name": "b", "ownerRef": "a"},
    ]
    workload = resolve_workload(definition, {"spec": {"template": _pod(1)}}, runtime=runtime)
    assert workload.total_pods == 1


def _pod(gpus: int) -> dict:
    return {"spec": {"containers": [{"name": "main", "resources": {"limits": {"nvidia.com/gpu": gpus}}}]}}


def _single(spec: dict, scale: dict, instance_id: str | None = None) -> dict:
    root = {
        "name": "thing",
        "kind": {"group": "example.com", "version": "v1", "kind": "Thing"},
        "specDefinition": spec,
        "scaleDefinition": scale,
    }
    if instance_id:
        root["instanceIdPath"] = instance_id
    return {
        "apiVersion": "run.ai/v1alpha1",
        "kind": "Karta",
        "metadata": {"name": "thing"},
        "spec": {"structureDefinition": {"rootComponent": root}},
    }


@pytest.mark.parametrize(
    ("expression", "pods", "message"),
    [
        ('"4"', 4, None),
        ('"2.0"', 2, None),  # strconv.ParseFloat reads it; integral
        ('"1e1"', 10, None),
        ("3.0", 3, None),
        ("infinite", 1, "is infinite"),
        ("-infinite", 1, "not a non-negative integer"),
        ("nan", 1, "is NaN"),
        ("-5", 1, "not a non-negative integer"),
        ('"-5"', 1, "not a non-negative integer"),
        ("1.5", 1, "not a non-negative integer"),
        ('"1.5"', 1, "not a non-negative integer"),
        ('" 3"', 1, "is not a number"),  # ParseInt does not trim spaces
        ('"1_000"', 1, "is not a number"),  # nor read underscores in base 10
        ('"NaN"', 1, "is not a number"),
        ("pow(2; 64)", 1, "within int64"),
    ],
)
def test_replica_counts_are_finite_non_negative_integers(runtime, expression, pods, message):
    definition = _single({"podTemplateSpecPath": ".spec.template"}, {"replicasPath": expression})
    workload = resolve_workload(definition, {"kind": "Thing", "spec": {"template": _pod(1)}}, runtime=runtime)
    assert workload.total_pods == pods
    if message is None:
        assert workload.findings == []
    else:
        assert [f.rule for f in workload.findings] == [rules.REPLICAS_NOT_A_NUMBER]
        assert message in workload.findings[0].message


def test_fragments_that_are_all_null_still_give_the_instance_its_pods(runtime):
    # Milvus-style: nothing in the manifest overrides the component's pod fields, yet it runs `replicas` pods
    definition = {
        "apiVersion": "run.ai/v1alpha1",
        "kind": "Karta",
        "spec": {"structureDefinition": {"rootComponent": {
            "name": "svc",
            "kind": {"group": "example.com", "version": "v1", "kind": "Service"},
            "specDefinition": {"fragmentedPodSpecDefinition": {
                "imagePath": ".spec.proxy.image", "resourcesPath": ".spec.proxy.resources"}},
            "scaleDefinition": {"replicasPath": ".spec.proxy.replicas // 1"},
            "statusDefinition": {"statusMappings": {}},
        }}},
    }
    manifest = {"apiVersion": "example.com/v1", "kind": "Service", "metadata": {"name": "s"},
                "spec": {"proxy": {"replicas": 2}}}
    workload = resolve_workload(definition, manifest, runtime=runtime)
    assert workload.total_pods == 2 and workload.findings == []
