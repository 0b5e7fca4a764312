"""The triage of the findings on upstream's published catalog, kept as tests.

Each case is a definition of our own in the shape of a published one (the facts, not the file) and asserts the
outcome the runtime's code decides: the finding a verified fault keeps, at the severity its consequence has,
and the silence where the premise was wrong. The last test checks ../shared/published itself, when it is
there, and lists every finding left with its verdict and the code that decides it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.engine import lint_text

HEAD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {{name: {name}}}
spec:
  structureDefinition:
    rootComponent:
      name: root
      kind: {{group: {group}, version: {version}, kind: {kind}}}
      statusDefinition:
{status}
    childComponents:
"""
PHASE = ("        phaseDefinition: {path: .status.state}\n"
         "        statusMappings: {running: [{byPhase: Ready}]}")


def definition(gvk: tuple[str, str, str], children: str, status: str = PHASE) -> str:
    group, version, kind = gvk
    head = HEAD.format(name=kind.lower(), group=group or '""', version=version, kind=kind, status=status)
    return head + children


def found(text: str, rule: str) -> list[tuple[int, str]]:
    return [(d.span.start_line, d.severity.label) for d in lint_text(text, "def.yaml") if d.rule == rule]


LWS = ("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet")
LLMISVC = ("serving.kserve.io", "v1alpha2", "LLMInferenceService")
RAYJOB = ("ray.io", "v1", "RayJob")
JOBSET = ("jobset.x-k8s.io", "v1alpha2", "JobSet")
GROVE = ("grove.io", "v1alpha1", "PodCliqueSet")
NIMCACHE = ("apps.nvidia.com", "v1alpha1", "NIMCache")
DYNAMO = ("nvidia.com", "v1beta1", "DynamoGraphDeployment")
MILVUS = ("milvus.io", "v1beta1", "Milvus")
ISVC = ("serving.kserve.io", "v1beta1", "InferenceService")
NIMSERVICE = ("apps.nvidia.com", "v1alpha1", "NIMService")


def child(name: str, body: str, kind: str = '{group: "", version: v1, kind: Pod}') -> str:
    return f"    - name: {name}\n      ownerRef: root\n      kind: {kind}\n" + body


# -- WM305 ---------------------------------------------------------------------------------------------------


def test_a_defaulted_field_under_spec_is_no_optional_replicas() -> None:
    """The catalog's LeaderWorkerSet group counts `.spec.leaderWorkerTemplate.size`: the CRD defaults it to 1
    and requires leaderWorkerTemplate, and a `spec` is taken as present, so an object always has it."""
    scale = "      scaleDefinition: {replicasPath: .spec.leaderWorkerTemplate.size}\n"
    text = definition(LWS, child("group", scale))
    assert found(text, "WM305") == []


def test_replicas_no_default_fills_stay_a_warning() -> None:
    """LLMInferenceService `.spec.replicas`: no CRD default, and KServe's defaulter sets none
    (kserve/kserve@aaac4e2 pkg/apis/serving/v1alpha2/llm_inference_service_defaults.go): the Deployment then
    runs 1 pod while the path yields null, which the gang sizing takes as 0 (verified; a warning)."""
    text = definition(LLMISVC, child("main", "      scaleDefinition: {replicasPath: .spec.replicas}\n",
                                     "{group: apps, version: v1, kind: Deployment}"))
    assert found(text, "WM305") == [(16, "warning")]


def milvus_part(name: str) -> str:
    return child(name.lower(), f"      scaleDefinition: {{replicasPath: .spec.components.{name}.replicas}}\n",
                 "{group: apps, version: v1, kind: Deployment}")


def test_replicas_admission_sets_on_every_object_are_no_finding() -> None:
    """Milvus's operator gives the standalone replicas on every Milvus, 0 in cluster mode
    (zilliztech/milvus-operator@31b2ec5 apis/milvus.io/v1beta1/milvus_webhook.go defaultComponentsReplicas,
    called by the webhook and by the controller, pkg/controllers/milvus_controller.go): never absent."""
    assert found(definition(MILVUS, milvus_part("standalone")), "WM305") == []


