import copy

import pytest

from tests.resolve.typed import findings, resolve, span_at, typed
from wmaplint.rules.resolution.fragment_misaligned import RULE as FRAGMENT_MISALIGNED
from wmaplint.rules.resolution.instance_count_mismatch import RULE as INSTANCE_COUNT_MISMATCH
from wmaplint.rules.resolution.jq_runtime_error import RULE as JQ_RUNTIME_ERROR
from wmaplint.rules.resolution.replicas_not_a_number import RULE as REPLICAS_NOT_A_NUMBER


def test_worked_example_is_one_workload_of_three_pods_and_twelve_gpus(
    jobset_definition, jobset_manifest, runtime
):
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    assert (workload.kind, workload.name, workload.namespace) == ("JobSet", "llm-train", "team-a")
    assert workload.total_pods == 3
    assert workload.total_resources["nvidia.com/gpu"] == 12
    job = workload.components["replicatedjob"]
    assert [(i.id, i.effective_replicas, i.pods) for i in job.instances] == [
        ("leader", 1, 1),
        ("workers", 2, 2),
    ]
    assert workload.root.instances[0].children == [job]
    assert findings(workload) == []


def test_zip_mismatch_names_the_expression(jobset_definition, jobset_manifest, runtime):
    child = jobset_definition["spec"]["structureDefinition"]["childComponents"][0]
    # `//` outside the iteration collapses the stream: one output for two instances
    child["scaleDefinition"]["replicasPath"] = ".spec.replicatedJobs[].replicas // 1"
    manifest = copy.deepcopy(jobset_manifest)
    del manifest["spec"]["replicatedJobs"][0]["replicas"]
    definition = typed(jobset_definition)
    workload = resolve(definition, manifest, runtime=runtime)
    [finding] = findings(workload)
    assert finding.rule == INSTANCE_COUNT_MISMATCH.id
    assert finding.span == span_at(
        definition, "spec", "structureDefinition", "childComponents", 0, "scaleDefinition", "replicasPath"
    )
    assert "instance ids count (2) does not match results count (1)" in finding.message


def test_replicas_as_numeric_strings_and_not_numbers(jobset_definition, jobset_manifest, runtime):
    child = jobset_definition["spec"]["structureDefinition"]["childComponents"][0]
    child["scaleDefinition"] = {"replicasPath": ".spec.replicatedJobs[] | (.replicas // 1 | tostring)"}
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    assert workload.total_pods == 3 and findings(workload) == []
    child["scaleDefinition"] = {"replicasPath": ".spec.replicatedJobs[] | .name"}
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    assert {f.rule for f in findings(workload)} == {REPLICAS_NOT_A_NUMBER.id}
    assert 'replicas value "leader" at index 0 is not a number' in findings(workload)[0].message


def test_min_replicas_when_replicas_is_absent(runtime):
    definition = _single(
        {"podTemplateSpecPath": ".spec.template"},
        {"minReplicasPath": ".spec.min", "maxReplicasPath": ".spec.max"},
    )
    workload = resolve(
        definition, {"kind": "Thing", "spec": {"min": 3, "max": 9, "template": _pod(1)}}, runtime=runtime
    )
    assert workload.total_pods == 3 and workload.total_resources["nvidia.com/gpu"] == 3


