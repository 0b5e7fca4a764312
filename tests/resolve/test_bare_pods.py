"""A Pod without a controller owner is a workload of the Pod definition; a Pod a workload owns stays that
workload's pod."""

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wmaplint import cli_resolve
from wmaplint.resolve.pods import controller_owned

from .conftest import FIXTURES

ROOT = Path(__file__).parents[2]
POD_EXAMPLES = ROOT / "catalog" / "examples" / "core-pod-v1"
JOBSET = str(FIXTURES / "jobset-leader-workers.yaml")
DEFINITION = str(FIXTURES / "jobset.karta.yaml")

OWNED_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: llm-train-leader-0-0
  namespace: team-a
  labels:
    jobset.sigs.k8s.io/jobset-name: llm-train
    jobset.sigs.k8s.io/replicatedjob-name: leader
  ownerReferences:
  - {apiVersion: batch/v1, kind: Job, name: llm-train-leader-0, uid: u1, controller: true}
spec:
  containers: [{name: c, image: i}]
"""

BARE_POD = """\
apiVersion: v1
kind: Pod
metadata:
  name: debug
  namespace: team-a
  ownerReferences:
  - {apiVersion: v1, kind: ConfigMap, name: keep-alive, uid: u2}
spec:
  containers: [{name: c, image: i, resources: {limits: {nvidia.com/gpu: 1}}}]
status: {phase: Running}
"""


@pytest.fixture()
def cli():
    group = click.Group(commands={"tree": cli_resolve.tree})
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(group, list(args), **kw)


def test_the_catalogs_pod_examples_resolve_as_workloads(cli):
    result = cli("tree", *sorted(str(p) for p in POD_EXAMPLES.glob("*.yaml")), "--format", "json")
    assert result.exit_code == 0, result.output
    workloads = json.loads(result.output)["workloads"]
    assert [(w["kind"], w["name"], w["definition"], w["totals"]["gpus"]) for w in workloads] == [
        ("Pod", "notebook-alice", "core-pod-v1", 2),
        ("Pod", "eval-run", "core-pod-v1", 8),
    ]
    assert [w["status"]["status"] for w in workloads] == ["Running", "Initializing"]


def test_a_pod_with_a_controller_owner_stays_the_workloads_pod(cli, tmp_path):
    pod = tmp_path / "pod.yaml"
    pod.write_text(OWNED_POD)
    result = cli("tree", JOBSET, str(pod), "--definition", DEFINITION, "--format", "json")
    assert result.exit_code == 0, result.output
    [workload] = json.loads(result.output)["workloads"]
    assert workload["kind"] == "JobSet"
    assert [p["pod"] for p in workload["pods"]] == ["team-a/llm-train-leader-0-0"]


def test_a_pod_owned_without_controller_beside_a_workload_is_its_own_workload(cli, tmp_path):
    pods = tmp_path / "pods.yaml"
    pods.write_text("apiVersion: v1\nkind: PodList\nitems:\n" + "".join(
        "- " + "\n  ".join(doc.splitlines()) + "\n" for doc in (OWNED_POD, BARE_POD)))
    result = cli("tree", JOBSET, str(pods), "--definition", DEFINITION, "--format", "json")
    assert result.exit_code == 0, result.output
    workloads = json.loads(result.output)["workloads"]
    assert [(w["kind"], w["name"]) for w in workloads] == [("JobSet", "llm-train"), ("Pod", "debug")]
    assert [p["pod"] for p in workloads[0]["pods"]] == ["team-a/llm-train-leader-0-0"]
    assert workloads[1]["totals"]["gpus"] == 1 and workloads[1]["status"]["status"] == "Running"


def test_pods_given_with_the_pods_option_are_never_workloads(cli, tmp_path):
    pods = tmp_path / "pods.yaml"
    pods.write_text(BARE_POD)
    result = cli("tree", JOBSET, "--pods", str(pods), "--definition", DEFINITION, "--format", "json")
    assert [w["kind"] for w in json.loads(result.output)["workloads"]] == ["JobSet"]


@pytest.mark.parametrize(
    ("references", "owned"),
    [
        (None, False),
        ([], False),
        ([{"kind": "Job", "name": "j", "controller": False}], False),
        ([{"kind": "Job", "name": "j"}], False),
        ([{"kind": "Job", "name": "j", "controller": "true"}], False),  # the API server refuses a string
        ([{"kind": "ConfigMap", "name": "c"}, {"kind": "Job", "name": "j", "controller": True}], True),
    ],
)
def test_controller_owned_is_an_owner_reference_with_controller_true(references, owned):
    metadata = {"name": "p"} if references is None else {"name": "p", "ownerReferences": references}
    pod = {"kind": "Pod", "metadata": metadata}
    assert controller_owned(pod) is owned