def test_replicas_admission_sets_where_the_component_runs_default_to_none() -> None:
    """The same webhook gives a proxy replicas wherever it runs one, so a stored Milvus lacks it only where
    no proxy runs; the path then yields null and the runtime's totals count 1
    (dsx-ai-factory/workload-map@6379f20 cli/pkg/workload/describe.go replicasOf): the default to give is 0,
    not the usual 1."""
    [d] = [d for d in lint_text(definition(MILVUS, milvus_part("proxy")), "def.yaml") if d.rule == "WM305"]
    assert d.severity.label == "warning" and "lacks it only where the component does not run" in d.message
    assert [f.description for f in d.fixes] == ["replace with .spec.components.proxy.replicas // 0"]


# -- WM301 ---------------------------------------------------------------------------------------------------

RAY_CONDITIONS = ("        phaseDefinition: {path: .status.jobStatus}\n"
                  "        conditionsDefinition:\n"
                  "          {path: .status.conditions, typeFieldName: type, statusFieldName: status}\n"
                  "        statusMappings:\n"
                  "          running: [{byPhase: RUNNING}]\n")


def test_a_conditions_path_no_matcher_reads_is_no_finding() -> None:
    """RayJob has no `.status.conditions` (kuberay v1.7.0 RayJobStatus): the runtime reads conditions for the
    byConditions matchers only, and finds none, which is what a RayJob has."""
    text = definition(RAYJOB, child("head", "      specDefinition: {podTemplateSpecPath: "
                                            ".spec.rayClusterSpec.headGroupSpec.template}\n"), RAY_CONDITIONS)
    assert found(text, "WM301") == []


def test_a_conditions_path_a_matcher_reads_is_an_error() -> None:
    """With a byConditions matcher, the field never being there means the matcher never fires."""
    status = RAY_CONDITIONS + "          failed: [{byConditions: [{type: Failed, status: \"True\"}]}]\n"
    text = definition(RAYJOB, child("head", "      specDefinition: {podTemplateSpecPath: "
                                            ".spec.rayClusterSpec.headGroupSpec.template}\n"), status)
    assert found(text, "WM301") == [(12, "error")]


# -- WM220 ---------------------------------------------------------------------------------------------------

RAY_WORKERS = ".spec.rayClusterSpec.workerGroupSpecs"


def test_a_default_over_a_stream_of_defaulted_fields_is_no_finding() -> None:
    """RayCluster's `workerGroupSpecs[].replicas` defaults to 0 in the CRD, so every element has it and `//`
    drops none (the published RayJob's replicasPath)."""
    scale = f"      scaleDefinition: {{replicasPath: '{RAY_WORKERS}[]?.replicas // 1'}}\n"
    ids = f"      instanceIdPath: '{RAY_WORKERS}[]?.groupName'\n"
    text = definition(RAYJOB, child("worker", ids + scale))
    assert found(text, "WM220") == []


def test_a_default_over_a_stream_of_optional_fields_stays_an_error() -> None:
    """A JobSet's replicated job templates declare parallelism with no default: an element without it is
    dropped and the instance count no longer matches the ids."""
    path = ".spec.replicatedJobs[]?.template.spec.parallelism // 1"
    text = definition(JOBSET, child("replicatedjob", "      instanceIdPath: '.spec.replicatedJobs[]?.name'\n"
                                                     f"      scaleDefinition: {{replicasPath: '{path}'}}\n",
                                    "{group: batch, version: v1, kind: Job}"))
    assert found(text, "WM220") == [(17, "error")]


def test_without_a_schema_a_default_over_a_stream_stays_an_error() -> None:
    text = definition(("example.com", "v1", "Widget"),
                      child("worker", "      instanceIdPath: '.spec.groups[]?.name'\n"
                                      "      scaleDefinition:\n"
                                      "        {replicasPath: '.spec.groups[]?.replicas // 1'}\n"))
    assert found(text, "WM220") == [(18, "error")]


