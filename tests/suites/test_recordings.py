"""Recordings of workload states as suites: every STATE event a case, judged under upstream's replay rule
(the recorded state is among the statuses the definition matches, Undefined when none does)."""

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from wmaplint.selection import is_recording

from .test_suites import run_cli

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "catalog" / "tests" / "recordings"
POD = OWN / "core-pod-v1" / "completed.yaml"
JOBSET = OWN / "jobset-x-k8s-io-jobset-v1alpha2" / "resumed.yaml"
POD_DEFINITION = ROOT / "catalog" / "core-pod-v1.yaml"

# An object no controller has written a status for yet, and a definition that maps only a phase: nothing
# matches, so the platform shows Undefined.
UNDEFINED = """\
definition:
  apiVersion: run.ai/v1alpha1
  kind: Karta
  metadata: {name: pods-by-phase}
  spec:
    structureDefinition:
      rootComponent:
        name: pod
        kind: {group: "", version: v1, kind: Pod}
        specDefinition: {podTemplateSpecPath: .}
        statusDefinition:
          phaseDefinition: {path: .status.phase}
          statusMappings:
            running: [{byPhase: Running}]
events:
- kind: STATE
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: fresh, namespace: team}
    spec: {containers: [{name: c, image: i}]}
  resourceVersion: "7"
  state: Undefined
- kind: STATE
  object:
    apiVersion: v1
    kind: Pod
    metadata: {name: fresh, namespace: team}
    spec: {containers: [{name: c, image: i}]}
    status: {phase: Running}
  resourceVersion: "8"
  state: Running
"""


def test_the_shipped_recordings_pass_every_event_and_skip_actions():
    result = run_cli(str(OWN))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "8 passed, 0 failed"
    lines = [line for line in result.stdout.splitlines() if "resumed.yaml" in line]
    # event 1 is the ACTION that resumed the JobSet: no case
    assert [line.split(" :: ")[1] for line in lines] == [
        "event 0: JobSet research/multislice-finetune (resourceVersion 2001), recorded Suspended",
        "event 2: JobSet research/multislice-finetune (resourceVersion 2002), recorded Running",
        "event 3: JobSet research/multislice-finetune (resourceVersion 2003), recorded Failed",
    ]


def test_a_recorded_state_the_definition_does_not_match_fails_with_the_fields_that_decided(tmp_path):
    wrong = tmp_path / "pod.yaml"
    wrong.write_text(POD.read_text().replace("state: Completed", "state: Failed"))
    result = run_cli(str(wrong))
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    header = f"FAIL  {wrong} :: event 2: Pod notebooks/notebook-alice (resourceVersion 1003), recorded Failed"
    start = out.index(header)
    assert out[start + 1:start + 4] == [
        "        state: recorded Failed, the definition matches Completed",
        "        decided by: phase 'Succeeded'; conditions PodScheduled=True, Ready=False (PodCompleted)",
        "        definition: core-pod-v1 (catalog/core-pod-v1.yaml)",
    ]
    assert out[-1] == "2 passed, 1 failed"
    assert result.output.count("(resourceVersion 1003), recorded Failed") == 1  # not again as a diagnostic


def test_undefined_is_recorded_when_no_status_matches(tmp_path):
    recording = tmp_path / "fresh.yaml"
    recording.write_text(UNDEFINED)
    result = run_cli(str(recording))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "2 passed, 0 failed"


def test_the_recordings_own_definition_is_used_and_must_fit_the_object(tmp_path):
    recording = tmp_path / "fresh.yaml"
    recording.write_text(UNDEFINED.replace("kind: {group: \"\", version: v1, kind: Pod}",
                                           "kind: {group: batch, version: v1, kind: Job}"))
    result = run_cli(str(recording))
    assert result.exit_code == 1
    assert "        the manifest is v1 Pod, the definition describes batch/v1 Job" in result.stdout


def test_definition_option_replays_recordings_with_the_definition_given(tmp_path):
    draft = tmp_path / "pod.yaml"
    # a draft reusing the catalog's name that never maps Completed
    draft.write_text(POD_DEFINITION.read_text().replace("byPhase: Succeeded", "byPhase: Done"))
    assert run_cli(str(POD)).exit_code == 0
    result = run_cli("--definition", str(draft), str(POD))
    assert result.exit_code == 1
    assert "        state: recorded Completed, the definition matches Undefined" in result.stdout.splitlines()
    assert f"        definition: core-pod-v1 ({draft})" in result.stdout.splitlines()


def test_a_definition_option_no_recording_uses_is_an_error(tmp_path):
    result = run_cli("--definition", str(POD_DEFINITION), str(JOBSET))
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1].startswith(
        f"wmaplint: --definition {POD_DEFINITION} describes no kind of the recordings run"
    )


