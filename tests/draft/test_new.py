"""`wmaplint new`: drafts that pass `check --strict` and resolve real manifests, written safely, with one
line and exit 2 for any input a draft cannot be made from."""

from __future__ import annotations

import pytest
import yaml

from wmaplint.schema.bundle import shipped_bundle

from .helpers import EXAMPLES, check_strict, draft, errors, imported, totals, wmaplint

# kinds the bundle serves from CRDs that have no pods of their own: `new` refuses them
PODLESS = {"NIMCache", "PodCliqueScalingGroup", "PodGang", "PodGroup", "Karta"}


def _bundled_crd_kinds() -> list[str]:
    bundle = shipped_bundle()
    assert bundle is not None
    kinds = {f"{g}/{v}/{k}" for source in bundle.sources if source.format == "crd" for g, v, k in source.gvks}
    return sorted(kinds)


def test_the_bundle_serves_the_frameworks_crds() -> None:
    kinds = _bundled_crd_kinds()
    assert len(kinds) >= 35 and "jobset.x-k8s.io/v1alpha2/JobSet" in kinds


@pytest.mark.parametrize("kind", [*_bundled_crd_kinds(), "batch/v1/Job", "apps/v1/Deployment",
                                  "apps/v1/StatefulSet", "batch/v1/CronJob", "v1/Pod"])
def test_every_bundled_kind_with_pods_drafts_clean_under_strict(tmp_path, kind: str) -> None:
    result = wmaplint("new", "--kind", kind)
    if kind.rpartition("/")[2] in PODLESS:
        assert result.exit_code == 2
        assert result.stdout == "" and result.stderr.count("\n") == 1 and "nothing to draft" in result.stderr
        return
    assert result.exit_code == 0, result.output
    path = tmp_path / "draft.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    assert _unplaceheld(errors(check_strict(path)), result.stdout) == []


def _unplaceheld(found: list[str], text: str) -> list[str]:
    """The errors but those of the placeholders the draft leaves, each beside a TODO saying what to write."""
    placeholders = [e for e in found if e.startswith("WM550 placeholder ")]
    assert text.count("TODO") >= len(placeholders)
    return [e for e in found if e not in placeholders]


def test_a_draft_whose_model_cannot_name_the_entry_label_fails_check_strict(tmp_path) -> None:
    result = wmaplint("new", "--kind", "grove.io/v1alpha1/PodCliqueSet")
    assert result.exit_code == 0, result.output
    assert 'idPath: .metadata.labels["<label naming the entry>"]' in result.stdout
    assert "TODO: no pod label known to carry the entry's id" in result.stdout
    path = tmp_path / "draft.yaml"
    path.write_text(result.stdout, encoding="utf-8")
    report = check_strict(path)
    assert errors(report) == ["WM550 placeholder '<label naming the entry>' left by `wmaplint new`: "
                              "replace it as its TODO says"]
    check = wmaplint("check", "--strict", str(path))
    assert check.exit_code == 1


@pytest.mark.xdist_group("shared-crds")  # the CRDs parsed once for the tests reading them all
def test_every_crd_in_shared_drafts_clean_under_strict_with_and_without_its_file(shared_crds,
                                                                                tmp_path) -> None:
    drafted = 0
    refused = set()
    for crd, parsed in shared_crds.items():
        for _, version, kind in parsed.types:
            result = wmaplint("new", "--crd", str(crd), "--kind", kind, "--version", version)
            if result.exit_code == 2 and "nothing to draft" in result.stderr:
                refused.add(crd.name)
                continue
            assert result.exit_code == 0, f"{crd} {kind} {version}: {result.output}"
            path = tmp_path / f"{crd.stem}-{kind}-{version}.yaml"
            path.write_text(result.stdout, encoding="utf-8")
            text = result.stdout
            assert _unplaceheld(errors(check_strict(path)), text) == [], f"{crd} {version}"
            with_crd = errors(check_strict(path, str(crd)))
            assert _unplaceheld(with_crd, text) == [], f"{crd} {version} with --crds"
            drafted += 1
    assert drafted == 35
    # no pods of their own, or (the minimal InferenceService) no schema below spec
    assert refused == {"nimcache_v1alpha1.yaml", "podcliquescalinggroup_v1alpha1.yaml", "karta_v1alpha1.yaml",
                       "podgang_v1alpha1.yaml", "podgroup_v2alpha2.yaml",
                       "inferenceservice_v1beta1.minimal.yaml"}


