"""Faults of the four classes the controller model should find, each written into a real definition of the
shipped catalog (written from the frameworks' CRDs): a label the controller never writes read by a gang key or
a replica selector; a child of a kind the controller never creates; a component reading its sibling's scale
path; a phase value the field never takes. Each case names the rule that should report it; ``found`` says
whether the rule does. Kept apart from the tests so that the same cases can be run on other versions of the
tool to compare what each finds."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from wmaplint.engine import lint_text

CATALOG = Path(__file__).resolve().parents[2] / "catalog"

GANG = "gang key or replica selector reads a label the controller never writes"
CHILD = "child of a kind the controller never creates"
SIBLING = "a sibling's scale path"
PHASE = "a phase value the field never takes"
CLASSES = (GANG, CHILD, SIBLING, PHASE)


@dataclass(frozen=True)
class Case:
    cls: str
    name: str
    definition: str  # a file of the shipped catalog
    old: str
    new: str
    rules: tuple[str, ...]  # a finding of any of them finds the fault

    def text(self) -> str:
        text = (CATALOG / self.definition).read_text(encoding="utf-8")
        assert self.old in text, f"{self.name}: {self.old!r} is not in {self.definition}"
        return text.replace(self.old, self.new, 1)


def found(case: Case) -> bool:
    return any(d.rule in case.rules for d in lint_text(case.text(), case.definition))


RAYJOB, RAYSERVICE = "ray-io-rayjob-v1.yaml", "ray-io-rayservice-v1.yaml"
GROVE, LWS = "grove-io-podcliqueset-v1alpha1.yaml", "leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml"
JOB, CRONJOB = "batch-job-v1.yaml", "batch-cronjob-v1.yaml"
RAY_GANG = "groupByKeyPaths: ['.metadata.labels[\"ray.io/cluster\"]']"
# the RayJob's gang: its cluster (head and workers); the RayService's: the root, keyed by its cluster
CLUSTER_MEMBER = "- componentName: cluster\n              " + RAY_GANG
SERVICE_MEMBER = "- componentName: rayservice\n              " + RAY_GANG
LWS_GROUP = ('replicaSelector:\n            keyPath: '
             '.metadata.labels["leaderworkerset.sigs.k8s.io/group-index"]')
GROVE_SELECTOR = ('replicaSelector:\n            keyPath: '
                  '.metadata.labels["grove.io/podcliqueset-replica-index"]')
# Grove's, LeaderWorkerSet's and the Job's gangs are the root with no key (one gang per owner): a case adds
# one
GROVE_MEMBER = "            - componentName: podcliqueset\n"
LWS_MEMBER = "            - componentName: leaderworkerset\n"
JOB_MEMBER = "            - componentName: job\n"
CRON_KEY = '                - .metadata.labels["batch.kubernetes.io/job-name"]'


def _gang_key(key: str) -> str:
    return f"groupByKeyPaths: ['.metadata.labels[\"{key}\"]']"


GANG_CASES = [
    Case(GANG, "rayjob cluster gang key: a cluster label of another spelling", RAYJOB, CLUSTER_MEMBER,
         CLUSTER_MEMBER.replace("ray.io/cluster", "ray.io/cluster-name"), ("WM530",)),
    Case(GANG, "rayjob cluster gang key: the submitter's originated-from label", RAYJOB, CLUSTER_MEMBER,
         CLUSTER_MEMBER.replace("ray.io/cluster", "ray.io/originated-from-cr-name"), ("WM530",)),
    Case(GANG, "rayjob cluster gang key: the RayJob's name label", RAYJOB, CLUSTER_MEMBER,
         CLUSTER_MEMBER.replace("ray.io/cluster", "ray.io/job-name"), ("WM530",)),
    Case(GANG, "rayjob cluster gang key: the Job controller's job-name", RAYJOB, CLUSTER_MEMBER,
         CLUSTER_MEMBER.replace("ray.io/cluster", "batch.kubernetes.io/job-name"), ("WM530",)),
    Case(GANG, "rayservice gang key: the RayService's name label", RAYSERVICE, SERVICE_MEMBER,
         SERVICE_MEMBER.replace("ray.io/cluster", "ray.io/rayservice"), ("WM530",)),
    Case(GANG, "rayservice gang key: the originated-from label of the cluster object",
         RAYSERVICE, SERVICE_MEMBER,
         SERVICE_MEMBER.replace("ray.io/cluster", "ray.io/originated-from-cr-name"), ("WM530",)),
    Case(GANG, "rayservice gang key: the kind that made the cluster, as the RayCluster is labelled",
         RAYSERVICE, SERVICE_MEMBER, SERVICE_MEMBER.replace("ray.io/cluster", "ray.io/originated-from-crd"),
         ("WM530",)),
    Case(GANG, "grove gang key: the replica index misspelt", GROVE, GROVE_MEMBER,
         GROVE_MEMBER + "              " + _gang_key("grove.io/podcliqueset-index") + "\n", ("WM530",)),
    Case(GANG, "grove replica selector: a scaling group's index instead", GROVE, GROVE_SELECTOR,
         GROVE_SELECTOR.replace("podcliqueset-replica-index", "replica-index"), ("WM530",)),
    Case(GANG, "grove gang key: the PodCliqueSet's name under grove.io", GROVE, GROVE_MEMBER,
         GROVE_MEMBER + "              " + _gang_key("grove.io/podcliqueset") + "\n", ("WM530",)),
    Case(GANG, "lws replica selector: group index misspelt", LWS, LWS_GROUP,
         LWS_GROUP.replace("group-index", "group-idx"), ("WM530",)),
    Case(GANG, "lws replica selector: a replica index the controller never writes", LWS, LWS_GROUP,
         LWS_GROUP.replace("group-index", "replica-index"), ("WM530",)),
    Case(GANG, "lws gang key: the revision under another name", LWS, LWS_MEMBER,
         LWS_MEMBER + "              " + _gang_key("leaderworkerset.sigs.k8s.io/revision") + "\n",
         ("WM530",)),
    Case(GANG, "lws gang key: the leader's name, an annotation and not a label", LWS, LWS_MEMBER,
         LWS_MEMBER + "              " + _gang_key("leaderworkerset.sigs.k8s.io/leader-name") + "\n",
         ("WM530",)),
    Case(GANG, "job gang key: a uid key the Job controller never writes", JOB, JOB_MEMBER,
         JOB_MEMBER + "              " + _gang_key("batch.kubernetes.io/job-uid") + "\n", ("WM530",)),
    Case(GANG, "job gang key: the completion index on a Job that is not Indexed", JOB, JOB_MEMBER,
         JOB_MEMBER + "              " + _gang_key("batch.kubernetes.io/job-index") + "\n", ("WM530",)),
    Case(GANG, "cronjob gang key: the CronJob's name under batch.kubernetes.io", CRONJOB, CRON_KEY,
         CRON_KEY.replace("job-name", "cronjob-name"), ("WM530",)),
    Case(GANG, "cronjob gang key: the scheduled time as a label", CRONJOB, CRON_KEY,
         CRON_KEY.replace("job-name", "scheduled-time"), ("WM530",)),
]

DEPLOYMENT, MPIJOB = "apps-deployment-v1.yaml", "kubeflow-org-mpijob-v2beta1.yaml"
LLMISVC = "serving-kserve-io-llminferenceservice-v1alpha2.yaml"
DEPLOYMENT_ROOT = "    rootComponent:\n"


def _deployment_child(kind: str) -> str:
    """The Deployment's structure with a child component of ``kind`` beside its root."""
    return ("    childComponents:\n      - name: pods\n        ownerRef: deployment\n"
            f"        kind: {kind}\n" + DEPLOYMENT_ROOT)


