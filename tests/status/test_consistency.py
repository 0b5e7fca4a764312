"""Consistency of matchers: contradictions, overlapping terminal statuses, redundancy, evaluation order."""

from __future__ import annotations

from wmaplint.engine import lint_text
from wmaplint.resolve import status_match
from wmaplint.rules.examples import custom_definition
from wmaplint.status.consistency import EVALUATION_ORDER

from .helpers import catalog_text, only, rules, status_findings, vary

JOB = catalog_text("batch-job-v1.yaml")
PYTORCH = catalog_text("kubeflow-org-pytorchjob-v1.yaml")
RAYJOB = catalog_text("ray-io-rayjob-v1.yaml")

CUSTOM = custom_definition("""\
          initializing: [{byConditions: [{type: Started, status: "False"}]}]
          running:
            - byConditions:
                - {type: Started, status: "True"}
                - {type: Complete, status: "False"}
                - {type: Failed, status: "False"}
          completed: [{byConditions: [{type: Complete, status: "True"}]}]
          failed: [{byConditions: [{type: Failed, status: "True"}]}]
""")


def test_catalog_definitions_are_consistent() -> None:
    for name in (
        "batch-job-v1.yaml",
        "jobset-x-k8s-io-jobset-v1alpha2.yaml",
        "kubeflow-org-pytorchjob-v1.yaml",
        "kubeflow-org-mpijob-v2beta1.yaml",
        "ray-io-raycluster-v1.yaml",
        "ray-io-rayjob-v1.yaml",
        "trainer-kubeflow-org-trainjob-v1alpha1.yaml",
    ):
        found = [d for d in status_findings(catalog_text(name)) if "WM430" <= d.rule <= "WM439"]
        assert found == [], (name, [d.message for d in found])


def test_statuses_are_compared_in_the_order_resolution_reports_them() -> None:
    assert EVALUATION_ORDER == tuple(key for key, _ in status_match.EVALUATION_ORDER)


def test_same_condition_with_two_statuses() -> None:
    text = vary(
        JOB,
        '            - byConditions: [{type: Failed, status: "True"}]\n',
        '            - byConditions: [{type: Failed, status: "True"}, {type: Failed, status: "False"}]\n',
    )
    [d] = only(status_findings(text), "WM430")
    assert d.severity.label == "error"
    assert "failed[0] never matches" in d.message and "Failed cannot be False and True" in d.message


def test_two_phases_in_one_matcher() -> None:
    # byPhase Complete together with an expression that pins the same phase to Failed.
    text = vary(
        RAYJOB,
        'byExpression: {expression: .status.jobStatus // "", expectedResult: SUCCEEDED}',
        'byExpression: {expression: .status.jobDeploymentStatus == "Failed", expectedResult: "true"}',
    )
    [d] = only(status_findings(text), "WM430")
    assert "completed[0]" in d.message and "'Complete' and 'Failed'" in d.message


def test_conditions_the_controller_never_sets_together() -> None:
    text = vary(
        JOB,
        '            - byConditions: [{type: Failed, status: "True"}]\n',
        '            - byConditions: [{type: Failed, status: "True"}, {type: Complete, status: "True"}]\n',
    )
    [d] = only(status_findings(text), "WM430")
    assert d.severity.label == "warning" and "batch/v1/Job controller never sets" in d.message


def test_completed_and_failed_overlap_with_example_object() -> None:
    [d] = only(status_findings(CUSTOM), "WM431")
    assert "conditions Complete=True and Failed=True" in d.message
    assert "completed[0]" in d.message and "failed[0]" in d.message
    assert d.related and "also matches" in d.related[0].message


def test_known_exclusive_conditions_do_not_overlap() -> None:
    # The same shape on a batch Job is fine: the Job controller never sets Complete and Failed together.
    text = vary(
        CUSTOM,
        "{group: example.com, version: v1, kind: TrainingRun}",
        "{group: batch, version: v1, kind: Job}",
    )
    text = text.replace("Started", "Suspended")
    assert only(status_findings(text), "WM431") == []


def test_running_and_failed_overlap() -> None:
    text = vary(
        CUSTOM,
        '                - {type: Complete, status: "False"}\n'
        '                - {type: Failed, status: "False"}\n',
        "",
    )
    text = vary(
        text,
        'completed: [{byConditions: [{type: Complete, status: "True"}]}]',
        'completed: [{byConditions: [{type: Complete, status: "True"}, {type: Failed, status: "False"}]}]',
    )
    found = only(status_findings(text), "WM431")
    pairs = {d.message.split(" matches both ")[1].split(":")[0]: d for d in found}
    assert set(pairs) == {"running[0] and failed[0]", "running[0] and completed[0]"}
    message = pairs["running[0] and failed[0]"].message
    assert "conditions Failed=True and Started=True" in message
    assert "reported as both (Running,Failed)" in message