# definition kind, example manifest (catalog/examples), its pods and GPUs: those the catalog's definition
# gives too
END_TO_END = [
    ("jobset.x-k8s.io/v1alpha2/JobSet", "jobset-x-k8s-io-jobset-v1alpha2/leader-workers-gpu.yaml", (3, 12)),
    ("kubeflow.org/v1/PyTorchJob", "kubeflow-org-pytorchjob-v1/ddp-master-workers.yaml", (4, 32)),
    ("kubeflow.org/v2beta1/MPIJob", "kubeflow-org-mpijob-v2beta1/nccl-allreduce.yaml", (5, 32)),
    ("milvus.io/v1beta1/Milvus", "milvus-io-milvus-v1beta1/cluster-gpu-querynodes.yaml", (10, 3)),
    ("serving.kserve.io/v1beta1/InferenceService",
     "serving-kserve-io-inferenceservice-v1beta1/hf-llm-gpu.yaml", (2, 2)),
    ("ray.io/v1/RayService", "ray-io-rayservice-v1/llm-serve.yaml", (3, 8)),
    ("batch/v1/Job", "batch-job-v1/indexed-gpu-job.yaml", (2, 2)),
    ("apps/v1/Deployment", "apps-deployment-v1/triton-inference.yaml", (3, 3)),
    ("batch/v1/CronJob", "batch-cronjob-v1/nightly-eval-active.yaml", (4, 4)),
]


@pytest.mark.parametrize(("kind", "example", "expected"), END_TO_END, ids=[k for k, _, _ in END_TO_END])
def test_a_draft_checks_clean_and_resolves_an_example_as_the_catalog_does(
    tmp_path, kind: str, example: str, expected: tuple[int, int]
) -> None:
    path = draft(tmp_path, "--kind", kind)
    assert _unplaceheld(errors(check_strict(path)), path.read_text(encoding="utf-8")) == []
    manifest = EXAMPLES / example
    assert set(totals(manifest, path).values()) == {expected}
    assert set(totals(manifest).values()) == {expected}  # the shipped definition agrees


def test_the_manifest_is_resolved_at_once_and_its_tree_printed_beside_the_draft(tmp_path) -> None:
    example = str(EXAMPLES / "jobset-x-k8s-io-jobset-v1alpha2" / "leader-workers-gpu.yaml")
    result = wmaplint("new", "--kind", "JobSet", "--manifest", example)
    assert result.exit_code == 0, result.output
    assert yaml.safe_load(result.stdout)["kind"] == "Karta"  # the draft alone on standard output
    assert "JobSet research/llm-pretrain: 1 workload, 3 pods, 12 GPUs" in result.stderr
    assert "replicatedjob [Job]: 2 instances, 3 pods, 12 GPUs" in result.stderr
    out = tmp_path / "jobset.yaml"
    result = wmaplint("new", "--kind", "JobSet", "--manifest", example, "--output", str(out))
    assert result.exit_code == 0
    assert "3 pods, 12 GPUs" in result.stdout and out.read_text(encoding="utf-8").startswith("# jobset")
    assert "definition: jobset-x-k8s-io-jobset-v1alpha2" in result.stdout


def test_a_manifest_of_another_kind_is_one_line_and_exit_2(tmp_path) -> None:
    other = str(EXAMPLES / "batch-job-v1" / "indexed-gpu-job.yaml")
    result = wmaplint("new", "--kind", "JobSet", "--manifest", other)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith("wmaplint: nothing was resolved with the draft")


