import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import click
from click.testing import CliRunner

from wmaplint import cli_resolve
from wmaplint.suites.runner import discover_suites, run_suites

FIXTURES = Path(__file__).resolve().parents[1] / "resolve" / "fixtures"

SUITE = """\
# suite comment kept by --update
definition: jobset.karta.yaml
cases:
- name: leader and two workers
  manifest: jobset-leader-workers.yaml
  expect:
    totals: {pods: %(pods)d, gpus: 12}
    status: Running
    instances: {replicatedjob: {leader: 1, workers: 2}}
    gangs: {job: 3}
- name: inline manifest without status
  manifest:
    apiVersion: jobset.x-k8s.io/v1alpha2
    kind: JobSet
    metadata: {name: tiny}
    spec:
      replicatedJobs:
      - name: only
        template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}
  expect:
    totals: {pods: 1, gpus: 0}
    status: Initializing
"""


def make_suite(tmp_path: Path, pods: int = 3) -> Path:
    for name in ("jobset.karta.yaml", "jobset-leader-workers.yaml"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    path = tmp_path / "jobset.test.yaml"
    path.write_text(SUITE % {"pods": pods})
    return path


def run_cli(*args):
    group = click.Group(commands={"test": cli_resolve.test})
    return CliRunner().invoke(group, ["test", *args])


def test_passing_suite(tmp_path):
    path = make_suite(tmp_path)
    [result] = run_suites([path])
    assert result.passed and [c.name for c in result.cases] == [
        "leader and two workers",
        "inline manifest without status",
    ]
    cli = run_cli(str(tmp_path))
    assert cli.exit_code == 0 and "2 passed, 0 failed" in cli.output


def test_failing_case_shows_a_readable_difference(tmp_path):
    make_suite(tmp_path, pods=4)
    cli = run_cli(str(tmp_path))
    assert cli.exit_code == 1
    assert "FAIL" in cli.output and "totals.pods: expected 4, got 3" in cli.output


def test_update_writes_current_results_and_keeps_comments(tmp_path):
    path = make_suite(tmp_path, pods=4)
    cli = run_cli("--update", str(path))
    assert cli.exit_code == 0, cli.output
    text = path.read_text()
    assert "# suite comment kept by --update" in text and "pods: 3" in text
    assert run_suites([path])[0].passed


def test_junit_report(tmp_path):
    make_suite(tmp_path, pods=4)
    report = tmp_path / "junit.xml"
    run_cli("--junit", str(report), str(tmp_path))
    root = ET.parse(report).getroot()
    suite = root.find("testsuite")
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    assert "totals.pods" in suite.find("testcase/failure").text


def test_invalid_suites_are_errors_not_tracebacks(tmp_path):
    bad = tmp_path / "bad.test.yaml"
    bad.write_text("cases: [\n")
    missing_def = tmp_path / "nodef.test.yaml"
    missing_def.write_text("definition: nowhere.yaml\ncases: [{name: x, manifest: m.yaml}]\n")
    results = run_suites(discover_suites([str(tmp_path)]))
    assert all(r.error for r in results)
    cli = run_cli(str(tmp_path))
    assert cli.exit_code == 2 and "ERROR" in cli.output and "Traceback" not in cli.output


def test_missing_manifest_fails_the_case_only(tmp_path):
    path = make_suite(tmp_path)
    path.write_text(path.read_text().replace("manifest: jobset-leader-workers.yaml", "manifest: gone.yaml"))
    [result] = run_suites([path])
    assert result.cases[0].error and "no such file" in result.cases[0].error and result.cases[1].passed


def test_unexpected_findings_fail_a_case(tmp_path):
    path = make_suite(tmp_path)
    definition = tmp_path / "jobset.karta.yaml"
    definition.write_text(
        definition.read_text().replace("- componentName: jobset", "- componentName: jobsets")
    )
    [result] = run_suites([path])
    assert any("findings" in d and "WM715" in d for d in result.cases[0].differences)


def test_catalog_suites_pass(repo):
    suites = sorted((repo / "catalog" / "tests").glob("*.test.yaml"))
    if not suites:
        import pytest

        pytest.skip("no catalog suites yet")
    failures = [
        (r.path, r.error, [c.differences for c in r.cases if not c.passed])
        for r in run_suites(suites)
        if not r.passed
    ]
    assert failures == []
