"""Builtins over schema types: which values their arguments run on, and what they yield.

Each case comes from a catalog definition that was wrongly flagged, or checks that a real mistake inside the
same builtin is still reported.
"""

import pytest
from worded import message_of, rule_of

from wmaplint.jq.inference.findings import UnguardedIteration
from wmaplint.jq.inference.interpreter import infer
from wmaplint.jq.parser import parse
from wmaplint.schema.types import ARRAY, BOOLEAN, INTEGER, OBJECT, STRING, SchemaType
from wmaplint.typecheck.expectations import Expectation, check_expression
from wmaplint.typecheck.paths import TypedPath

RUNNING = Expectation.for_field("expression", expected_result="true")
REPLICAS = Expectation.for_field("replicasPath")
MAX_REPLICAS = Expectation.for_field("maxReplicasPath")


@pytest.fixture(scope="module")
def job(store):
    return store.lookup("batch", "v1", "Job")[0].type


@pytest.fixture(scope="module")
def isvc(store):
    # the minimal CRD leaves the components open
    (full,) = [r for r in store.lookup("serving.kserve.io", "v1beta1", "InferenceService")
               if r.source.endswith("inferenceservice_v1beta1.yaml")]
    return full.type


def typed(text, expectation, t):
    """The findings of the typing itself: whether an iteration is guarded is WM309's concern (tested in
    test_unguarded_iteration), and these cases iterate lists a new object does not have yet."""
    return [f for f in check_expression(text, expectation, t) if not isinstance(f, UnguardedIteration)]


def rules(text, expectation, t):
    return [rule_of(f) for f in typed(text, expectation, t)]


def test_job_running_expression_compares_condition_types_not_the_list(job):
    text = (
        '([.status.conditions[]? | select(.status == "True") | .type]'
        ' | any(. == "Complete" or . == "Failed" or . == "Suspended"'
        ' or . == "FailureTarget" or . == "SuccessCriteriaMet") | not)'
        " and ((.status.ready // 0) > 0)"
    )
    assert rules(text, RUNNING, job) == []


@pytest.mark.parametrize(
    "text",
    [
        '[.status.conditions[]?.type] | all(. != "Failed")',
        '.status.conditions | map(.type == "Complete") | any',
        '.status.conditions | any(.[]?; .type == "Complete")',
        '.status.conditions | min_by(.lastTransitionTime) | .type == "Complete"',
        '.status.conditions | sort_by(.type) | .[0].type == "Complete"',
        '.status.conditions | group_by(.type) | length > 0',
        '.status.conditions | unique_by(.type) | length > 0',
        '.status.conditions | max_by(.lastProbeTime) | .status == "True"',
        '.status.conditions | INDEX(.type) | has("Complete")',
        '.status.conditions | map_values(.type) | length > 0',
    ],
)
def test_per_element_arguments_see_the_element_type(job, text):
    assert rules(text, RUNNING, job) == []


def test_a_wrong_field_inside_a_per_element_argument_is_still_reported(job):
    (f,) = typed('.status.conditions | any(.typ == "Complete")', RUNNING, job)
    assert rule_of(f) == "WM301" and f.data["suggestions"] == ["type"]
    (f,) = typed('.status.conditions | map(.staus)', Expectation(), job)
    assert rule_of(f) == "WM301" and "status" in f.data["suggestions"]


def test_a_wrong_comparison_inside_any_is_still_reported(job):
    findings = check_expression("[.status.conditions[]?.type] | any(. == 3)", RUNNING, job)
    assert [rule_of(f) for f in findings] == ["WM303"]
    assert "string" in message_of(findings[0]) and "integer" in message_of(findings[0])


def test_min_of_a_list_with_a_guaranteed_element_is_not_optional(job):
    text = "[(.spec.parallelism // 1), (.spec.completions // empty)] | min"
    assert rules(text, REPLICAS, job) == []
    result = infer(parse(text), job)
    assert result.type.kinds() == {INTEGER} and not result.optional


def test_empty_adds_no_type_to_an_alternative(job):
    result = infer(parse(".spec.completions // empty"), job)
    assert result.type.kinds() == {INTEGER} and not result.optional


def test_a_plain_optional_replicas_path_is_still_reported(isvc):
    assert rules(".spec.predictor.minReplicas", REPLICAS, isvc) == ["WM305"]