def test_output_is_written_whole_and_an_existing_file_is_kept_unless_forced(tmp_path) -> None:
    out = tmp_path / "job.yaml"
    first = wmaplint("new", "--kind", "Job", "--output", str(out))
    assert first.exit_code == 0 and first.stdout == ""
    assert "wrote" in first.stderr and "batch-job-v1" in first.stderr
    assert out.read_text(encoding="utf-8") == wmaplint("new", "--kind", "Job").stdout
    out.write_text("mine\n", encoding="utf-8")
    again = wmaplint("new", "--kind", "Job", "--output", str(out))
    assert again.exit_code == 2 and "exists; give --force" in again.stderr
    assert out.read_text(encoding="utf-8") == "mine\n"
    assert wmaplint("new", "--kind", "Job", "--output", str(out), "--force").exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("# batch/v1 Job")
    assert [p.name for p in tmp_path.iterdir()] == ["job.yaml"]  # no temporary file left


WIDGET_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              pause: {type: boolean}
              suspend: {type: boolean}
              crews:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    replicas: {type: integer, default: 2}
                    template:
                      type: object
                      properties:
                        metadata: {type: object, x-kubernetes-preserve-unknown-fields: true}
                        spec:
                          type: object
                          properties:
                            containers:
                              type: array
                              items:
                                type: object
                                properties:
                                  name: {type: string}
                                  image: {type: string}
                                  resources:
                                    type: object
                                    properties:
                                      limits: {type: object, additionalProperties: {type: string}}
                                      requests: {type: object, additionalProperties: {type: string}}
          status:
            type: object
            properties:
              phase:
                type: string
                description: One of Pending, Running, Succeeded or Failed.
"""
WIDGET = """\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  crews:
  - name: a
    template: {spec: {containers: [{name: c, resources: {limits: {nvidia.com/gpu: "2"}}}]}}
  - name: b
    replicas: 3
    template: {spec: {containers: [{name: c}]}}