def test_a_default_over_a_wrong_path_is_left_to_wm301() -> None:
    """The run-ai/karta v0.2 RayService sample reads `.spec.rayClusterSpec`, which RayService calls
    `rayClusterConfig`: the wrong field is the fault (WM301); the default over its stream is moot."""
    scale = "      scaleDefinition: {replicasPath: '.spec.rayClusterSpec.workerGroupSpecs[].replicas // 1'}\n"
    text = definition(("ray.io", "v1", "RayService"), child("worker", scale))
    assert found(text, "WM220") == [] and 16 in [line for line, _ in found(text, "WM301")]


# -- WM221 ---------------------------------------------------------------------------------------------------

CLIQUES = (".spec.template as $t | $t.cliques[] | select(.name as $n | "
           "([$t.podCliqueScalingGroups[]?.cliqueNames[]?] | index($n) | not))")


def test_a_filter_the_instance_ids_apply_too_is_no_finding() -> None:
    """The published PodCliqueSet keeps the cliques of no scaling group with one `select`, in its ids and in
    every path of the component: both drop the same cliques, so the counts agree."""
    text = definition(GROVE, child(
        "clique", f"      instanceIdPath: '{CLIQUES} | .name'\n"
                  "      specDefinition:\n        fragmentedPodSpecDefinition:\n"
                  f"          labelsPath: '{CLIQUES} | .labels'\n"
                  f"      scaleDefinition: {{replicasPath: '.spec.replicas as $r | {CLIQUES} | (($r // 1) * "
                  "(.spec.replicas // 1))'}\n", "{group: grove.io, version: v1alpha1, kind: PodClique}"))
    assert found(text, "WM221") == []


def test_a_filter_the_instance_ids_do_not_apply_stays_a_warning() -> None:
    text = definition(GROVE, child(
        "clique", "      instanceIdPath: '.spec.template.cliques[].name'\n"
                  "      specDefinition:\n        fragmentedPodSpecDefinition:\n"
                  f"          labelsPath: '{CLIQUES} | .labels'\n",
        "{group: grove.io, version: v1alpha1, kind: PodClique}"))
    assert found(text, "WM221") == [(19, "warning")]


# -- WM222 ---------------------------------------------------------------------------------------------------

IMPLEMENTATION = ("      specDefinition:\n        fragmentedPodSpecDefinition:\n"
                  "          containerPath: '.spec.predictor | .[]? | select({condition})'\n")


def predictor(condition: str) -> str:
    return definition(ISVC, child("predictor", IMPLEMENTATION.format(condition=condition),
                                  "{group: apps, version: v1, kind: Deployment}"))


def test_an_iteration_over_an_admitted_one_of_is_one_output() -> None:
    """KServe admits exactly one predictor implementation (kserve/kserve@1fb7810
    pkg/apis/serving/v1beta1/component.go validateExactlyOneImplementation, on create and update), and only
    the implementations declare storageUri: the published containerPath keeps one member."""
    assert found(predictor('type == "object" and .storageUri'), "WM222") == []


def test_a_select_other_members_pass_stays_a_warning() -> None:
    """`type == "object"` alone keeps the predictor's affinity, resources and every other object beside the
    implementation; a storageUri read of a scalar first is an error of gojq, not a dropped member."""
    assert found(predictor('type == "object"'), "WM222") == [(18, "warning")]
    assert found(predictor(".storageUri"), "WM222") == [(18, "warning")]


def test_without_an_admission_fact_an_iteration_stays_a_warning() -> None:
    text = predictor('type == "object" and .storageUri').replace(
        "kind: {group: serving.kserve.io, version: v1beta1, kind: InferenceService}",
        "kind: {group: example.com, version: v1, kind: Widget}")
    assert found(text, "WM222") == [(18, "warning")]


# -- WM230 ---------------------------------------------------------------------------------------------------


def test_a_path_built_for_reading_is_a_warning() -> None:
    """The published NIMCache reads its resources as `{requests: .spec.resources}`: reads work; a platform
    writing resources through the library's UpdateFragmentedPodSpec fails (gojq: invalid path against)."""
    text = definition(NIMCACHE, "").replace(
        "    childComponents:\n",
        "    childComponents: []\n").replace(
        "      statusDefinition:\n",
        "      specDefinition:\n        fragmentedPodSpecDefinition:\n"
        "          resourcesPath: '{requests: .spec.resources}'\n      statusDefinition:\n")
    assert found(text, "WM230") == [(11, "warning")]


