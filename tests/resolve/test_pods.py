from tests.resolve.typed import findings, resolve, typed
from wmaplint.resolve.pods import attribute_pods, pods_from_documents
from wmaplint.rules.resolution.pod_selector_not_single_value import RULE as SELECTOR_NOT_SINGLE
from wmaplint.rules.resolution.pod_unattributed import RULE as POD_UNATTRIBUTED

PYTORCH = {
    "spec": {
        "structureDefinition": {
            "rootComponent": {
                "name": "pytorchjob",
                "kind": {"group": "kubeflow.org", "version": "v1", "kind": "PyTorchJob"},
            },
            "childComponents": [
                {
                    "name": "master",
                    "ownerRef": "pytorchjob",
                    "specDefinition": {"podTemplateSpecPath": ".spec.pytorchReplicaSpecs.Master.template"},
                    "podSelector": {
                        "componentTypeSelector": {
                            "keyPath": '.metadata.labels["training.kubeflow.org/replica-type"]',
                            "value": "master",
                        }
                    },
                },
                {
                    "name": "worker",
                    "ownerRef": "pytorchjob",
                    "specDefinition": {"podTemplateSpecPath": ".spec.pytorchReplicaSpecs.Worker.template"},
                    "podSelector": {
                        "componentTypeSelector": {
                            "matchLabels": {"training.kubeflow.org/replica-type": "worker"}
                        },
                        "replicaSelector": {
                            "keyPath": '.metadata.labels["training.kubeflow.org/replica-index"]'
                        },
                    },
                },
            ],
        }
    }
}
MANIFEST = {
    "kind": "PyTorchJob",
    "metadata": {"name": "mnist"},
    "spec": {
        "pytorchReplicaSpecs": {
            "Master": {"template": {"spec": {"containers": [{"name": "m"}]}}},
            "Worker": {"template": {"spec": {"containers": [{"name": "w"}]}}},
        }
    },
}


def pod(name, **labels):
    return {"kind": "Pod", "metadata": {"name": name, "labels": labels}}


def test_type_selectors_value_and_match_labels(runtime):
    workload = resolve(PYTORCH, MANIFEST, runtime=runtime)
    pods = [
        pod("m-0", **{"training.kubeflow.org/replica-type": "master"}),
        pod(
            "w-1",
            **{"training.kubeflow.org/replica-type": "worker", "training.kubeflow.org/replica-index": "1"},
        ),
        pod("other", app="x"),
    ]
    result = attribute_pods(typed(PYTORCH), workload, pods, runtime)
    assert [(a.component, a.replica) for a in result] == [("master", None), ("worker", "1"), (None, None)]
    assert [f.rule for f in findings(workload)] == [POD_UNATTRIBUTED.id]


def test_single_spec_component_takes_every_pod(jobset_definition, jobset_manifest, runtime):
    workload = resolve(jobset_definition, jobset_manifest, runtime=runtime)
    labelled = pod(
        "llm-train-workers-1-0",
        **{"jobset.sigs.k8s.io/jobset-name": "llm-train", "jobset.sigs.k8s.io/replicatedjob-name": "workers"},
    )
    [a] = attribute_pods(typed(jobset_definition), workload, [labelled], runtime)
    assert (a.component, a.instance) == ("replicatedjob", "workers")
    stray = pod("stray")
    [b] = attribute_pods(typed(jobset_definition), workload, [stray], runtime)
    assert b.component == "replicatedjob" and b.instance is None
    assert SELECTOR_NOT_SINGLE.id in {f.rule for f in findings(workload)}


def test_pod_lists_and_multi_documents():
    docs = [{"kind": "PodList", "items": [pod("a"), pod("b")]}, pod("c"), {"kind": "Service"}]
    assert [p["metadata"]["name"] for p in pods_from_documents(docs)] == ["a", "b", "c"]
