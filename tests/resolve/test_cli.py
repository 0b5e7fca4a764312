import json

import click
import pytest
from click.testing import CliRunner

from wmaplint import cli_resolve

from .conftest import FIXTURES

DEFINITION = str(FIXTURES / "jobset.karta.yaml")
MANIFEST = str(FIXTURES / "jobset-leader-workers.yaml")


@pytest.fixture()
def cli():
    group = click.Group(commands={"tree": cli_resolve.tree, "test": cli_resolve.test})
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(group, list(args), **kw)


def test_text_tree_reads_as_one_workload(cli):
    result = cli("tree", MANIFEST, "--definition", DEFINITION)
    assert result.exit_code == 0, result.output
    assert (
        result.output.splitlines()[0]
        == "JobSet team-a/llm-train: 1 workload, 3 pods, 12 GPUs, cpu 24, memory 192Gi"
    )
    assert "workers: replicas 2 -> 2 pods, 8 GPUs" in result.output


def test_json_output(cli):
    result = cli("tree", MANIFEST, "--definition", DEFINITION, "--format", "json")
    [workload] = json.loads(result.output)["workloads"]
    assert workload["totals"]["pods"] == 3 and workload["totals"]["gpus"] == 12
    assert workload["totals"]["cpu"] == "24" and workload["totals"]["memory"] == "192Gi"
    assert workload["status"]["status"] == "Running"
    assert [c["name"] for c in workload["components"]] == ["jobset", "replicatedjob"]
    assert workload["gangs"][0]["minAvailable"] == 3


def test_dot_output(cli):
    result = cli("tree", MANIFEST, "--definition", DEFINITION, "--format", "dot")
    assert result.output.startswith("digraph") and '"workers\\n2 pods, 8 GPUs"' in result.output


def test_stdin_and_multi_document_with_pods(cli, tmp_path):
    pods = tmp_path / "pods.yaml"
    pods.write_text(
        "kind: PodList\napiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n    name: p\n    labels:\n"
        "      jobset.sigs.k8s.io/jobset-name: llm-train\n"
        "      jobset.sigs.k8s.io/replicatedjob-name: leader\n"
    )
    text = open(MANIFEST).read()
    result = cli("tree", "-", "--definition", DEFINITION, "--pods", str(pods), "--format", "json", input=text)
    [workload] = json.loads(result.output)["workloads"]
    assert workload["pods"] == [
        {"pod": "p", "component": "replicatedjob", "instance": "leader", "replica": None}
    ]


def test_unknown_kind_only_exits_2_with_a_message(cli, tmp_path):
    manifest = tmp_path / "x.yaml"
    manifest.write_text("apiVersion: example.com/v1\nkind: Unknown\nmetadata: {name: x}\n")
    result = cli("tree", str(manifest))
    assert result.exit_code == 2
    assert "no definition for example.com/v1 Unknown" in result.output


def test_unknown_kind_beside_a_resolved_one_is_a_warning(cli, tmp_path):
    manifest = tmp_path / "x.yaml"
    unknown = "---\napiVersion: example.com/v1\nkind: Trainer\nmetadata: {name: c}\n"
    manifest.write_text(open(MANIFEST).read() + unknown)
    result = cli("tree", str(manifest), "--definition", DEFINITION)
    assert result.exit_code == 0 and "WM710" in result.output


def test_built_in_kinds_that_run_no_pods_are_passed_by_quietly(cli, tmp_path):
    extras = "".join(
        f"---\napiVersion: {api}\nkind: {kind}\nmetadata: {{name: c}}\n"
        for api, kind in (("v1", "ConfigMap"), ("v1", "Service"), ("rbac.authorization.k8s.io/v1", "Role"))
    )
    manifest = tmp_path / "x.yaml"
    manifest.write_text(open(MANIFEST).read() + extras)
    result = cli("tree", str(manifest), "--definition", DEFINITION)
    assert result.exit_code == 0 and "WM710" not in result.output
    only = tmp_path / "config.yaml"
    only.write_text(extras)
    result = cli("tree", str(only), "--definition", DEFINITION)
    assert result.exit_code == 0 and "v1 ConfigMap runs no pods; passed by" in result.output


def test_two_definitions_for_one_kind_is_an_error(cli):
    result = cli("tree", MANIFEST, "--definition", DEFINITION, "--definition", DEFINITION)
    assert result.exit_code == 1 and "WM711" in result.output  # a positioned finding, not a usage error


def test_nothing_resolved_because_of_a_positioned_finding_exits_1(cli, tmp_path):
    # 40,000 container args put the only document past the 30,000-node limit: WM718 at its first line.
    args = "".join(f"        - --flag-{i}\n" for i in range(40_000))
    only_big = tmp_path / "big.yaml"
    only_big.write_text("apiVersion: batch/v1\nkind: Job\nmetadata: {name: big}\nspec:\n  template:\n"
                        "    spec:\n      containers:\n      - name: main\n        args:\n" + args)
    result = cli("tree", str(only_big), "--definition", DEFINITION)
    assert result.exit_code == 1, result.output
    assert f"{only_big}:1:1: error WM718 manifest document has more than 30000 YAML nodes" in result.output
    assert "nothing could be resolved" in result.output


@pytest.mark.parametrize(
    ("content", "code"),
    [("a: [\n", 1), ("\x00\x01", 2), ("- " * 5000 + "x\n", 1), ("[" * 20000 + "]" * 20000, 1)],
)
def test_bad_input_is_one_line_not_a_traceback(cli, tmp_path, content, code):
    path = tmp_path / "bad.yaml"
    path.write_text(content)
    result = cli("tree", str(path), "--definition", DEFINITION)
    # YAML that does not parse is a positioned WM101 (exit 1, as in check); a binary file is one line, exit 2
    assert result.exit_code == code
    assert (code == 2) == ("WM101" not in result.output)
    assert (
        "Traceback" not in result.output
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    )


def test_missing_file(cli):
    result = cli("tree", "/nonexistent/m.yaml")
    assert result.exit_code == 2 and "no such file" in result.output


def test_error_findings_exit_1(cli, tmp_path):
    broken = tmp_path / "def.yaml"
    broken.write_text(
        open(DEFINITION)
        .read()
        .replace(
            "replicasPath: '.spec.replicatedJobs[] | (.replicas // 1) * (.template.spec.parallelism // 1)'",
            "replicasPath: '.spec.replicatedJobs[].replicas // 1'",
        )
    )
    manifest = tmp_path / "m.yaml"
    manifest.write_text(open(MANIFEST).read().replace("    replicas: 1\n", ""))
    result = cli("tree", str(manifest), "--definition", str(broken))
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if "error WM702" in x)
    # positioned at the replicasPath value in the definition
    assert line.startswith(f"{broken}:31:23:")