def test_junit_names_the_recording_the_event_and_what_decided(tmp_path):
    wrong = tmp_path / "pod.yaml"
    wrong.write_text(POD.read_text().replace("state: Completed", "state: Failed"))
    report = tmp_path / "junit.xml"
    run_cli(str(wrong), "--junit", str(report))
    [suite] = ET.parse(report).getroot()
    assert suite.get("name") == str(wrong) and suite.get("tests") == "3" and suite.get("failures") == "1"
    cases = list(suite)
    assert cases[0].get("name") == (
        "event 0: Pod notebooks/notebook-alice (resourceVersion 1001), recorded Initializing"
    )
    assert cases[0].find("system-out").text.splitlines()[:2] == [
        "matches: Initializing",
        "decided by: phase 'Pending'; conditions PodScheduled=True, "
        "Initialized=False (ContainersNotInitialized)",
    ]
    failure = cases[2].find("failure")
    assert "decided by: phase 'Succeeded'" in failure.text


def test_a_directory_holds_suites_recordings_and_other_files_passed_by(tmp_path):
    shutil.copy(POD, tmp_path / "pod-flow.yaml")
    (tmp_path / "config.yaml").write_text("events:\n- kind: Normal\n  reason: Pulled\n")
    (tmp_path / "values.yaml").write_text("replicas: 2\n")
    result = run_cli(str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == "3 passed, 0 failed"


def test_a_named_file_with_events_but_no_object_is_an_error(tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("events:\n- kind: STATE\n  state: Running\n")
    result = run_cli(str(broken))
    assert result.exit_code == 2
    assert result.stdout.splitlines()[0] == (
        f"ERROR {broken}: every `kind: STATE` event needs an `object` mapping and a `state` string"
    )


def test_recognised_by_a_top_level_events_list_with_a_state_event():
    assert is_recording(POD.read_text())
    assert not is_recording("events:\n- kind: Normal\n")
    assert not is_recording("spec:\n  events:\n  - kind: STATE\n")
    assert is_recording("events: [{kind: STATE, object: {apiVersion: v1}, state: Running}]\n")


def _shared_recordings(shared: Path) -> Path:
    recordings = shared / "recordings"
    if not recordings.is_dir():
        pytest.skip("../shared/recordings is not present")
    return recordings


def test_the_shared_recordings_pass_with_the_shipped_catalog(shared, tmp_path):
    """Every STATE event of upstream's recordings is a case named by file and event, and the shipped catalog
    reports the recorded state on each."""
    recordings = _shared_recordings(shared)
    report = tmp_path / "junit.xml"
    result = run_cli(str(recordings), "--junit", str(report))
    cases = [case for suite in ET.parse(report).getroot() for case in suite]
    assert len(cases) == 371
    assert all(case.get("name").startswith("event ") for case in cases)
    assert [line for line in result.stdout.splitlines() if line.startswith(("FAIL", "ERROR"))] == []
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("events:\n- kind: STATE\n  object: [1]\n  state: Running\n", "every `kind: STATE` event needs"),
        ("events:\n- kind: STATE\n  object: {kind: Pod}\n  state: 5\n", "every `kind: STATE` event needs"),
        ("events: {kind: STATE}\n", "`events` must be a list"),
        ("events:\n- kind: STATE\n  object: {}\n  state: Running\n---\nevents: []\n", "one YAML mapping"),
        ("events:\n- kind: STATE\n  object: {a: [\n", "YAML syntax error"),
        ("definition: 3\nevents:\n- kind: STATE\n  object: {kind: Pod}\n  state: Running\n",
         "definition must be a file path or an inline mapping"),
    ],
)
def test_odd_recordings_are_one_error_line_not_a_traceback(tmp_path, text, error):
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    result = run_cli(str(path))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2
    [line] = [line for line in result.stdout.splitlines() if line.startswith("ERROR")]
    assert line.startswith(f"ERROR {path}: ") and error in line


# the second event is the one without a state: it is where the finding points
SECOND_EVENT_WITHOUT_STATE = """\
events:
- kind: STATE
  object: {kind: Pod}
  state: Running
- kind: STATE
  object: {kind: Pod}
"""


@pytest.mark.parametrize(
    ("text", "span"),
    [
        (SECOND_EVENT_WITHOUT_STATE, (5, 3, 7, 1)),
        ("events: {kind: STATE}\n", (1, 1, 1, 7)),
        ("kind: Recording\nevents:\n- kind: Normal\n", (2, 1, 2, 7)),
        ("definition: 3\nevents:\n- kind: STATE\n  object: {kind: Pod}\n  state: Running\n", (1, 13, 1, 14)),
    ],
)
def test_a_recording_that_cannot_be_replayed_is_found_where_it_is_wrong(tmp_path, text, span):
    from wmaplint import rules
    from wmaplint.resolve.loading import DefinitionIndex
    from wmaplint.suites.recording import run_recording
    from wmaplint.suites.runner import suite_diagnostics

    rules.load()
    path = tmp_path / "odd.yaml"
    path.write_text(text)
    [diagnostic] = suite_diagnostics(run_recording(path, DefinitionIndex())[0])
    assert diagnostic.rule == "WM721"
    s = diagnostic.span
    assert (s.start_line, s.start_col, s.end_line, s.end_col) == span
