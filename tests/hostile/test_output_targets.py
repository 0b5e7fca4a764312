"""`--output FORMAT=FILE` and `test --update` write in their place: a device or pipe is written into, a link
is refused unless --follow-symlinks (the system's names of open descriptors, /dev/stdout and /dev/fd/N, are
written into), an input of the same run is never an output, and a regular file is replaced as --fix replaces
one (a temporary file beside it, synced, renamed, its mode kept).

These tests never name the system's /dev/null or /dev/stdout: a regression run as root would replace them
(the reproducer did). They make device nodes of their own, and use /dev/fd/1, which nothing can replace."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from wmaplint.rules.examples import JOB, job_with

from .helpers import JOB_MANIFEST, assert_clean, widget_crd, wmaplint

FINDING = job_with("specDefinition:", "specDefiniton:")


def _definitions(tmp_path):
    (tmp_path / "def.yaml").write_text(FINDING)
    return tmp_path / "def.yaml"


def test_a_definition_of_the_run_is_never_an_output(tmp_path) -> None:
    definition = _definitions(tmp_path)
    run = assert_clean(wmaplint("check", "--output", "sarif=def.yaml", "def.yaml", cwd=tmp_path), 2)
    assert run.error_lines == ["wmaplint: --output sarif=def.yaml: def.yaml is an input of this run; "
                               "nothing written"]
    assert definition.read_text() == FINDING


def test_an_input_is_recognised_through_another_name(tmp_path) -> None:
    definition = _definitions(tmp_path)
    os.link(definition, tmp_path / "same.yaml")  # one file, two names: found by device and inode
    run = assert_clean(wmaplint("check", "--output", "json=same.yaml", "def.yaml", cwd=tmp_path), 2)
    assert "same.yaml is an input of this run" in run.stderr
    (tmp_path / "sub").mkdir()
    run = assert_clean(wmaplint("check", "--output", "json=sub/../def.yaml", ".", cwd=tmp_path), 2)
    assert "is an input of this run" in run.stderr
    assert definition.read_text() == FINDING


def test_a_file_read_by_the_walk_is_never_an_output(tmp_path) -> None:
    (tmp_path / "defs").mkdir()
    (tmp_path / "defs" / "job.yaml").write_text(FINDING)
    run = assert_clean(wmaplint("check", "--output", "sarif=defs/job.yaml", "defs", cwd=tmp_path), 2)
    assert "defs/job.yaml is an input of this run" in run.stderr
    assert (tmp_path / "defs" / "job.yaml").read_text() == FINDING


def test_a_device_is_written_into_not_replaced(tmp_path) -> None:
    _definitions(tmp_path)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        run = assert_clean(wmaplint("check", "--output", f"json={fifo}", "def.yaml", cwd=tmp_path), 1)
        out, _ = reader.communicate(timeout=30)
    finally:
        reader.kill()
    assert json.loads(out)["diagnostics"][0]["rule"] == "WM112"
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert run.error_lines == []


def test_a_pipe_without_a_reader_is_one_line(tmp_path) -> None:
    _definitions(tmp_path)
    os.mkfifo(tmp_path / "pipe")
    run = assert_clean(wmaplint("check", "--output", "json=pipe", "def.yaml", cwd=tmp_path, timeout=30), 2)
    assert run.error_lines == ["wmaplint: --output json=pipe: no process reads this pipe; nothing written"]


def test_an_open_descriptor_is_written_into(tmp_path) -> None:
    _definitions(tmp_path)
    run = assert_clean(wmaplint("check", "--format", "json", "--output", "sarif=/dev/fd/1", "def.yaml",
                                cwd=tmp_path), 1)
    assert '"$schema"' in run.stdout and '"diagnostics"' in run.stdout
    run = assert_clean(wmaplint("check", "--output", "sarif=/dev/fd/9", "def.yaml", cwd=tmp_path), 2)
    assert run.error_lines == [
        "wmaplint: --output sarif=/dev/fd/9: descriptor 9 is not open; nothing written"]


def test_a_link_is_refused_unless_followed(tmp_path) -> None:
    _definitions(tmp_path)
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me\n")
    os.symlink(elsewhere, tmp_path / "report.sarif")
    run = assert_clean(wmaplint("check", "--output", "sarif=report.sarif", "def.yaml", cwd=tmp_path), 2)
    assert run.error_lines == ["wmaplint: --output sarif=report.sarif: is a symbolic link; nothing written "
                               "(--follow-symlinks writes to its target)"]
    assert elsewhere.read_text() == "keep me\n" and os.path.islink(tmp_path / "report.sarif")
    run = assert_clean(wmaplint("check", "--follow-symlinks", "--output", "sarif=report.sarif", "def.yaml",
                                cwd=tmp_path), 1)
    assert os.path.islink(tmp_path / "report.sarif")
    assert json.loads(elsewhere.read_text())["version"] == "2.1.0"


def test_a_link_to_an_input_is_an_input(tmp_path) -> None:
    definition = _definitions(tmp_path)
    os.symlink(definition, tmp_path / "out.json")
    run = assert_clean(wmaplint("check", "--follow-symlinks", "--output", "json=out.json", "def.yaml",
                                cwd=tmp_path), 2)
    assert "out.json is an input of this run" in run.stderr
    assert definition.read_text() == FINDING


def test_a_regular_file_keeps_its_mode_and_leaves_no_temporary_file(tmp_path) -> None:
    _definitions(tmp_path)
    report = tmp_path / "report.json"
    report.write_text("old\n")
    report.chmod(0o640)
    assert_clean(wmaplint("check", "--output", "json=report.json", "def.yaml", cwd=tmp_path), 1)
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert json.loads(report.read_text())["diagnostics"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["def.yaml", "report.json"]


def test_a_directory_is_one_line(tmp_path) -> None:
    _definitions(tmp_path)
    (tmp_path / "out").mkdir()
    run = assert_clean(wmaplint("check", "--output", "json=out", "def.yaml", cwd=tmp_path), 2)
    assert run.error_lines == ["wmaplint: --output json=out: is a directory; nothing written"]


def test_nothing_is_written_when_one_output_is_refused(tmp_path) -> None:
    _definitions(tmp_path)
    run = assert_clean(wmaplint("check", "--output", "json=a.json", "--output", "sarif=def.yaml", "def.yaml",
                                cwd=tmp_path), 2)
    assert "def.yaml is an input of this run" in run.stderr
    assert not (tmp_path / "a.json").exists()


@pytest.mark.skipif(os.geteuid() != 0, reason="replacing a device needs root")
def test_as_root_a_device_node_stays_a_device(tmp_path) -> None:
    _definitions(tmp_path)
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert_clean(wmaplint("check", "--output", f"sarif={device}", "def.yaml", cwd=tmp_path), 1)
    assert stat.S_ISCHR(os.lstat(device).st_mode)


# -- test --update ----------------------------------------------------------------------------------------

SUITE = """\
definition: def.yaml
cases:
- name: one job
  manifest:
    apiVersion: batch/v1
    kind: Job
    metadata: {name: train, namespace: default}
    spec:
      parallelism: 2
      template:
        spec:
          containers: [{name: main, image: busybox}]
  expect:
    totals: {pods: 99, gpus: 0}
