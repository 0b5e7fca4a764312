"""`wmaplint test` validates each case's manifest against its CRD (WM607 structural, WM604 CEL rules)."""

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from wmaplint import cli_resolve
from wmaplint.suites.runner import run_suites, suite_diagnostics

FIXTURES = Path(__file__).resolve().parents[1] / "resolve" / "fixtures"

# Line 12 holds the misspelled `replicaz` (the inline manifest lives in the suite itself).
INLINE_SUITE = """\
# a JobSet whose replicated job misspells `replicas`
definition: jobset.karta.yaml
cases:
- name: misspelled replicas
  manifest:
    apiVersion: jobset.x-k8s.io/v1alpha2
    kind: JobSet
    metadata: {name: typo}
    spec:
      replicatedJobs:
      - name: workers
        replicaz: 2
        template: {spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}}
  expect:
    totals: {pods: 1}
%(findings)s"""

FILE_SUITE = """\
definition: jobset.karta.yaml
cases:
- name: manifest file with a typo
  manifest: typo.yaml
  expect:
    totals: {pods: 1}
"""

# Line 8 holds `paralelism`, a misspelling inside the Job template.
TYPO_MANIFEST = """\
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: typo}
spec:
  replicatedJobs:
  - name: workers
    template:
      spec:
        paralelism: 1
        template: {spec: {containers: [{name: c, image: busybox}]}}
"""


def run_cli(*args):
    group = click.Group(commands={"test": cli_resolve.test})
    return CliRunner().invoke(group, ["test", *args])


@pytest.fixture()
def suite_dir(tmp_path):
    shutil.copy(FIXTURES / "jobset.karta.yaml", tmp_path / "jobset.karta.yaml")
    return tmp_path


def write_inline(directory: Path, findings: str = "") -> Path:
    path = directory / "typo.test.yaml"
    path.write_text(INLINE_SUITE % {"findings": findings})
    return path


def test_inline_manifest_rejected_by_its_crd_fails_at_the_misspelled_line(suite_dir):
    path = write_inline(suite_dir)
    [case] = run_suites([path])[0].cases
    assert not case.passed
    assert case.differences == ["findings: expected [], got ['WM607']"]
    [diagnostic] = case.diagnostics
    assert diagnostic.rule == "WM607" and diagnostic.path == str(path)
    assert (diagnostic.span.start_line, diagnostic.span.start_col) == (12, 9)
    assert 'unknown field "spec.replicatedJobs[0].replicaz"' in diagnostic.message
    cli = run_cli(str(path))
    assert cli.exit_code == 1
    assert f"{path}:12:9: warning WM607 unknown field" in cli.output


def test_manifest_file_finding_points_into_the_manifest_file(suite_dir):
    (suite_dir / "typo.yaml").write_text(TYPO_MANIFEST)
    suite = suite_dir / "file.test.yaml"
    suite.write_text(FILE_SUITE)
    [case] = run_suites([suite])[0].cases
    [diagnostic] = case.diagnostics
    assert diagnostic.path == str(suite_dir / "typo.yaml")
    assert diagnostic.span.start_line == 9 and "paralelism" in diagnostic.message
    assert not case.passed


def test_declared_finding_makes_the_case_pass(suite_dir):
    path = write_inline(suite_dir, "    findings: [WM607]\n")
    [result] = run_suites([path])
    assert result.passed
    cli = run_cli(str(path))
    assert cli.exit_code == 0 and "1 passed, 0 failed" in cli.output


def test_update_writes_the_schema_finding_as_expectation(suite_dir):
    path = write_inline(suite_dir)
    cli = run_cli("--update", str(path))
    assert cli.exit_code == 0, cli.output
    text = path.read_text()
    assert "# a JobSet whose replicated job misspells `replicas`" in text
    assert "    findings: [WM607]\n" in text  # written as suites write it
    assert run_suites([path])[0].passed


def test_junit_carries_the_finding(suite_dir):
    path = write_inline(suite_dir)
    report = suite_dir / "junit.xml"
    run_cli("--junit", str(report), str(path))
    failure = ET.parse(report).getroot().find("testsuite/testcase/failure")
    assert "findings: expected [], got ['WM607']" in failure.text
    assert f"{path}:12:9: warning WM607" in failure.text
    # with the finding expected the case passes and the finding stays readable in the report
    write_inline(suite_dir, "    findings: [WM607]\n")
    run_cli("--junit", str(report), str(path))
    case = ET.parse(report).getroot().find("testsuite/testcase")
    assert case.find("failure") is None and "WM607" in case.find("system-out").text


def test_failing_case_diagnostic_relates_the_schema_finding(suite_dir):
    path = write_inline(suite_dir)
    [diagnostic] = suite_diagnostics(run_suites([path])[0])
    assert diagnostic.rule == "WM720"
    [related] = diagnostic.related
    assert related.path == str(path) and related.span.start_line == 12 and "WM607" in related.message


def test_crds_option_is_searched_before_the_environment(suite_dir, bundled_crd, monkeypatch,
                                                         tmp_path_factory):
    empty = tmp_path_factory.mktemp("no-schemas")
    monkeypatch.setenv("WMAPLINT_SCHEMA_PATH", str(empty))
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(empty))
    monkeypatch.setattr("wmaplint.schema.store.shipped_bundle", lambda: None)  # not even the bundled schemas
    crds = tmp_path_factory.mktemp("crds")
    (crds / "jobset.yaml").write_text(bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml"))
    path = write_inline(suite_dir)
    unchecked = run_cli(str(path))
    # no schema: nothing to validate against, the case passes and a note says why
    assert unchecked.exit_code == 0, unchecked.output
    assert "NOTE" in unchecked.output and "pass --crds" in unchecked.output
    checked = run_cli("--crds", str(crds), str(path))
    assert checked.exit_code == 1 and "WM607" in checked.output


def test_missing_crds_path_is_reported(suite_dir):
    path = write_inline(suite_dir, "    findings: [WM607]\n")
    missing = suite_dir / "no-such-dir"
    cli = run_cli("--crds", str(missing), str(path))
    # a path the user names that cannot be read: one line and exit 2, before any suite runs
    assert cli.exit_code == 2 and cli.stdout == ""
    assert f"--crds {missing}: no such file or directory" in cli.stderr


def test_cel_rule_violation_is_a_wm604_finding(tmp_path, repo):
    suite = tmp_path / "trainjob.test.yaml"
    definition = repo / "catalog" / "trainer-kubeflow-org-trainjob-v1alpha1.yaml"
    suite.write_text(
        f"definition: {definition}\n"
        "cases:\n"
        "- name: foreign manager\n"
        "  manifest:\n"
        "    apiVersion: trainer.kubeflow.org/v1alpha1\n"
        "    kind: TrainJob\n"
        "    metadata: {name: t}\n"
        "    spec:\n"
        "      managedBy: example.com/other\n"
        "      runtimeRef: {name: torch-distributed}\n"
    )
    [case] = run_suites([suite])[0].cases
    assert "WM604" in case.actual["findings"] and not case.passed
    [diagnostic] = [d for d in case.diagnostics if d.rule == "WM604"]
    assert diagnostic.span.start_line == 9 and "ManagedBy must be" in diagnostic.message