CHILD_CASES = [
    Case(CHILD, "deployment pods as a Job", DEPLOYMENT, DEPLOYMENT_ROOT,
         _deployment_child("{group: batch, version: v1, kind: Job}"), ("WM533",)),
    Case(CHILD, "deployment pods as a StatefulSet", DEPLOYMENT, DEPLOYMENT_ROOT,
         _deployment_child("{group: apps, version: v1, kind: StatefulSet}"), ("WM533",)),
    Case(CHILD, "cronjob run as a Deployment", CRONJOB, "kind: {group: batch, version: v1, kind: Job}",
         "kind: {group: apps, version: v1, kind: Deployment}", ("WM533",)),
    Case(CHILD, "cronjob run as a StatefulSet", CRONJOB, "kind: {group: batch, version: v1, kind: Job}",
         "kind: {group: apps, version: v1, kind: StatefulSet}", ("WM533",)),
    Case(CHILD, "mpijob launcher as a StatefulSet", MPIJOB, "kind: {group: batch, version: v1, kind: Job}",
         "kind: {group: apps, version: v1, kind: StatefulSet}", ("WM533",)),
    Case(CHILD, "mpijob workers as a Deployment", MPIJOB, 'kind: {group: "", version: v1, kind: Pod}',
         "kind: {group: apps, version: v1, kind: Deployment}", ("WM533",)),
    Case(CHILD, "llminferenceservice main as a DaemonSet", LLMISVC,
         "kind: {group: apps, version: v1, kind: Deployment}",
         "kind: {group: apps, version: v1, kind: DaemonSet}", ("WM533",)),
    Case(CHILD, "llminferenceservice worker as a Job", LLMISVC,
         "kind: {group: leaderworkerset.x-k8s.io, version: v1, kind: LeaderWorkerSet}",
         "kind: {group: batch, version: v1, kind: Job}", ("WM533",)),
]