def test_opaque_expressions_are_not_assumed_to_overlap() -> None:
    # The catalog Job's running expression excludes failed objects; the analysis cannot see that and stays
    # quiet.
    assert only(status_findings(JOB), "WM431") == []


def test_redundant_matcher() -> None:
    text = vary(
        JOB,
        '            - byConditions: [{type: FailureTarget, status: "True"}]\n',
        '            - byConditions: [{type: FailureTarget, status: "True"}]\n'
        '            - byConditions: [{type: Failed, status: "True"}, '
        '{type: Suspended, status: "False"}]\n',
    )
    [d] = only(status_findings(text), "WM432")
    assert "failed[2] is redundant" in d.message and "failed[0]" in d.message


def test_exact_duplicate_reports_the_later_one() -> None:
    text = vary(
        JOB,
        '            - byConditions: [{type: FailureTarget, status: "True"}]\n',
        '            - byConditions: [{type: Failed, status: "True"}]\n',
    )
    [d] = only(status_findings(text), "WM432")
    assert "failed[1]" in d.message


def test_running_hides_failures() -> None:
    text = vary(
        PYTORCH,
        '            - byConditions: [{type: Running, status: "True"}]',
        '            - byConditions: [{type: Created, status: "True"}]',
    )
    text = vary(
        text,
        '            - byConditions: [{type: Failed, status: "True"}]',
        '            - byConditions: [{type: Created, status: "True"}, {type: Failed, status: "True"}]',
    )
    found = only(status_findings(text), "WM433")
    by_key = {d.message.split(" matches ")[0].split()[-1]: d for d in found}
    assert "failed[0]" in by_key and "completed[0]" not in by_key
    assert "reported Running,Failed, never failed alone" in by_key["failed[0]"].message
    assert "conditions Created=True and Failed=True" in by_key["failed[0]"].message
    # the shadowing pair is not reported again as an overlap
    assert not any("failed[0]" in d.message for d in only(status_findings(text), "WM431"))


def test_degraded_may_overlap_running() -> None:
    text = vary(
        PYTORCH,
        '            - byConditions: [{type: Restarting, status: "True"}]',
        '            - byConditions: [{type: Running, status: "True"}, {type: Restarting, status: "True"}]',
    )
    found = status_findings(text)
    assert only(found, "WM433") == []
    # ...but the training operator never has Running and Restarting True together
    assert "never sets Restarting=True and Running=True together" in only(found, "WM430")[0].message


def test_structural_problems_are_left_to_the_structural_rules() -> None:
    text = vary(
        JOB, '            - byConditions: [{type: FailureTarget, status: "True"}]\n', "            - {}\n"
    )
    found = {d.rule for d in lint_text(text, "job.yaml")}
    assert "WM401" in found and not found & {"WM431", "WM432", "WM433"}


def test_many_matchers_stay_bounded() -> None:
    entries = "".join(
        f'            - byConditions: [{{type: Failed, status: "True"}}, {{type: T{i}, status: "True"}}]\n'
        for i in range(2000)
    )
    text = vary(JOB, '            - byConditions: [{type: FailureTarget, status: "True"}]\n', entries)
    # a kind without knowledge: types T0... would otherwise be never-set types, matching nothing (WM420)
    text = vary(text, "{group: batch, version: v1, kind: Job}", "{group: example.com, version: v1, kind: R}")
    found = status_findings(text)
    assert 0 < len(only(found, "WM432")) <= 256
    assert rules(found).count("WM430") == 0


BLOCK_OVERLAP = custom_definition("""\
          running:
            - byConditions: [{type: Started, status: "True"}]
          completed:
            - byConditions: [{type: Complete, status: "True"}]
          failed:
            - byConditions: [{type: Failed, status: "True"}]
""")


def test_a_finding_on_a_one_line_matcher_stays_on_that_line() -> None:
    # A block mapping's own span ends where the next token starts, on the next line: the annotation (and
    # GitHub's) would cover the next matcher too.
    lines = BLOCK_OVERLAP.splitlines()
    findings = only(status_findings(BLOCK_OVERLAP), "WM431")
    assert findings
    for d in findings:
        for span in [d.span, *(r.span for r in d.related)]:
            assert span.start_line == span.end_line, d.message
            text = lines[span.start_line - 1]
            assert text[span.start_col - 1:span.end_col - 1].startswith("byConditions: [")
            assert text[span.start_col - 1:span.end_col - 1].endswith('"True"}]')