def test_pod_spec_path_with_metadata_path(runtime):
    definition = _single({"podSpecPath": ".spec.pod", "metadataPath": ".spec.meta"}, {"replicasPath": '"2"'})
    workload = resolve(
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
    workload = resolve(definition, manifest, runtime=runtime)
    a, b = workload.root.instances
    # containerPath gave one output: it lands on instance a (index 0) -- the runtime's silent shift
    assert a.template.resources["nvidia.com/gpu"] == 8
    assert b.template.resources["nvidia.com/gpu"] == 2
    assert FRAGMENT_MISALIGNED.id in {f.rule for f in findings(workload)}


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
    workload = resolve(definition, manifest, runtime=runtime)
    assert workload.total_pods == 3 * (1 + 3)
    assert workload.total_resources["nvidia.com/gpu"] == 3 * 3 * 8


def test_runtime_error_is_a_finding_with_the_expression_path(runtime):
    definition = _single({"podTemplateSpecPath": ".spec.template.x.y"}, {})
    definition = typed(definition)
    workload = resolve(definition, {"spec": {"template": {"x": 5}}}, runtime=runtime)
    [finding] = findings(workload)
    assert finding.rule == JQ_RUNTIME_ERROR.id
    root = ("spec", "structureDefinition", "rootComponent")
    assert finding.span == span_at(definition, *root, "specDefinition", "podTemplateSpecPath")


def test_hostile_inputs_do_not_raise(runtime):
    deep: object = {}
    for _ in range(10_000):
        deep = {"a": deep}
    for definition, manifest in [
        ({}, {}),
        ({}, None),  # a definition that is not a mapping never reaches resolution: it is no Definition
        (_single({"podTemplateSpecPath": "."}, {}), deep),
        (_single({"podTemplateSpecPath": ".spec[]"}, {}), {"spec": list(range(100_000))}),
        ({"spec": {"structureDefinition": {"rootComponent": [], "childComponents": 5}}}, {}),
    ]:
        workload = resolve(definition, manifest, runtime=runtime)
        assert workload is not None


def test_ownership_cycle_does_not_hang(runtime):
    definition = _single({"podTemplateSpecPath": ".spec.template"}, {})
    definition["spec"]["structureDefinition"]["childComponents"] = [
        {"name": "a", "ownerRef": "b"},
        {"name": "b", "ownerRef": "a"},
    ]
    workload = resolve(definition, {"spec": {"template": _pod(1)}}, runtime=runtime)
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
        ('"+4"', 4, None),
        ('"2.0"', 1, "is not a number"),  # strconv.ParseInt(s, 10, 32) reads no fraction or exponent
        ('"1e1"', 1, "is not a number"),
        ('"99999999999"', 1, "is not a number"),
        ('"' + "0" * 5000 + '7"', 7, None),  # leading zeros: ParseInt reads 7
        ("3.0", 3, None),
        ("1e1", 10, None),
        ("infinite", 1, "is infinite"),
        ("-infinite", 1, "not a non-negative integer"),
        ("nan", 1, "is NaN"),
        ("-5", 1, "not a non-negative integer"),
        ('"-5"', 1, "not a non-negative integer"),
        ("1.5", 1, "not a non-negative integer"),
        ('"1.5"', 1, "is not a number"),
        ('" 3"', 1, "is not a number"),  # ParseInt does not trim spaces
        ('"1_000"', 1, "is not a number"),  # nor read underscores in base 10
        ('"NaN"', 1, "is not a number"),
        ("pow(2; 64)", 1, "within int32"),
        ("pow(2; 31)", 1, "within int32"),  # the runtime's replica fields are int32
        ("pow(2; 31) - 1", 2**31 - 1, None),
    ],
)
def test_replica_counts_are_finite_non_negative_integers(runtime, expression, pods, message):
    definition = _single({"podTemplateSpecPath": ".spec.template"}, {"replicasPath": expression})
    workload = resolve(definition, {"kind": "Thing", "spec": {"template": _pod(1)}}, runtime=runtime)
    assert workload.total_pods == pods
    if message is None:
        assert findings(workload) == []
    else:
        assert [f.rule for f in findings(workload)] == [REPLICAS_NOT_A_NUMBER.id]
        assert message in findings(workload)[0].message


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
    workload = resolve(definition, manifest, runtime=runtime)
    assert workload.total_pods == 2 and findings(workload) == []


GPU = "nvidia.com/gpu"


def _services(fragments: dict) -> dict:
    """A Dynamo-like definition: one instance per .spec.services entry, with the fragments given."""
    return {
        "apiVersion": "run.ai/v1alpha1",
        "kind": "Karta",
        "spec": {"structureDefinition": {
            "rootComponent": {
                "name": "graph",
                "kind": {"group": "example.com", "version": "v1", "kind": "Graph"},
                "statusDefinition": {"statusMappings": {}},
            },
            "childComponents": [{
                "name": "service", "ownerRef": "graph", "instanceIdPath": ".spec.services | keys[]",
                "specDefinition": {"fragmentedPodSpecDefinition": fragments},
                "scaleDefinition": {"replicasPath": ".spec.services[] | (.replicas // 1)"},
                "podSelector": {"componentInstanceSelector": {"idPath": ".metadata.labels.svc"}},
            }],
        }},
    }


