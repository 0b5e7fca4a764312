"""Assumptions the tree states where a framework depends on the operator release or on open defaults."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.resolve.typed import findings, resolve
from wmaplint.controllers import load_model
from wmaplint.report.workloads import render_json, render_text

CATALOG = Path(__file__).resolve().parents[2] / "catalog"


def _definition(name: str) -> dict:
    return yaml.safe_load((CATALOG / f"{name}.yaml").read_text(encoding="utf-8"))


def _milvus(components: dict, mode: str = "cluster") -> dict:
    return {
        "apiVersion": "milvus.io/v1beta1",
        "kind": "Milvus",
        "metadata": {"name": "m"},
        "spec": {"mode": mode, "components": components},
    }


def test_every_assumption_names_its_source_and_evaluates_on_the_catalog_examples(runtime) -> None:
    shipped = {kind.gvk(v): kind.assumptions for kind in load_model().kinds for v in kind.versions
               if kind.assumptions}
    assert shipped
    for gvk, entries in shipped.items():
        assert entries, gvk
        for entry in entries:
            assert entry.source.strip(), gvk
            assert runtime.compile_error(entry.note) is None, gvk
    for example in sorted((CATALOG / "examples").glob("*/*.yaml")):
        manifest = yaml.safe_load(example.read_text(encoding="utf-8"))
        key = f"{manifest['apiVersion']}/{manifest['kind']}"
        for entry in shipped.get(key, ()):
            result = runtime.evaluate(entry.note, manifest)
            assert result.ok and all(isinstance(v, str) for v in result.outputs), (example, result.error)


# before 2.6 the coordinators run separately only where one is configured; without any the defaulting
# webhook adds a mixCoord (milvus-operator v1.3.8 DefaultComponents)
COORD = {"rootCoord": {}}


@pytest.mark.parametrize(
    ("components", "topology", "says"),
    [
        # no image, no version: the operator's default image, 2.6 or later for current operators
        ({}, "2.6", "assumed 2.6 or later"),
        ({"image": "milvusdb/milvus:v2.6.0-gpu"}, "2.6", "Milvus 2.6 or later (image tag v2.6.0-gpu)"),
        ({"image": "milvusdb/milvus:v2.5.16", **COORD}, "2.5", "Milvus before 2.6 (image tag v2.5.16)"),
        ({"version": "2.5.4", "image": "milvusdb/milvus:v2.6.1", **COORD}, "2.5",
         "(components.version 2.5.4)"),
        ({"image": "registry:5000/milvus:master-20260501"}, "2.6", "2.6 or later (image tag master-"),
        # a tag that is no version: the operator reads it as older than 2.6
        ({"image": "milvusdb/milvus:latest", **COORD}, "2.5", "Milvus before 2.6 (image tag latest)"),
        ({"image": "milvusdb/milvus", **COORD}, "2.5", "image without a tag"),
    ],
)
def test_the_milvus_topology_and_its_stated_assumption_agree(runtime, components, topology, says) -> None:
    workload = resolve(_definition("milvus-io-milvus-v1beta1"), _milvus(components), runtime=runtime)
    assert findings(workload) == []
    [assumption] = workload.assumptions
    assert says in assumption
    replicas = {name: node.instances[0].effective_replicas for name, node in workload.components.items()}
    if topology == "2.6":
        assert (replicas["mixcoord"], replicas["streamingnode"], replicas["indexnode"]) == (1, 1, 0)
        assert replicas["rootcoord"] == replicas["datacoord"] == 0
        assert workload.total_pods == 5
    else:
        assert (replicas["mixcoord"], replicas["streamingnode"], replicas["indexnode"]) == (0, 0, 1)
        assert replicas["rootcoord"] == replicas["querycoord"] == 1
        assert workload.total_pods == 8


def test_standalone_milvus_assumes_nothing(runtime) -> None:
    milvus = _definition("milvus-io-milvus-v1beta1")
    workload = resolve(milvus, _milvus({}, "standalone"), runtime=runtime)
    assert workload.assumptions == [] and workload.total_pods == 1


def _rayjob(**spec) -> dict:
    head = {"rayStartParams": {}, "template": {"spec": {"containers": [{"name": "h", "image": "ray:2.46"}]}}}
    return {
        "apiVersion": "ray.io/v1",
        "kind": "RayJob",
        "metadata": {"name": "j"},
        "spec": {"entrypoint": "python x.py", "rayClusterSpec": {"headGroupSpec": head}, **spec},
    }


@pytest.mark.parametrize(
    ("spec", "submitters", "says"),
    [
        ({}, 1, "submissionMode not set (K8sJobMode, the default)"),
        ({"submissionMode": "K8sJobMode"}, 1, "submissionMode K8sJobMode"),
        ({"submissionMode": "HTTPMode"}, 0, "over HTTP, no submitter pod"),
        ({"submissionMode": "InteractiveMode"}, 0, "the user submits the job"),
        ({"submissionMode": "SidecarMode"}, 0, "a container in the head pod"),
    ],
)
def test_the_rayjob_submitter_pod_is_counted_or_its_absence_explained(runtime, spec, submitters, says):
    workload = resolve(_definition("ray-io-rayjob-v1"), _rayjob(**spec), runtime=runtime)
    [assumption] = workload.assumptions
    assert says in assumption
    assert workload.components["submitter"].pods == submitters
    assert workload.total_pods == 1 + submitters


def test_assumptions_are_printed_and_in_json(runtime) -> None:
    workload = resolve(_definition("ray-io-rayjob-v1"), _rayjob(), runtime=runtime)
    assert "  assumption: submissionMode not set (K8sJobMode, the default)" in render_text([workload])
    assert '"assumptions": [\n        "submissionMode not set' in render_json([workload])


def test_kinds_without_assumptions_have_none(runtime, jobset_definition, jobset_manifest) -> None:
    assert resolve(jobset_definition, jobset_manifest, runtime=runtime).assumptions == []