# -- WM309 ---------------------------------------------------------------------------------------------------


def test_the_list_every_pod_spec_is_below_is_taken_as_present() -> None:
    """A JobSet without replicatedJobs is admitted (kubernetes-sigs/jobset@08dfbdf
    pkg/webhooks/jobset_webhook.go requires none) but runs nothing: iterating the list unguarded is no
    finding."""
    text = definition(JOBSET, child("replicatedjob", "      instanceIdPath: '.spec.replicatedJobs[].name'\n"
                                                     "      specDefinition: {podTemplateSpecPath: "
                                                     "'.spec.replicatedJobs[].template.spec.template'}\n",
                                    "{group: batch, version: v1, kind: Job}"))
    assert found(text, "WM309") == []


def test_an_optional_list_beside_other_pod_specs_stays_a_warning() -> None:
    """A RayJob's head runs without worker groups: the published RayJob's worker paths stop the tree there."""
    text = definition(RAYJOB, child("worker", f"      instanceIdPath: '{RAY_WORKERS}[].groupName'\n"))
    assert found(text, "WM309") == [(16, "warning")]


def test_one_element_missing_its_pod_template_stays_a_warning() -> None:
    """A DynamoGraphDeployment component created before podTemplate existed may have none (the CRD's own
    description, ai-dynamo/dynamo@2a6da14): the others still run, so iterating its containers is a fault."""
    path = '.spec.components[] | .podTemplate.spec.containers[] | select(.name == "main")'
    body = ("      instanceIdPath: '.spec.components[].name'\n"
            "      specDefinition:\n        fragmentedPodSpecDefinition:\n"
            f"          containerPath: '{path}'\n")
    text = definition(DYNAMO, child("component", body))
    assert [line for line, _ in found(text, "WM309")] == [19]


# -- WM520 ---------------------------------------------------------------------------------------------------

MILVUS_PART = """\
      specDefinition:
        fragmentedPodSpecDefinition: {{resourcesPath: .spec.components.{name}.resources}}
      podSelector:
        componentTypeSelector: {{keyPath: '.metadata.labels["app.kubernetes.io/component"]', value: {name}}}
"""
DEPLOYMENT = "{group: apps, version: v1, kind: Deployment}"


def test_a_component_whose_pods_are_not_the_workloads_is_left_to_wm533() -> None:
    """The published Milvus' etcd is a StatefulSet of the operator's Helm release, which no owner reference
    ties to the Milvus (zilliztech/milvus-operator@a6dcc63 pkg/controllers/dependencies.go): its pods are
    never attributed to the workload (dsx-ai-factory/workload-map@00e77e4 cli/pkg/workload/pods.go), selector
    or not. WM533 says its pods are never listed under it, a warning (the StatefulSet is real, its pods only
    unattributed); WM520 does not add a wrong cause."""
    etcd = child("etcd", "      specDefinition:\n        fragmentedPodSpecDefinition: "
                         "{resourcesPath: .spec.dependencies.etcd.inCluster.values.resources}\n",
                 "{group: apps, version: v1, kind: StatefulSet}")
    text = definition(MILVUS, child("proxy", MILVUS_PART.format(name="proxy"), DEPLOYMENT)
                      + child("querynode", MILVUS_PART.format(name="queryNode"), DEPLOYMENT) + etcd)
    assert found(text, "WM520") == []
    assert found(text, "WM533") == [(29, "warning")]
    proxy = MILVUS_PART.format(name="proxy")
    unselected = text.replace(proxy, proxy.split("      pod")[0])
    assert [line for line, _ in found(unselected, "WM520")] == [13]


# -- WM421 ---------------------------------------------------------------------------------------------------

NIM_STATUS = ("        phaseDefinition: {{path: .status.state}}\n"
              "        statusMappings:\n"
              "          running: [{{byPhase: Ready}}]\n"
              "          initializing: [{initializing}]\n")


