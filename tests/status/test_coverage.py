"""Coverage: running, failed, completed (for kinds that run to completion), suspended, initializing."""

from __future__ import annotations

from pathlib import Path

from wmaplint.engine import Options
from wmaplint.rules.examples import JOB as EXAMPLE_JOB
from wmaplint.rules.examples import custom_definition

from .helpers import catalog_text, only, rules, status_findings, vary

JOB = catalog_text("batch-job-v1.yaml")


def test_catalog_job_is_fully_covered() -> None:
    assert [d for d in status_findings(JOB) if d.rule.startswith("WM41")] == []


def test_job_without_completed_is_reported_because_jobs_complete() -> None:
    text = vary(
        JOB,
        "          completed:\n            - byConditions: "
        '[{type: Complete, status: "True"}]\n'
        '            - byConditions: [{type: SuccessCriteriaMet, status: "True"}]\n',
        "",
    )
    found = only(status_findings(text), "WM412")
    assert len(found) == 1
    assert "runs to completion" in found[0].message and "batch/v1/Job" in found[0].message
    assert found[0].span.start_line == text.splitlines().index("        statusMappings:") + 1


def test_running_and_failed_missing() -> None:
    text = vary(
        JOB,
        '          failed:\n            - byConditions: [{type: Failed, status: "True"}]\n'
        '            - byConditions: [{type: FailureTarget, status: "True"}]\n',
        "",
    )
    text = text.split("          running:")[0]
    assert {"WM410", "WM411"} <= set(rules(status_findings(text)))


def test_suspendable_job_without_suspended() -> None:
    text = vary(
        JOB, '          suspended:\n            - byConditions: [{type: Suspended, status: "True"}]\n', ""
    )
    found = only(status_findings(text), "WM413")
    assert len(found) == 1
    assert found[0].related and found[0].related[0].message == "suspendDefinition"


def test_no_suspended_needed_without_suspend_definition() -> None:
    text = catalog_text("leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml")
    assert "suspendDefinition" not in text
    assert only(status_findings(text), "WM413") == []


def test_lws_needs_no_failed_mapping_since_its_controller_never_fails_it() -> None:
    text = catalog_text("leaderworkerset-x-k8s-io-leaderworkerset-v1.yaml")
    assert "failed:" not in text
    assert rules(status_findings(text)) == []


def test_initializing_missing_is_info() -> None:
    text = catalog_text("kubeflow-org-pytorchjob-v1.yaml")
    text = text.split("          initializing:")[0]
    found = only(status_findings(text), "WM414")
    assert len(found) == 1 and found[0].severity.label == "info"
    assert "kubeflow.org/v1/PyTorchJob reports a start (condition Created)" in found[0].message


def test_initializing_missing_names_the_starting_phase() -> None:
    text = vary(catalog_text("core-pod-v1.yaml"), "          initializing:", "          x-initializing:")
    [d] = only(status_findings(text), "WM414")
    assert "v1/Pod reports a start (.status.phase 'Pending')" in d.message
    assert "objects whose controller has not written any status yet stay Undefined" in d.message


def test_no_initializing_is_needed_where_the_controller_writes_no_start() -> None:
    # A RayCluster's state is empty until ready, an InferenceService's Ready is Unknown: recorded Undefined
    # (../shared/recordings), so asking for an initializing matcher would make them report something else.
    for name in ("ray-io-raycluster-v1.yaml", "serving-kserve-io-inferenceservice-v1beta1.yaml"):
        text = catalog_text(name)
        assert "initializing:" not in text
        assert only(status_findings(text), "WM414") == [], name
    assert only(status_findings(EXAMPLE_JOB), "WM414") == []  # a Job writes no starting phase or condition


CUSTOM = custom_definition("""\
          initializing: [{byConditions: [{type: Started, status: "False"}]}]
          running: [{byConditions: [{type: Started, status: "True"}, {type: Failed, status: "False"}]}]
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
""")


def test_unknown_kind_needs_no_completed() -> None:
    assert status_findings(CUSTOM) == []


def test_completes_setting_by_kind_and_by_gvk(tmp_path: Path) -> None:
    for i, entry in enumerate(("TrainingRun", "example.com/v1/TrainingRun", "example.com/TrainingRun")):
        config = tmp_path / f"wmaplint-{i}.yaml"  # explicit config files are cached by path
        config.write_text(f"completes: [{entry}]\n")
        found = status_findings(CUSTOM, Options(config_file=str(config)), str(tmp_path / "run.yaml"))
        assert rules(found) == ["WM412"], entry
        assert "`completes` setting" in found[0].message
    config = tmp_path / "wmaplint-other.yaml"
    config.write_text("completes: [OtherRun]\n")
    assert status_findings(CUSTOM, Options(config_file=str(config)), str(tmp_path / "run.yaml")) == []


def test_failed_is_not_required_of_kinds_whose_controller_has_no_failure_state(repo) -> None:
    from wmaplint.engine import lint_text

    text = (repo / "catalog" / "apps-statefulset-v1.yaml").read_text(encoding="utf-8")
    assert "failed:" not in text
    assert "WM411" not in {d.rule for d in lint_text(text, "apps-statefulset-v1.yaml")}


def test_suspended_advice_covers_a_status_that_lags_the_switch() -> None:
    # Recorded RayCluster resumes read Undefined while the state still says suspended: the advice must not
    # be "map the suspended phase" alone.
    from wmaplint.rules.status.status_suspended_unmapped import RULE

    assert ".spec.suspend == true" in RULE.fix and "RayCluster" in RULE.fix