def test_gpus_in_the_frameworks_own_words_count_and_are_marked_unseen(runtime):
    from wmaplint.report.workloads import render_text, unseen_note
    from wmaplint.resolve.quantities import platform_gpus

    definition = _services(
        {"containerPath": ".spec.services[].main", "resourcesPath": ".spec.services[].resources"}
    )
    services = {
        "decode": {"replicas": 2, "resources": {"limits": {"gpu": "1", "cpu": "2"}}, "main": {"image": "x"}},
        "tpu": {"resources": {"requests": {"gpu": "4", "gpuType": "google.com/tpu"}}, "main": {"image": "x"}},
        # a GPU the container itself asks for is seen by a platform: the framework's word adds nothing
        "seen": {"resources": {"limits": {"gpu": "8"}}, "main": {"resources": {"limits": {GPU: 2}}}},
    }
    manifest = {"kind": "Graph", "metadata": {"name": "g"}, "spec": {"services": services}}
    workload = resolve(definition, manifest, runtime=runtime)
    assert findings(workload) == []
    assert workload.total_resources == {"nvidia.com/gpu": 4, "google.com/tpu": 4}
    assert workload.total_unseen == {"nvidia.com/gpu": 2, "google.com/tpu": 4}
    assert platform_gpus(workload) == 2
    note = unseen_note(workload)
    assert note is not None
    assert "Graph's own resource fields ask for 2 of the 4 GPUs, 4 of the 4 google.com/tpu, not" in note
    assert note.endswith("a platform reading the definition counts 2 GPUs")
    text = render_text([workload])
    assert "Graph g: 1 workload, 4 pods, 4 GPUs, 4 google.com/tpu" in text
    assert "decode: replicas 2 -> 2 pods, 2 GPUs  (per pod: 1 GPU not seen by a platform)" in text


def test_a_resources_fragment_without_containers_keeps_its_kubernetes_part(runtime):
    definition = _services({"resourcesPath": ".spec.services[].resources"})
    services = {"a": {"resources": {"limits": {"gpu": "1", "cpu": "2", "memory": "1Gi"}}}}
    manifest = {"kind": "Graph", "metadata": {"name": "g"}, "spec": {"services": services}}
    workload = resolve(definition, manifest, runtime=runtime)
    assert findings(workload) == []  # gpu/gpuType/custom are not read as (invalid) Kubernetes quantities
    assert workload.total_resources == {"nvidia.com/gpu": 1, "cpu": 2, "memory": 2**30}


def test_other_accelerators_are_totalled_by_name(runtime):
    from wmaplint.report.workloads import render_text
    from wmaplint.resolve.quantities import totals

    definition = _single({"podTemplateSpecPath": ".spec.template"}, {"replicasPath": "8"})
    template = {"spec": {"containers": [{"name": "m", "resources": {"limits": {"google.com/tpu": 4}}}]}}
    manifest = {"kind": "Thing", "spec": {"template": template}}
    workload = resolve(definition, manifest, runtime=runtime)
    assert totals(workload)["accelerators"] == {"google.com/tpu": 32}
    assert "8 pods, 0 GPUs, 32 google.com/tpu" in render_text([workload])


def test_absurd_replica_products_stay_printable(runtime):
    """Nested components each at the int32 maximum: totals far beyond 10^24 print approximately."""
    from wmaplint.report.workloads import render_json, render_text

    children = [
        {
            "name": f"c{i}",
            "ownerRef": f"c{i - 1}" if i else "root",
            "scaleDefinition": {"replicasPath": "2147483647"},
        }
        for i in range(250)
    ]
    children[-1]["specDefinition"] = {"podTemplateSpecPath": ".spec.template"}
    root = {
        "name": "root",
        "kind": {"group": "example.com", "version": "v1", "kind": "Thing"},
        "statusDefinition": {"statusMappings": {}},
    }
    definition = {
        "apiVersion": "run.ai/v1alpha1",
        "kind": "Karta",
        "spec": {"structureDefinition": {"rootComponent": root, "childComponents": children}},
    }
    largest = str(2**63 - 1)
    limits = {"nvidia.com/gpu": largest, "memory": largest, "cpu": largest}
    template = {"spec": {"containers": [{"name": "m", "resources": {"limits": limits}}]}}
    manifest = {"kind": "Thing", "spec": {"template": template}}
    workload = resolve(definition, manifest, runtime=runtime)
    assert findings(workload) == []
    text = render_text([workload])
    assert "Thing (unnamed): 1 workload, ~" in text and "GPUs" in text
    render_json([workload])