"""


def _suite(tmp_path):
    (tmp_path / "def.yaml").write_text(JOB)
    suite = tmp_path / "job.test.yaml"
    suite.write_text(SUITE)
    return suite


def _update(tmp_path, *paths: str):
    return subprocess.run([sys.executable, "-m", "wmaplint", "test", "--update", *paths], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "NO_COLOR": "1"})


def test_update_keeps_the_suites_mode(tmp_path) -> None:
    suite = _suite(tmp_path)
    suite.chmod(0o644)
    run = _update(tmp_path, "job.test.yaml")
    assert "Traceback" not in run.stderr, run.stderr
    assert suite.read_text() != SUITE, run.stdout + run.stderr
    assert stat.S_IMODE(suite.stat().st_mode) == 0o644
    assert sorted(p.name for p in tmp_path.iterdir()) == ["def.yaml", "job.test.yaml"]


def test_update_leaves_a_linked_suite_alone(tmp_path) -> None:
    suite = _suite(tmp_path)
    os.symlink(suite.name, tmp_path / "link.test.yaml")
    run = _update(tmp_path, "link.test.yaml")
    assert "wmaplint: link.test.yaml: is a symbolic link; not updated" in run.stderr, run.stderr
    assert run.returncode == 2
    assert os.path.islink(tmp_path / "link.test.yaml") and suite.read_text() == SUITE


@pytest.mark.parametrize("link", ["catalog", "catalog/tests"])
def test_update_without_paths_follows_no_link_out_of_the_working_directory(tmp_path, link: str) -> None:
    # the default catalog/tests/ is the repository's: reached through `catalog -> ../outside`, a suite outside
    # the repository was rewritten, where `test .` walks past the link
    outside, repo = tmp_path / "outside", tmp_path / "repo"
    (outside / "tests").mkdir(parents=True)
    (outside / "tests" / "def.yaml").write_text(JOB)
    (outside / "tests" / "job.test.yaml").write_text(SUITE)
    repo.mkdir()
    if link == "catalog":
        os.symlink("../outside", repo / "catalog")
    else:
        (repo / "catalog").mkdir()
        os.symlink("../../outside/tests", repo / "catalog" / "tests")
    run = _update(repo)
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 2, run.stdout + run.stderr
    assert "a symbolic link out of the working directory" in run.stderr, run.stderr
    assert (outside / "tests" / "job.test.yaml").read_text() == SUITE


def test_update_without_paths_reads_no_linked_suite_from_outside(tmp_path) -> None:
    outside, repo = tmp_path / "outside", tmp_path / "repo"
    outside.mkdir()
    (outside / "def.yaml").write_text(JOB)
    (outside / "job.test.yaml").write_text(SUITE)
    (repo / "catalog" / "tests").mkdir(parents=True)
    os.symlink("../../../outside/job.test.yaml", repo / "catalog" / "tests" / "job.test.yaml")
    run = _update(repo)
    assert run.returncode == 2 and "no test suites found" in run.stderr, run.stdout + run.stderr
    assert (outside / "job.test.yaml").read_text() == SUITE



# -- test --junit -----------------------------------------------------------------------------------------

def _junit(tmp_path, target: str, *extra: str):
    _suite(tmp_path)
    return assert_clean(wmaplint("test", "--junit", target, *extra, "job.test.yaml", cwd=tmp_path), 1, 2)


def test_junit_into_the_suite_itself_is_refused(tmp_path) -> None:
    run = _junit(tmp_path, "job.test.yaml")
    assert run.returncode == 2
    assert run.error_lines == ["wmaplint: --junit job.test.yaml: job.test.yaml is an input of this run; "
                               "nothing written"]
    assert (tmp_path / "job.test.yaml").read_text() == SUITE
    os.link(tmp_path / "job.test.yaml", tmp_path / "same.xml")  # another name of the suite
    assert "same.xml is an input of this run" in _junit(tmp_path, "same.xml", "--update").stderr
    assert (tmp_path / "job.test.yaml").read_text() == SUITE  # refused before --update wrote anything


NAMING_SUITE = """\
definition: {file: def.yaml}
cases:
- name: files
  manifest: m.yaml
  pods: pods.yaml
  with: runtime.yaml
  expect: {totals: {pods: 99}}