PYTORCH, MPIV1 = "kubeflow-org-pytorchjob-v1.yaml", "kubeflow-org-mpijob-v1.yaml"
RAYCLUSTER = "ray-io-raycluster-v1.yaml"
PYTORCH_WORKER = ("            if .spec.pytorchReplicaSpecs.Worker == null then 0\n"
                  "            else (.spec.pytorchReplicaSpecs.Worker.replicas // 1) end\n"
                  "          # elastic")
MPI_WORKER = ("            if .spec.mpiReplicaSpecs.Worker == null then 0\n"
              "            else (.spec.mpiReplicaSpecs.Worker.replicas // 0) end")

SIBLING_CASES = [
    Case(SIBLING, "pytorchjob worker counting the master's replicas", PYTORCH, PYTORCH_WORKER,
         PYTORCH_WORKER.replace("Worker", "Master"), ("WM534",)),
    Case(SIBLING, "mpijob v2beta1 worker counting the launcher's replicas", MPIJOB, MPI_WORKER,
         MPI_WORKER.replace("Worker", "Launcher"), ("WM534",)),
    Case(SIBLING, "mpijob v1 worker counting the launcher's replicas", MPIV1, MPI_WORKER,
         MPI_WORKER.replace("Worker", "Launcher"), ("WM534",)),
    Case(SIBLING, "raycluster head counting the worker groups' replicas", RAYCLUSTER,
         '          replicasPath: "1"', "          replicasPath: .spec.workerGroupSpecs[]?.replicas // 1",
         ("WM534",)),
]

PHASE_RULES = ("WM421", "WM441")
PHASE_CASES = [
    Case(PHASE, "rayjob deployment status Completed", RAYJOB, "byPhase: Complete", "byPhase: Completed",
         PHASE_RULES),
    Case(PHASE, "rayjob running as Started", RAYJOB, "byPhase: Running", "byPhase: Started", PHASE_RULES),
    Case(PHASE, "raycluster state Ready, capitalised", RAYCLUSTER, "byPhase: ready", "byPhase: Ready",
         PHASE_RULES),
    Case(PHASE, "pod phase Completed", "core-pod-v1.yaml", "byPhase: Succeeded", "byPhase: Completed",
         PHASE_RULES),
    Case(PHASE, "pod phase Error", "core-pod-v1.yaml", "byPhase: Failed", "byPhase: Error", PHASE_RULES),
    Case(PHASE, "milvus status Running", "milvus-io-milvus-v1beta1.yaml", "byPhase: Healthy",
         "byPhase: Running", PHASE_RULES),
    Case(PHASE, "nimcache state Completed", "apps-nvidia-com-nimcache-v1alpha1.yaml", "byPhase: Ready",
         "byPhase: Completed", PHASE_RULES),
    Case(PHASE, "nimservice state Running", "apps-nvidia-com-nimservice-v1alpha1.yaml", "byPhase: Ready",
         "byPhase: Running", PHASE_RULES),
    Case(PHASE, "nimservice state Pending, declared and never written",
         "apps-nvidia-com-nimservice-v1alpha1.yaml", "byPhase: NotReady", "byPhase: Pending", PHASE_RULES),
    Case(PHASE, "jobset terminal state Complete, in an expression", "jobset-x-k8s-io-jobset-v1alpha2.yaml",
         'expression: .status.terminalState // ""\n                expectedResult: Completed',
         'expression: (.status.terminalState // "") == "Complete"\n                expectedResult: "true"',
         PHASE_RULES),
    Case(PHASE, "rayservice service status Healthy, in an expression", RAYSERVICE,
         '            - byConditions: [{type: Ready, status: "True"}]\n',
         '            - byConditions: [{type: Ready, status: "True"}]\n'
         '            - byExpression: {expression: \'(.status.serviceStatus // "") == "Healthy"\', '
         'expectedResult: "true"}\n', PHASE_RULES),
    Case(PHASE, "rayjob job status COMPLETED", RAYJOB, "expectedResult: SUCCEEDED",
         "expectedResult: COMPLETED", PHASE_RULES),
]

CASES = GANG_CASES + CHILD_CASES + SIBLING_CASES + PHASE_CASES