def test_a_phase_never_set_beside_another_matcher_is_a_dead_alternative() -> None:
    """NIMServiceStatusPending is declared and never assigned (NVIDIA/k8s-nim-operator@f63f74d
    api/apps/v1alpha1/nimservice_types.go; internal/conditions/conditions.go sets NotReady, Ready, Failed):
    beside `NotReady`, initializing is still reported, so the dead matcher misreads nothing: an info."""
    alternatives = "{byPhase: NotReady}, {byPhase: Pending}"
    text = definition(NIMSERVICE, "", NIM_STATUS.format(initializing=alternatives))
    assert found(text, "WM421") == [(13, "info")]


def test_a_phase_never_set_as_the_only_matcher_stays_a_warning() -> None:
    text = definition(NIMSERVICE, "", NIM_STATUS.format(initializing="{byPhase: Pending}"))
    assert found(text, "WM421") == [(13, "warning")]


# -- upstream's published catalog ---------------------------------------------------------------------------

# Every finding left on ../shared/published/upstream-catalog: (rule, file, line, severity), each a verified
# fault, with the code that decides it.
PUBLISHED = {
    # A Sandbox whose pod finished (Finished True, Ready False PodSucceeded/PodFailed) matches the catalog's
    # initializing and no matcher reports failed or completed: kubernetes-sigs/agent-sandbox@2fd412d
    # controllers/sandbox_controller.go computeFinishedCondition, computeReadyCondition.
    ("WM411", "agents-x-k8s-io-sandbox-v1beta1.yaml", 22, "warning"),
    ("WM412", "agents-x-k8s-io-sandbox-v1beta1.yaml", 22, "warning"),
    # `{requests: .spec.resources}` cannot be written back: dsx-ai-factory/workload-map@932dddf
    # karta/pkg/resource/accessor.go UpdateFragmentedPodSpec assigns through it with gojq and fails; readers
    # are unaffected, so only a platform writing resources meets it: a warning.
    ("WM230", "apps-nvidia-com-nimcache-v1alpha1.yaml", 20, "warning"),
    # NIMServiceStatusPending is declared and never assigned (NVIDIA/k8s-nim-operator@f63f74d
    # api/apps/v1alpha1/nimservice_types.go, internal/conditions/conditions.go): beside `byPhase: NotReady` a
    # dead alternative that misreads nothing, an info.
    ("WM421", "apps-nvidia-com-nimservice-v1alpha1.yaml", 46, "info"),
    # Paths rooted at `$t` are not paths: writes through them fail, as for the NIMCache above.
    *(("WM230", "grove-io-podcliqueset-v1alpha1.yaml", line, "warning")
      for line in (56, 59, 62, 64, 67, 70, 73, 76)),
    # A PodCliqueSet without scaling groups has no podCliqueScalingGroups (omitempty, and the defaulting
    # webhook adds none: ai-dynamo/grove@fcc3b3b
    # operator/internal/webhook/admission/pcs/defaulting/podcliqueset.go), so
    # `.spec.template.podCliqueScalingGroups[]` fails in gojq and the workload's tree is not built
    # (dsx-ai-factory/workload-map@3314756 pkg/tree/builder.go returns the extraction's error).
    *(("WM309", "grove-io-podcliqueset-v1alpha1.yaml", line, "warning") for line in (79, 92, 93, 94)),
    # Infos, not errors or warnings.
    ("WM414", "kubeflow-org-mpijob-v2beta1.yaml", 22, "info"),
    ("WM414", "kubeflow-org-pytorchjob-v1.yaml", 21, "info"),
    # The operator gives replicas to every component it runs (zilliztech/milvus-operator@31b2ec5
    # apis/milvus.io/v1beta1/milvus_webhook.go defaultComponentsReplicas, in the webhook and in the
    # controller, pkg/controllers/milvus_controller.go), so a stored Milvus lacks them only on the
    # components it does not run (the four coordinators beside the mixCoord of a default cluster, every
    # cluster component of a standalone one); the path yields null there and the runtime's totals count 1 pod
    # (dsx-ai-factory/workload-map@6379f20 cli/pkg/workload/describe.go replicasOf): a warning whose fix is
    # `// 0`. The standalone's replicas are set on every Milvus: no finding on line 46.
    *(("WM305", "milvus-io-milvus-v1beta1.yaml", line, "warning")
      for line in (67, 88, 109, 130, 151, 172, 193, 214, 235, 256, 277)),
    # The dependency StatefulSets belong to Helm releases with no owner reference to the Milvus
    # (zilliztech/milvus-operator@31b2ec5 pkg/controllers/dependencies.go, pkg/helm without a post-renderer),
    # and pods are attributed to a workload by their owner chain only (dsx-ai-factory/workload-map@00e77e4
    # cli/pkg/workload/pods.go PodAttributor.Filter): the components are real, their pods never listed under
    # them: a warning.
    *(("WM533", "milvus-io-milvus-v1beta1.yaml", line, "warning") for line in (284, 295, 304, 320, 336, 352)),
    # A component without a podTemplate (one created before podTemplate existed: the CRD's description,
    # ai-dynamo/dynamo@2a6da14) makes `.podTemplate.spec.containers[]` fail.
    ("WM309", "nvidia-com-dynamographdeployment-v1beta1.yaml", 51, "warning"),
    ("WM309", "nvidia-com-dynamographdeployment-v1beta1.yaml", 53, "warning"),
    # A container named main is required only when a component is created: the webhook's check of its image
    # (ai-dynamo/dynamo@12626f5 deploy/operator/internal/webhook/validation/shared_helpers.go
    # runtimeVersionImageAndPath, validatesRuntimeVersionFor) runs on create and is ratcheted on update
    # (@003d1ee dynamographdeployment.go ValidateUpdate sets ratchetRuntimeVersion), and the CRD's description
    # says existing components may remain without one. On such a component `select(.name == "main")` yields
    # nothing and the later components' containers and images shift onto the wrong instances.
    ("WM221", "nvidia-com-dynamographdeployment-v1beta1.yaml", 51, "warning"),
    ("WM221", "nvidia-com-dynamographdeployment-v1beta1.yaml", 53, "warning"),
    # A RayJob on a head-only cluster, or on an existing cluster (clusterSelector, no rayClusterSpec), has no
    # worker groups (ray-project/kuberay@59d663a ray-operator/apis/ray/v1/raycluster_types.go workerGroupSpecs
    # omitempty, rayjob_types.go rayClusterSpec optional): the unguarded `workerGroupSpecs[]` fails.
    *(("WM309", "ray-io-rayjob-v1.yaml", line, "warning") for line in (68, 70, 71, 72, 73)),
    # KServe's defaulter sets neither replicas nor scaling, and the controller passes a nil replicas on
    # (kserve/kserve@1fb7810 pkg/controller/v1alpha2/llmisvc workload_single_node.go, workload_multi_node.go,
    # scheduler.go): the Deployment runs 1 pod while the path yields null, which gang sizing takes as 0.
    *(("WM305", f"serving-kserve-io-llminferenceservice-{version}.yaml", line, "warning")
      for version in ("v1alpha1", "v1alpha2") for line in (53, 69, 85, 99)),
}
# Silenced by the facts of admission: KServe admits exactly one predictor implementation, and only the
# implementations declare storageUri (kserve/kserve@1fb7810 pkg/apis/serving/v1beta1/component.go
# validateExactlyOneImplementation), so the InferenceService's `.[]? | select(... .storageUri)` yields one.


def test_the_published_catalog_has_only_the_findings_triaged(shared: Path) -> None:
    catalog = shared / "published" / "upstream-catalog"
    if not catalog.is_dir():
        pytest.skip("../shared/published is not present")
    run = CliRunner().invoke(main, ["check", "--format", "json", str(catalog)])
    report = json.loads(run.output)
    left = {(d["rule"], Path(d["path"]).name, d["span"]["start"]["line"], d["severity"])
            for d in report["diagnostics"]}
    assert sorted(left - PUBLISHED) == [] and sorted(PUBLISHED - left) == []
    assert report["files"] == 23