def test_null_min_and_max_replicas_and_built_in_defaults_are_not_reported(job, isvc):
    """A null replica output means "not set" (FORMAT.md §2.4): normal for min/max; a built-in kind's API
    server defaults a Job's parallelism in code, which its OpenAPI does not declare."""
    assert rules(".spec.predictor.maxReplicas", MAX_REPLICAS, isvc) == []
    assert rules(".spec.predictor.minReplicas", Expectation.for_field("minReplicasPath"), isvc) == []
    assert rules(".spec.parallelism", REPLICAS, job) == []


@pytest.mark.parametrize("component", ["predictor", "transformer", "explainer"])
def test_if_branch_returning_a_path_its_condition_tested_is_not_optional(isvc, component):
    guard = "" if component == "predictor" else f"if .spec.{component} == null then 0 el"
    text = (
        f"{guard}if (.spec.{component}.maxReplicas // 0) == 0 then (.spec.{component}.minReplicas // 1)"
        f" else .spec.{component}.maxReplicas end"
    )
    assert infer(parse(f".spec.{component}.maxReplicas"), isvc).optional
    assert rules(text, REPLICAS, isvc) == []


def test_then_branch_of_a_null_test_still_counts_as_optional(isvc):
    text = "if .spec.predictor.maxReplicas == null then .spec.predictor.maxReplicas else 1 end"
    assert rules(text, REPLICAS, isvc) == ["WM305"]


def test_an_untested_path_in_a_branch_is_still_optional(isvc):
    text = "if .spec.predictor.minReplicas == null then 1 else .spec.predictor.maxReplicas end"
    assert rules(text, REPLICAS, isvc) == ["WM305"]


def test_values_removes_null(job):
    result = infer(parse(".spec.parallelism | values"), job)
    assert not result.optional and result.type.kinds() == {INTEGER}
    assert rules("(.spec.parallelism | values), 1", REPLICAS, job) == []


@pytest.mark.parametrize(
    "text",
    [
        'walk(if type == "object" then del(.managedFields) else . end) | .spec.parallelism // 1',
        "[paths(type == \"number\")] | length",
        '[.status.conditions[]?.type | sub("(?<x>C)"; .x)] | length',
        "[recurse(.spec?) | .parallelism?] | length",
        'def f(g): g | .type; [.status.conditions[]? | f(.)] | length',
    ],
)
def test_arguments_run_on_values_not_followed_give_no_findings(job, text):
    assert rules(text, Expectation(), job) == []


def test_builtin_results():
    t = SchemaType(ARRAY, items=SchemaType(STRING))
    expected = {
        "map(length)": ARRAY,
        "any": BOOLEAN,
        "all(. == \"a\")": BOOLEAN,
        "first": STRING,
        "first(.[])": STRING,
        "limit(1; .[])": STRING,
        "join(\",\")": STRING,
        "index(\"a\")": None,
        "to_entries": ARRAY,
        "from_entries": OBJECT,
        "group_by(.)": ARRAY,
        "min_by(length)": STRING,
        "sort": ARRAY,
        "length": INTEGER,
        "contains([\"a\"])": BOOLEAN,
        "inside([\"a\"])": BOOLEAN,
        "IN([\"a\"][])": BOOLEAN,
        "with_entries(.value |= ascii_downcase)": OBJECT,
    }
    for text, kind in expected.items():
        result = infer(parse(text), t)
        if kind is None:
            assert result.type.is_any, text
        else:
            assert result.type.kinds() == {kind}, text
        assert result.findings == [], text


def test_empty_output_gives_no_shape_finding(job):
    assert rules("empty", Expectation.for_field("podTemplateSpecPath"), job) == []
    assert rules('error("no pods")', Expectation.for_field("containersPath"), job) == []


def test_unknown_field_declared_location_reaches_the_check_as_related(store):
    (rayjob,) = store.lookup("ray.io", "v1", "RayJob")
    (f,) = check_expression(".spec.workerGroupSpecs", Expectation(), rayjob.type, source=rayjob.source)
    (related,) = TypedPath(None, rayjob, None, f).related
    assert (related.path, related.base) == ("crds/ray.io/rayjob_v1.yaml", "WMAPLINT_BUNDLED_SCHEMAS")
    assert (related.span.start_line, related.span.start_col) == (
        f.data["declared"]["line"], f.data["declared"]["column"])
