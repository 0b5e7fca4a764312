"""`wmaplint test` as a command: its default suites and how a failure is printed."""

import os

from .test_suites import make_suite, run_cli


def test_without_a_path_the_suites_of_the_working_directorys_catalog_run(tmp_path, monkeypatch):
    suites = tmp_path / "catalog" / "tests"
    suites.mkdir(parents=True)
    make_suite(suites)
    monkeypatch.chdir(tmp_path)
    result = run_cli()
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"PASS  {os.path.join('catalog', 'tests', 'jobset.test.yaml')} :: leader and two workers",
        f"PASS  {os.path.join('catalog', 'tests', 'jobset.test.yaml')} :: inline manifest without status",
        "2 passed, 0 failed",
    ]


def test_without_a_path_and_without_catalog_tests_here_it_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run_cli()
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "wmaplint: no test suites found: the default is catalog/tests/ of the working directory, which has "
        "none; name suite files, recordings or directories"
    ]


def test_a_failure_is_printed_once(tmp_path):
    make_suite(tmp_path, pods=4)
    result = run_cli(str(tmp_path))
    assert result.exit_code == 1
    assert result.output.count("leader and two workers") == 1
    assert result.output.count("totals.pods: expected 4, got 3") == 1


def test_a_case_whose_manifest_the_definition_does_not_describe_is_an_error(tmp_path):
    path = make_suite(tmp_path)
    path.write_text(path.read_text().replace("kind: JobSet", "kind: Job").replace(
        "apiVersion: jobset.x-k8s.io/v1alpha2", "apiVersion: batch/v1"))
    result = run_cli(str(path))
    assert result.exit_code == 1
    assert (
        "        the manifest is batch/v1 Job, the definition describes jobset.x-k8s.io/v1alpha2 JobSet "
        f"({tmp_path / 'jobset.karta.yaml'})"
    ) in result.stdout.splitlines()
