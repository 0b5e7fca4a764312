"""The facts found wrong, corrected from the frameworks' code, and the facts that differ between releases:
a definition or manifest of an older operator is judged by that operator's facts, and where the release in
use is not known a fact's absence counts only where every release read lacks it."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint.controllers import load_model, model_for
from wmaplint.controllers.releases import Releases, before, release_key
from wmaplint.diagnostics import Diagnostic
from wmaplint.engine import lint_text

from .helpers import catalog, findings, vary

PUBLISHED = Path(__file__).resolve().parents[2].parent / "shared" / "published" / "upstream-catalog"


def karta(kind: str, mappings: str, *, phase: str | None = None) -> str:
    """A definition of one root component of ``kind`` (``{group: .., version: .., kind: ..}``) whose status
    is read from its conditions (or its phase at ``phase``) by ``mappings``."""
    source = (f"        phaseDefinition: {{path: {phase}}}\n" if phase else
              "        conditionsDefinition: {path: .status.conditions, typeFieldName: type, "
              "statusFieldName: status, reasonFieldName: reason}\n")
    return ("apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata: {name: d}\nspec:\n  structureDefinition:\n"
            f"    rootComponent:\n      name: root\n      kind: {kind}\n      statusDefinition:\n{source}"
            f"        statusMappings:\n{mappings}")


def in_project(tmp_path: Path, text: str, config: str = "") -> list[Diagnostic]:
    """The findings on ``text`` checked as a file of a project configured by ``config`` (.wmaplint.yaml)."""
    (tmp_path / ".git").mkdir(exist_ok=True)
    if config:
        (tmp_path / ".wmaplint.yaml").write_text(config, encoding="utf-8")
    return lint_text(text, str(tmp_path / "definition.yaml"))


def rules(found: list[Diagnostic], *ids: str) -> list[str]:
    return [d.message for d in found if d.rule in ids]


# -- releases, compared as the tags and the objects spell them

def test_releases_order_as_semantic_versions() -> None:
    assert before("v1.2.0", "1.10.0") and before("1.3.7", "v1.3.8") and not before("v1.3.8", "1.3.8")
    assert before("v0.1.0-alpha.11", "v0.1.0-alpha.12-rc1") and before("v1.37.0-beta.0", "v1.37.0")
    assert before("knative-v1.22.1", "knative-v1.23.0") and release_key("devel") is None
    assert Releases(since="v1.1.0").holds_at("v1.1.0") and not Releases(until="v1.2.0").holds_at("v1.2.0")
    assert Releases(until="v1.2.0").holds_from("v1.1.5") and not Releases(until="v1.2.0").holds_from("v1.2.0")


# -- Milvus: the operator installs its dependencies as Helm releases, whose charts run StatefulSets that no
# owner reference ties to the Milvus

def test_milvus_dependencies_are_statefulsets_the_milvus_does_not_own() -> None:
    # zilliztech/milvus-operator v1.3.8 pkg/controllers/dependencies.go (ReconcileEtcd, ReconcilePulsar: Helm
    # releases of the etcd and pulsar charts, whose templates run StatefulSets), pkg/helm (no post-renderer:
    # no owner reference), and the SetControllerReference calls (Deployments, Services, ConfigMaps, ...)
    milvus = model_for("milvus.io", "Milvus", "v1beta1")
    assert milvus is not None and milvus.creates_exhaustive is True
    assert ("apps", "StatefulSet") in milvus.unowned_kinds()
    assert ("apps", "StatefulSet") not in milvus.created_kinds()
    assert ("apps", "Deployment") in milvus.created_kinds()
    etcd = milvus.created("etcd")
    assert etcd is not None and not etcd.owned


DEPENDENCY = ("      - name: etcd\n        ownerRef: milvus\n"
              "        kind: {group: apps, version: v1, kind: StatefulSet}\n        scaleDefinition:\n"
              "          replicasPath: .spec.dependencies.etcd.inCluster.values.replicaCount\n")


def test_a_milvus_dependency_as_an_owned_statefulset_is_reported_with_the_helm_release() -> None:
    # the pods of <name>-etcd are owned by a StatefulSet no owner reference leads from to the Milvus: a
    # platform attributing pods by owners never puts them in the component
    text = vary(catalog("milvus-io-milvus-v1beta1.yaml"), "    childComponents:\n",
                "    childComponents:\n" + DEPENDENCY)
    [(message, severity)] = [(d.message, d.severity.label) for d in findings(text, "WM533")]
    assert message.startswith("component 'etcd' is a apps/v1/StatefulSet: the milvus.io/v1beta1/Milvus "
                              "controller makes such objects (etcd, pulsar, kafka, minio), but without an "
                              "owner reference to the Milvus, so its pods, attributed to a workload by their "
                              "owner chain only, are never listed under this component")
    assert "it creates apps/v1/Deployment, v1/Pod as its own" in message and "no post-renderer" in message
    # the component's objects are real, its pods only unattributed: a warning, not the error of a kind the
    # controller never makes (dsx-ai-factory/workload-map@00e77e4 cli/pkg/workload/pods.go
    # PodAttributor.Filter)
    assert severity == "warning"


def test_upstreams_milvus_definition_reports_its_dependencies_as_not_owned() -> None:
    path = PUBLISHED / "milvus-io-milvus-v1beta1.yaml"
    if not path.exists():
        pytest.skip("the published definitions are not here")
    found = [d.message for d in lint_text(path.read_text(encoding="utf-8"), path.name) if d.rule == "WM533"]
    assert len(found) == 6 and all("without an owner reference to the Milvus" in m for m in found)


# -- KubeRay: ray.io/originated-from-* are on the RayCluster object, its Services and the submitter pod

def test_a_raycluster_selector_on_originated_from_reads_a_label_its_pods_never_carry() -> None:
    # ray-project/kuberay v1.7.0 ray-operator/controllers/ray/common/pod.go (labelPod: the head and worker
    # pods' labels; the originated-from labels are the RayCluster's, rayjob_controller.go
    # constructRayClusterForRayJob)
    text = vary(catalog("ray-io-raycluster-v1.yaml"), 'idPath: .metadata.labels["ray.io/group"]',
                'idPath: .metadata.labels["ray.io/originated-from-crd"]')
    [message] = [d.message for d in findings(text, "WM530")]
    assert "'ray.io/originated-from-crd', which the controller never writes on the worker pods" in message


def test_a_rayjob_submitter_selector_on_originated_from_is_right() -> None:
    # ray-project/kuberay v1.7.0 ray-operator/controllers/ray/rayjob_controller.go (getSubmitterTemplate)
    text = vary(catalog("ray-io-rayjob-v1.yaml"), 'keyPath: .metadata.labels["batch.kubernetes.io/job-name"]',
                'keyPath: .metadata.labels["ray.io/originated-from-cr-name"]')
    assert findings(text, "WM530") == []


# -- reasons passed directly at the call sites

NIMSERVICE = "{group: apps.nvidia.com, version: v1alpha1, kind: NIMService}"


def test_the_generic_failed_reason_of_a_nimservice() -> None:
    # NVIDIA/k8s-nim-operator v3.1.2 internal/controller/platform/standalone/standalone.go (Reconcile:
    # SetConditionsFailed(ctx, nimService, conditions.Failed, ...) on any reconcile error)
    text = karta(NIMSERVICE, '          running: [{byConditions: [{type: Ready, status: "True"}]}]\n'
                             '          failed:\n'
                             '            - byConditions: [{type: Failed, status: "True", reason: Failed}]\n')
    assert findings(text, "WM423") == []


def test_a_milvus_pulsar_client_failure_reason() -> None:
    # zilliztech/milvus-operator v1.3.8 pkg/external/pulsar.go
    # (newErrMsgStreamCondResult("CreateClientFailed"))
    text = karta("{group: milvus.io, version: v1beta1, kind: Milvus}",
                 '          running: [{byConditions: [{type: MilvusReady, status: "True"}]}]\n'
                 '          degraded: [{byConditions: [{type: MsgStreamReady, status: "False", '
                 'reason: CreateClientFailed}]}]\n')
    assert findings(text, "WM423") == []


# -- facts by release

PCSG = "{group: grove.io, version: v1alpha1, kind: PodCliqueScalingGroup}"
GANG = ('          running: [{byConditions: [{type: MinAvailableBreached, status: "False"}]}]\n'
        '          failed: [{byConditions: [{type: GangTerminationInProgress, status: "True"}]}]\n')


def test_grove_alpha12_gang_termination_is_a_condition(tmp_path: Path) -> None:
    # ai-dynamo/grove v0.1.0-alpha.12-rc1 operator/internal/controller/podcliqueset/components/
    # podcliquesetreplica/gangterminate.go (markGangTerminationInProgress)
    assert rules(in_project(tmp_path, karta(PCSG, GANG)), "WM420") == []


def test_a_project_on_grove_alpha11_has_no_gang_termination(tmp_path: Path) -> None:
    found = in_project(tmp_path, karta(PCSG, GANG), 'releases: {ai-dynamo/grove: "v0.1.0-alpha.11"}\n')
    [message] = rules(found, "WM420")
    assert "'GangTerminationInProgress'" in message and "never set" in message


STATEFULSET = "{group: apps, version: v1, kind: StatefulSet}"
PROGRESSING = '          running: [{byConditions: [{type: Progressing, status: "True"}]}]\n'


def test_kubernetes_137_statefulset_progressing(tmp_path: Path) -> None:
    # kubernetes/api v0.37.0-beta.0 apps/v1/types.go (StatefulSetProgressing)
    assert rules(in_project(tmp_path, karta(STATEFULSET, PROGRESSING)), "WM420") == []
    older = tmp_path / "older"
    older.mkdir()
    found = in_project(older, karta(STATEFULSET, PROGRESSING), 'releases: {kubernetes: "v1.36.3"}\n')
    assert len(rules(found, "WM420")) == 1


RAYCLUSTER = "{group: ray.io, version: v1, kind: RayCluster}"
UNHEALTHY = "          failed: [{byPhase: unhealthy}]\n          running: [{byPhase: ready}]\n"


def test_raycluster_unhealthy_state_of_releases_before_1_2(tmp_path: Path) -> None:
    # ray-project/kuberay v1.0.0 and v1.1.0 ray-operator/controllers/ray/raycluster_controller.go
    # (Status.State = rayv1.Unhealthy); v1.2.0 on writes ready and suspended only
    text = karta(RAYCLUSTER, UNHEALTHY, phase=".status.state")
    assert rules(in_project(tmp_path, text), "WM421") == []
    old = tmp_path / "old"
    old.mkdir()
    assert rules(in_project(old, text, 'releases: {ray-project/kuberay: "v1.1.0"}\n'), "WM421") == []
    new = tmp_path / "new"
    new.mkdir()
    [message] = rules(in_project(new, text, 'releases: {KubeRay: "v1.7.0"}\n'), "WM421")
    assert "'unhealthy'" in message


def test_a_release_not_read_reports_nothing_from_an_absence(tmp_path: Path) -> None:
    text = karta(RAYCLUSTER, '          running: [{byConditions: [{type: Quiescent, status: "True"}]}]\n')
    assert len(rules(in_project(tmp_path, text), "WM420")) == 1  # no release read sets it
    newer = tmp_path / "newer"
    newer.mkdir()
    assert rules(in_project(newer, text, 'releases: {ray-project/kuberay: "v1.9.0"}\n'), "WM420") == []


def test_an_object_names_the_release_that_made_it_and_is_judged_from_it_on() -> None:
    # zilliztech/milvus-operator v1.3.8 apis/milvus.io/v1beta1/milvus_webhook.go (the label
    # milvus.io/operator-version of the operator that made the object); milvus.io/deployment-group is new in
    # v1.3.8
    model = load_model()
    made = {"apiVersion": "milvus.io/v1beta1", "kind": "Milvus",
            "metadata": {"name": "m", "labels": {"milvus.io/operator-version": "1.3.7"}}}
    seen = model.for_object(made)
    assert seen is not None and seen.at_release == "1.3.7 or later"
    assert "milvus.io/deployment-group" in seen.pod_labels()  # a later operator may manage it
    pinned = load_model(releases=[("zilliztech/milvus-operator", "v1.3.7")]).for_object(made)
    assert pinned is not None and "milvus.io/deployment-group" not in pinned.pod_labels()


# -- admission: what the operators' webhooks ensure of every stored object, for the rules that judge a default

def test_milvus_webhook_sets_the_replicas_of_every_component_it_runs() -> None:
    # zilliztech/milvus-operator v1.3.8 apis/milvus.io/v1beta1/milvus_webhook.go (defaultComponentsReplicas)
    milvus = model_for("milvus.io", "Milvus", "v1beta1")
    assert milvus is not None
    [proxy] = milvus.admitted(".spec.components.proxy.replicas")
    assert proxy.holds == "set" and "defaultComponentsReplicas" in proxy.source
    assert {a.path for a in milvus.admission} >= {".spec.components.queryNode.replicas",
                                                   ".spec.components.standalone.replicas"}


def test_kserve_admits_one_predictor_implementation() -> None:
    # kserve/kserve v0.20.0 pkg/apis/serving/v1beta1/component.go (validateExactlyOneImplementation)
    isvc = model_for("serving.kserve.io", "InferenceService", "v1beta1")
    assert isvc is not None
    [one] = isvc.admitted(".spec.predictor")
    assert one.holds == "one-of" and {"model", "sklearn", "huggingface"} <= set(one.of)