"""

RECORDING = """\
definition: def.yaml
events:
- kind: STATE
  state: Running
  object: {apiVersion: batch/v1, kind: Job, metadata: {name: train}}
"""


@pytest.mark.parametrize("named", ["def.yaml", "m.yaml", "pods.yaml", "runtime.yaml"])
def test_junit_into_a_file_a_suite_names_is_refused(tmp_path, named: str) -> None:
    # only the suites were inputs: `--junit m.yaml` replaced the manifest a case reads with the report
    (tmp_path / "def.yaml").write_text(JOB)
    texts = {"m.yaml": JOB_MANIFEST, "pods.yaml": "[]\n", "runtime.yaml": "{}\n"}
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "s.test.yaml").write_text(NAMING_SUITE)
    run = assert_clean(wmaplint("test", "--junit", named, "s.test.yaml", cwd=tmp_path), 2)
    assert run.error_lines == [f"wmaplint: --junit {named}: {named} is an input of this run; nothing written"]
    assert run.stdout == ""  # refused before any suite ran
    assert (tmp_path / "def.yaml").read_text() == JOB
    assert all((tmp_path / name).read_text() == text for name, text in texts.items())


def test_junit_into_a_recordings_definition_is_refused(tmp_path) -> None:
    (tmp_path / "def.yaml").write_text(JOB)
    (tmp_path / "run.yaml").write_text(RECORDING)
    os.link(tmp_path / "def.yaml", tmp_path / "same.xml")  # and through another name of it
    for target in ("def.yaml", "same.xml"):
        run = assert_clean(wmaplint("test", "--junit", target, "run.yaml", cwd=tmp_path), 2)
        assert run.error_lines == [f"wmaplint: --junit {target}: {target} is an input of this run; "
                                   "nothing written"]
    assert (tmp_path / "def.yaml").read_text() == JOB


def _schema_sources(tmp_path):
    """A suite and its definition, and one CRD below a --crds directory and one on the schema path: the
    CRD's text and the environment naming the path."""
    _suite(tmp_path)
    crd = widget_crd({"type": "object"})
    for folder in ("crds", "schemas"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "widget.yaml").write_text(crd)
    env = {"WMAPLINT_SCHEMA_PATH": str(tmp_path / "schemas"), "WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}
    return crd, env


def test_junit_into_a_schema_source_below_a_directory_is_refused(tmp_path) -> None:
    # `--crds crds` named the directory only: `--junit crds/widget.yaml` replaced a CRD validation reads
    crd, env = _schema_sources(tmp_path)
    for target in ("crds/widget.yaml", "schemas/widget.yaml"):
        run = assert_clean(wmaplint("test", "--crds", "crds", "--junit", target, "job.test.yaml",
                                    cwd=tmp_path, env=env), 2)
        assert run.error_lines == [f"wmaplint: --junit {target}: {target} is an input of this run; "
                                   "nothing written"]
        assert (tmp_path / target).read_text() == crd
    run = assert_clean(wmaplint("test", "--crds", "crds", "--junit", "crds/report.xml", "job.test.yaml",
                                cwd=tmp_path, env=env), 1)  # a file no schema source is: written
    assert "<testsuites" in (tmp_path / "crds" / "report.xml").read_text()


def test_junit_to_a_link_is_refused(tmp_path) -> None:
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("keep me\n")
    os.symlink(elsewhere, tmp_path / "report.xml")
    run = _junit(tmp_path, "report.xml")
    assert run.returncode == 2
    assert run.error_lines == ["wmaplint: --junit report.xml: is a symbolic link; nothing written"]
    assert elsewhere.read_text() == "keep me\n" and os.path.islink(tmp_path / "report.xml")


def test_junit_into_a_pipe_is_written_into(tmp_path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        run = _junit(tmp_path, str(fifo))
        out, _ = reader.communicate(timeout=30)
    finally:
        reader.kill()
    assert run.returncode == 1 and b"<testsuites" in out and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    os.unlink(fifo)
    os.mkfifo(fifo)  # and with no reader: one line, not a run that never ends
    run = _junit(tmp_path, "pipe")
    assert run.error_lines == ["wmaplint: --junit pipe: no process reads this pipe; nothing written"]


def test_junit_keeps_a_reports_mode_and_writes_into_a_descriptor(tmp_path) -> None:
    report = tmp_path / "report.xml"
    report.write_text("old\n")
    report.chmod(0o640)
    assert _junit(tmp_path, "report.xml").returncode == 1
    assert stat.S_IMODE(report.stat().st_mode) == 0o640 and "<testsuites" in report.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["def.yaml", "job.test.yaml", "report.xml"]
    assert "<testsuites" in _junit(tmp_path, "/dev/fd/1").stdout


@pytest.mark.skipif(os.geteuid() != 0, reason="replacing a device needs root")
def test_as_root_junit_to_a_device_leaves_it_a_device(tmp_path) -> None:
    device = tmp_path / "null"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    assert _junit(tmp_path, str(device)).returncode == 1
    assert stat.S_ISCHR(os.lstat(device).st_mode)


def test_output_into_a_schema_source_below_a_directory_is_refused(tmp_path) -> None:
    # `check --crds crds --output sarif=crds/widget.yaml` replaced a CRD the run reads with the report
    crd, env = _schema_sources(tmp_path)
    for target in ("crds/widget.yaml", "schemas/widget.yaml"):
        run = assert_clean(wmaplint("check", "--crds", "crds", "--output", f"sarif={target}", "def.yaml",
                                    cwd=tmp_path, env=env), 2)
        assert run.error_lines == [f"wmaplint: --output sarif={target}: {target} is an input of this run; "
                                   "nothing written"]
        assert (tmp_path / target).read_text() == crd
    run = assert_clean(wmaplint("check", "--crds", "crds", "--output", "sarif=crds/report.sarif", "def.yaml",
                                cwd=tmp_path, env=env), 0)  # a file no schema source is: written
    assert '"runs"' in (tmp_path / "crds" / "report.sarif").read_text()