"""


def test_an_unknown_kind_is_drafted_from_its_schema_with_placeholders_marked(tmp_path) -> None:
    crd = tmp_path / "widget-crd.yaml"
    crd.write_text(WIDGET_CRD, encoding="utf-8")
    manifest = tmp_path / "widget.yaml"
    manifest.write_text(WIDGET, encoding="utf-8")
    result = wmaplint("new", "--crd", str(crd), "--manifest", str(manifest))
    assert result.exit_code == 0, result.output
    text = result.stdout
    definition = yaml.safe_load(text)
    [crew] = definition["spec"]["structureDefinition"]["childComponents"]
    assert crew["instanceIdPath"] == ".spec.crews[]?.name"
    assert crew["specDefinition"] == {"podTemplateSpecPath": ".spec.crews[]?.template"}
    assert crew["scaleDefinition"] == {"replicasPath": ".spec.crews[]? | (.replicas // 2)"}  # the CRD default
    # the phase values come from the field's description, each reading marked as a guess
    status = definition["spec"]["structureDefinition"]["rootComponent"]["statusDefinition"]
    assert status["statusMappings"]["completed"] == [{"byPhase": "Succeeded"}]
    assert "# guess: phase Succeeded read as completed" in text
    assert "TODO: no pod label known to carry the entry's id" in text
    assert "TODO: nothing is known of Widget's pods" in text
    assert "Widget w: 1 workload, 5 pods, 4 GPUs" in result.stderr  # a: 2 x 2 GPUs, b: 3 x none
    path = tmp_path / "widget-draft.yaml"
    path.write_text(text, encoding="utf-8")
    assert _unplaceheld(errors(check_strict(path, str(crd))), text) == []
    assert any(e.startswith("WM550 ") for e in errors(check_strict(path, str(crd))))  # the entry's label


def test_a_project_names_pod_labels_of_its_own_kinds(tmp_path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "widget-crd.yaml").write_text(WIDGET_CRD, encoding="utf-8")
    (tmp_path / "labels.yaml").write_text(
        "kinds:\n"
        "  example.com/v1/Widget:\n"
        "    source: the widget operator's pod builder\n"
        "    gang: true\n"
        "    labels:\n"
        "      example.com/crew: {role: entry, of: .spec.crews, value: the crew's name, source: builder.go}\n"
        "      example.com/widget: {role: workload, value: the Widget's name, source: builder.go}\n",
        encoding="utf-8",
    )
    (tmp_path / ".wmaplint.yaml").write_text("pod-labels: [labels.yaml]\n", encoding="utf-8")
    result = wmaplint("new", "--crd", "widget-crd.yaml", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    definition = yaml.safe_load(result.stdout)
    [crew] = definition["spec"]["structureDefinition"]["childComponents"]
    crew_label = '.metadata.labels["example.com/crew"]'
    assert crew["podSelector"] == {"componentInstanceSelector": {"idPath": crew_label}}
    [group] = definition["spec"]["optimizationInstructions"]["gangScheduling"]["podGroups"]
    widget_label = '.metadata.labels["example.com/widget"]'
    root = definition["spec"]["structureDefinition"]["rootComponent"]["name"]
    assert group["members"] == [{"componentName": root, "groupByKeyPaths": [widget_label]}]
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    (other / ".wmaplint.yaml").write_text("pod-labels: [../labels.yaml]\n", encoding="utf-8")
    outside = wmaplint("new", "--crd", "../widget-crd.yaml", cwd=other)
    assert outside.exit_code == 2
    assert "pod-labels: '../labels.yaml' resolves outside the repository" in outside.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give the CRD to draft from (--crd FILE) or a kind"),
        (("--crd", "{missing}"), "missing.yaml: no such file"),
        (("--crd", "{directory}"), "directory"),
        (("--crd", "{karta}"), "not a CustomResourceDefinition"),
        (("--crd", "{garbage}"), "garbage.yaml: broken YAML"),
        (("--crd", "{widget}", "--kind", "Gadget"), "serves no kind 'Gadget'"),
        (("--crd", "{widget}", "--version", "v2"), "does not serve version 'v2' of Widget"),
        (("--kind", "NoSuchKind"), "serves no kind 'NoSuchKind'"),
        (("--kind", "Service"), "serves several kinds (Service, Service.serving.knative.dev): pick one"),
        (("--kind", "RayCluster"), "serves RayCluster in versions v1, v1alpha1: pick one with --version"),
        (("--kind", "NIMCache"), "has no pod template, pod spec or pod fields"),
        (("--kind", "ConfigMap"), "there is nothing to draft"),
    ],
)
def test_input_no_draft_can_be_made_from_is_one_line_and_exit_2(tmp_path, args: tuple[str, ...],
                                                                 message: str) -> None:
    (tmp_path / "karta.yaml").write_text((EXAMPLES.parent / "batch-job-v1.yaml").read_text(encoding="utf-8"))
    (tmp_path / "garbage.yaml").write_bytes(b"\x00\xff not yaml: [")
    (tmp_path / "widget.yaml").write_text(WIDGET_CRD, encoding="utf-8")
    names = {"missing": tmp_path / "missing.yaml", "directory": tmp_path, "karta": tmp_path / "karta.yaml",
             "garbage": tmp_path / "garbage.yaml", "widget": tmp_path / "widget.yaml"}
    result = wmaplint("new", *(a.format(**names) for a in args))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("wmaplint: ")
    assert message in result.stderr


def test_check_and_version_do_not_import_the_drafting(tmp_path) -> None:
    from wmaplint.rules.examples import JOB

    path = tmp_path / "job.yaml"
    path.write_text(JOB)
    drafting = ("wmaplint.draft", "wmaplint.cli_new")
    for args in (("--version",), ("check", str(path))):
        assert [m for m in imported(tmp_path, *args) if m.startswith(drafting)] == []
    assert "wmaplint.draft.compose" in imported(tmp_path, "new", "--kind", "Job")


def test_a_shipped_definition_and_the_draft_name_the_kind_alike(tmp_path) -> None:
    path = draft(tmp_path, "--kind", "LeaderWorkerSet")
    definition = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert definition["metadata"]["name"] == "leaderworkerset-x-k8s-io-leaderworkerset-v1"
    structure = definition["spec"]["structureDefinition"]
    assert [(c["name"], c["ownerRef"]) for c in structure["childComponents"]] == [
        ("group", "leaderworkerset"), ("leader", "group"), ("worker", "group")]
    group = structure["childComponents"][0]
    assert group["podSelector"] == {
        "replicaSelector": {"keyPath": '.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"]'}}



def test_a_schema_of_shared_and_recursive_types_is_walked_in_bounded_time(tmp_path) -> None:
    import json
    import time

    # ten members at each of 20 levels all referring to the next level (10^20 paths), the last one to itself
    schemas: dict[str, object] = {
        "W": {"type": "object", "properties": {"spec": {"$ref": "#/components/schemas/N0"}},
              "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1", "kind": "W"}]},
    }
    for level in range(20):
        target = f"#/components/schemas/N{min(level + 1, 19)}"
        members = {f"m{i}": {"$ref": target} for i in range(10)}
        schemas[f"N{level}"] = {"type": "object", "properties": members}
    openapi = tmp_path / "w.json"
    openapi.write_text(json.dumps({"openapi": "3.0.0", "components": {"schemas": schemas}}), encoding="utf-8")
    started = time.monotonic()
    result = wmaplint("new", "--crd", str(openapi), "--kind", "W")
    assert time.monotonic() - started < 60  # unbounded, the walk would take years
    assert result.exit_code == 2 and "there is nothing to draft" in result.stderr


def test_the_walkthrough_of_docs_writing_definitions_shows_real_output(tmp_path) -> None:
    import re
    import shutil

    doc = (EXAMPLES.parents[1] / "docs" / "writing-definitions.md").read_text(encoding="utf-8")
    shutil.copy(EXAMPLES / "leaderworkerset-x-k8s-io-leaderworkerset-v1" / "vllm-multinode.yaml",
                tmp_path / "vllm.yaml")
    result = wmaplint("new", "--kind", "LeaderWorkerSet", "--manifest", "vllm.yaml", "--output", "lws.yaml",
                      cwd=tmp_path)
    [block] = re.findall(r"\$ wmaplint new --kind LeaderWorkerSet --manifest vllm.yaml --output lws.yaml\n"
                         r"(.*?)```", doc, re.S)
    assert block == result.stderr + result.stdout
    [excerpt] = re.findall(r"```yaml\n(      - name: worker\n.*?)```", doc, re.S)
    assert excerpt in (tmp_path / "lws.yaml").read_text(encoding="utf-8")


def test_a_map_whose_entries_the_controller_makes_apart_is_drafted_one_component_an_entry() -> None:
    # the training operator makes an MPIJob's launcher and workers apart, Worker replicas defaulting to 0
    # (kubeflow/training-operator v1.9.0 pkg/apis/kubeflow.org/v1/mpi_defaults.go): one iterated component
    # with the schema's `// 1` counted a worker that the controller never makes
    result = wmaplint("new", "--kind", "MPIJob.kubeflow.org", "--version", "v1")
    assert result.exit_code == 0, result.output
    draft = yaml.safe_load(result.stdout)
    children = {c["name"]: c for c in draft["spec"]["structureDefinition"]["childComponents"]}
    assert set(children) == {"launcher", "worker"}
    worker = children["worker"]
    assert worker["specDefinition"] == {"podTemplateSpecPath": ".spec.mpiReplicaSpecs.Worker.template"}
    assert worker["scaleDefinition"]["replicasPath"] == ".spec.mpiReplicaSpecs.Worker.replicas // 0"
    assert worker["podSelector"]["componentTypeSelector"] == {
        "keyPath": '.metadata.labels["training.kubeflow.org/replica-type"]', "value": "worker"}
