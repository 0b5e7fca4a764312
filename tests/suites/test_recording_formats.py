"""Every recorder format upstream has used is a suite: `events:` with and without `phases` and `summary`,
with keys `test` does not read (`references:`), and the older `steps:` format (run-ai/karta@3873187
test/conformance/fixture.go: the first step's full `cr`, then an RFC 7386 merge `patch` per step, each
with the `state` recorded), replayed by the same rule (run-ai/karta@800e119
test/e2e/conformance/golden_test.go)."""

import shutil
from pathlib import Path

import pytest
import yaml
from json_merge_patch import create_patch

from wmaplint.selection import is_recording

from .test_suites import run_cli

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "catalog" / "tests" / "recordings"
SHARED = ROOT.parent / "shared" / "recordings"


def _as_steps(recording: dict) -> dict:
    """A recording in the `steps:` format, made as upstream's recorder made it (MergePatch from each state's
    object to the next), with the header fields it wrote."""
    states = [e for e in recording["events"] if e.get("kind") == "STATE"]
    steps = []
    previous = None
    for event in states:
        obj = {**event["object"], "metadata": {**event["object"]["metadata"],
                                               "resourceVersion": event["resourceVersion"]}}
        step = {"state": event["state"]}
        if previous is None:
            step["cr"] = obj
        else:
            step["patch"] = create_patch(previous, obj)
        steps.append(step)
        previous = obj
    header = {key: recording[key] for key in ("flow", "kartaFile", "kartaName", "operator", "version", "want")
              if key in recording}
    return {**header, "schemaVersion": 6, "steps": steps}


def test_a_steps_recording_runs_as_a_suite_one_case_a_step(tmp_path):
    source = yaml.safe_load((OWN / "jobset-x-k8s-io-jobset-v1alpha2" / "resumed.yaml").read_text())
    path = tmp_path / "resumed.yaml"
    path.write_text(yaml.safe_dump(_as_steps(source)))
    assert is_recording(path.read_text())
    result = run_cli(str(path))
    assert result.exit_code == 0, result.output
    states = [e for e in source["events"] if e.get("kind") == "STATE"]
    assert result.stdout.count("PASS  ") == len(states)
    first = states[0]
    metadata = first["object"]["metadata"]
    assert (f"step 0: JobSet {metadata['namespace']}/{metadata['name']} "
            f"(resourceVersion {first['resourceVersion']}), recorded {first['state']}") in result.stdout


JOB_STEPS = """\
flow: completed
kartaFile: docs/catalog/batch-job-v1.yaml
kartaName: batch-job-v1
operator: batch-job
schemaVersion: 6
steps:
- cr:
    apiVersion: batch/v1
    kind: Job
    metadata: {name: train, namespace: team, resourceVersion: "10"}
    spec:
      completions: 1
      parallelism: 1
      template: {spec: {containers: [{name: c, image: busybox}], restartPolicy: Never}}
    status: {active: 1, ready: 1}
  expected: {matchedStatuses: [Running]}
  state: Running
- expectedPatch: {matchedStatuses: [Completed]}
  patch:
    metadata: {resourceVersion: "12"}
    status:
      active: null
      ready: 0
      succeeded: 1
      conditions:
      - {type: SuccessCriteriaMet, status: "True"}
      - {type: Complete, status: "True"}
  state: Completed
- patch: {metadata: {resourceVersion: "13"}}
  state: Completed
version: v1.34.0
want: Completed
"""


def test_a_patch_removes_what_it_sets_to_null_and_a_step_without_one_keeps_the_object(tmp_path):
    path = tmp_path / "completed.yaml"
    path.write_text(JOB_STEPS)
    result = run_cli(str(path))
    assert result.exit_code == 0, result.output
    assert "step 1: Job team/train (resourceVersion 12), recorded Completed" in result.stdout
    assert "step 2: Job team/train (resourceVersion 13), recorded Completed" in result.stdout
    # the recorded state decides, not the reading stored beside it: a stale reading does not fail the step
    path.write_text(JOB_STEPS.replace("matchedStatuses: [Completed]", "matchedStatuses: [Failed]"))
    assert run_cli(str(path)).exit_code == 0
    path.write_text(JOB_STEPS.replace("  state: Completed\n- patch", "  state: Failed\n- patch"))
    failed = run_cli(str(path))
    assert failed.exit_code == 1
    assert "state: recorded Failed, the definition matches Completed" in failed.stdout


@pytest.mark.parametrize(("change", "error"), [
    (lambda t: t.replace("- cr:\n", "- cr: []\n  was:\n", 1),
     "the first step needs the object as a `cr` mapping"),
    (lambda t: t.replace("- patch: {metadata: {resourceVersion: \"13\"}}", "- patch: [1]"),
     "a step's `patch` must be a mapping (a merge patch)"),
    (lambda t: t.replace("  state: Running\n", ""), "every step needs a `state` string"),
])
def test_a_steps_recording_not_as_the_format_says_is_an_error_at_its_step(tmp_path, change, error):
    path = tmp_path / "completed.yaml"
    path.write_text(change(JOB_STEPS))
    result = run_cli(str(path))
    assert result.exit_code == 2, result.output
    assert error in result.output


def test_a_directory_walk_finds_steps_recordings(tmp_path):
    (tmp_path / "completed.yaml").write_text(JOB_STEPS)
    (tmp_path / "other.yaml").write_text("steps:\n- run: make\n")  # a CI file, not a recording
    result = run_cli(str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("PASS  ") == 3


def test_events_without_phases_or_summary_and_with_references_run(tmp_path):
    source = yaml.safe_load((OWN / "jobset-x-k8s-io-jobset-v1alpha2" / "resumed.yaml").read_text())
    for event in source["events"]:
        event.pop("phases", None)
    source.pop("summary", None)
    source["references"] = [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}}]
    path = tmp_path / "resumed.yaml"
    path.write_text(yaml.safe_dump(source))
    result = run_cli(str(path))
    assert result.exit_code == 0, result.output
    assert result.stdout.count("PASS  ") == 3


@pytest.fixture()
def shared_recordings():
    if not SHARED.is_dir():
        pytest.skip("../shared/recordings is not present")
    return sorted(SHARED.rglob("*.yaml"))


def test_upstreams_recordings_written_as_steps_pass_as_their_events_do(shared_recordings, tmp_path):
    """Each real recording, as the older recorder would have written it, gives the same outcome per state."""
    for index, source_path in enumerate(shared_recordings):
        source = yaml.safe_load(source_path.read_text())
        if not isinstance(source, dict) or "events" not in source:
            continue
        folder = tmp_path / str(index)
        folder.mkdir()
        shutil.copy(source_path, folder / "events.yaml")
        (folder / "steps.yaml").write_text(yaml.safe_dump(_as_steps(source)))
        events = run_cli(str(folder / "events.yaml"))
        steps = run_cli(str(folder / "steps.yaml"))
        assert _outcomes(events.stdout) == _outcomes(steps.stdout), source_path


def _outcomes(output: str) -> list[str]:
    return [line.split("  ")[0] for line in output.splitlines() if line.startswith(("PASS", "FAIL"))]
