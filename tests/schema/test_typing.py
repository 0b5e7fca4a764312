"""jq over schema types: real paths from definitions against the real CRDs, and the bugs of FORMAT.md §8."""

import pytest
from worded import message_of, rule_of, rules

from wmaplint.jq.inference.interpreter import infer
from wmaplint.jq.parser import parse
from wmaplint.schema.types import ANY, BOOLEAN, INTEGER, STRING
from wmaplint.typecheck.expectations import Expectation, check_expression


@pytest.fixture(scope="module")
def types(store):
    def get(group, version, kind, source_suffix=None):
        found = store.lookup(group, version, kind)
        if source_suffix:
            found = [r for r in found if r.source.endswith(source_suffix)]
        return found[0].type
    return get


def test_rayjob_has_no_status_conditions(types):
    rayjob = types("ray.io", "v1", "RayJob")
    (f,) = check_expression(".status.conditions", Expectation.for_field("conditionsPath"), rayjob)
    assert rule_of(f) == "WM301" and (f.start, f.end) == (8, 18)
    assert "jobStatus" in f.data["valid"]


def test_old_rayjob_worker_groups_path_is_wrong_and_the_fix_is_clean(types):
    rayjob = types("ray.io", "v1", "RayJob")
    text = ".spec.workerGroupSpecs[].groupName"
    (f,) = check_expression(text, Expectation.for_field("instanceIdPath"), rayjob)
    assert rule_of(f) == "WM301" and text[f.start:f.end] == "workerGroupSpecs"
    assert "rayClusterSpec" in f.data["valid"]
    assert f.data["declared"]["line"] > 0
    fixed = ".spec.rayClusterSpec.workerGroupSpecs[]?.groupName"
    assert check_expression(fixed, Expectation.for_field("instanceIdPath"), rayjob) == []


def test_old_milvus_query_node_has_no_template(types):
    milvus = types("milvus.io", "v1beta1", "Milvus")
    text = ".spec.components.queryNode.template"
    (f,) = check_expression(text, Expectation.for_field("podTemplateSpecPath"), milvus)
    assert rule_of(f) == "WM301" and text[f.start:f.end] == "template"


def test_llminferenceservice_scaling_exists_only_in_the_newer_release(types):
    old = types("serving.kserve.io", "v1alpha1", "LLMInferenceService", "llminferenceservice_v1alpha1.yaml")
    new = types("serving.kserve.io", "v1alpha1", "LLMInferenceService", "llminferenceservice_v1alpha2.yaml")
    exp = Expectation.for_field("minReplicasPath")
    for text in (".spec.scaling.minReplicas", ".spec.prefill.scaling.maxReplicas"):
        assert rules(check_expression(text, exp, old)) == ["WM301"]
        assert "WM301" not in rules(check_expression(text + " // 1", exp, new))
    assert rules(check_expression(".spec.router.scheduler.replicas // 1", exp, old)) == ["WM301"]


def test_misspelled_segment_gets_the_closest_name_at_the_right_offset(types):
    jobset = types("jobset.x-k8s.io", "v1alpha2", "JobSet")
    text = ".spec.replicatedJobs[]?.templat.spec.template"
    (f,) = check_expression(text, Expectation.for_field("podTemplateSpecPath"), jobset)
    assert (f.start, f.end) == (24, 31)
    assert f.data["suggestions"] == ["template"]
    assert f.data["valid"] == sorted(f.data["valid"]) and "replicas" in f.data["valid"]


@pytest.mark.parametrize("gvk,field,text", [
    (("jobset.x-k8s.io", "v1alpha2", "JobSet"), "podTemplateSpecPath",
     ".spec.replicatedJobs[]?.template.spec.template"),
    (("jobset.x-k8s.io", "v1alpha2", "JobSet"), "replicasPath",
     ".spec.replicatedJobs[]? | .replicas * (.template.spec.parallelism // 1)"),
    (("jobset.x-k8s.io", "v1alpha2", "JobSet"), "instanceIdPath", ".spec.replicatedJobs[]?.name"),
    (("ray.io", "v1", "RayCluster"), "replicasPath", ".spec.workerGroupSpecs[]? | (.replicas // 1)"),
    (("ray.io", "v1", "RayCluster"), "podTemplateSpecPath", ".spec.headGroupSpec.template"),
    (("kubeflow.org", "v1", "PyTorchJob"), "podTemplateSpecPath",
     '.spec.pytorchReplicaSpecs["Worker"].template'),
    (("kubeflow.org", "v1", "PyTorchJob"), "podTemplateSpecPath", ".spec.pytorchReplicaSpecs[].template"),
    (("kubeflow.org", "v1", "PyTorchJob"), "instanceIdPath", ".spec.pytorchReplicaSpecs | keys[]"),
    (("batch", "v1", "Job"), "replicasPath",
     "[(.spec.parallelism // 1), (.spec.completions // empty)] | min"),
    (("batch", "v1", "Job"), "podTemplateSpecPath", ".spec.template"),
    (("apps", "v1", "Deployment"), "metadataPath", ".spec.template.metadata"),
    (("apps", "v1", "Deployment"), "labelsPath", ".spec.template.metadata.labels"),
    (("apps", "v1", "Deployment"), "containersPath", ".spec.template.spec.containers"),
    (("apps", "v1", "Deployment"), "resourcesPath", ".spec.template.spec.containers[0].resources"),
    (("apps", "v1", "Deployment"), "nodeAffinityPath", ".spec.template.spec.affinity.nodeAffinity"),
    (("nvidia.com", "v1alpha1", "DynamoGraphDeployment"), "instanceIdPath",
     ".spec.services | to_entries[] | .key"),
    (("leaderworkerset.x-k8s.io", "v1", "LeaderWorkerSet"), "podTemplateSpecPath",
     ".spec.leaderWorkerTemplate.workerTemplate"),
])
def test_real_valid_paths_give_no_finding(types, gvk, field, text):
    assert check_expression(text, Expectation.for_field(field), types(*gvk)) == []


def test_int_or_string_and_preserve_unknown_fields_are_not_reported(types):
    pod = types("", "v1", "Pod")
    port = ".spec.containers[].livenessProbe.httpGet.port | tostring"
    assert check_expression(port, Expectation("string"), pod) == []
    isvc = types("serving.kserve.io", "v1beta1", "InferenceService", "minimal.yaml")
    assert check_expression(".spec.predictor.anything.at.all", Expectation(), isvc) == []


def test_pod_context_paths_read_label_maps(types):
    pod = types("", "v1", "Pod")
    text = '.metadata.labels["jobset.sigs.k8s.io/jobset-name"]'
    assert check_expression(text, Expectation("string"), pod) == []
    (f,) = check_expression(".metadata.label", Expectation("string"), pod)
    assert f.data["suggestions"] == ["labels"]


def test_wrong_target_shapes(types):
    job = types("batch", "v1", "Job")
    (f,) = check_expression(".spec.template.spec", Expectation.for_field("podTemplateSpecPath"), job)
    assert rule_of(f) == "WM306"
    assert check_expression(".spec.template.spec", Expectation.for_field("podSpecPath"), job) == []
    one = ".spec.template.spec.containers[0]"
    assert rules(check_expression(one, Expectation.for_field("containersPath"), job)) == ["WM306"]
    assert check_expression('.metadata.name // "1"', Expectation.for_field("replicasPath"), job) == []
    assert rules(check_expression(".spec.template", Expectation.for_field("imagePath"), job)) == ["WM306"]


def test_iterating_a_scalar_is_reported_unless_optional(types):
    job = types("batch", "v1", "Job")
    text = ".spec.parallelism[]"
    (f,) = check_expression(text, Expectation(), job)
    assert rule_of(f) == "WM302" and text[f.start:f.end] == "[]"
    assert check_expression(".spec.parallelism[]?", Expectation(), job) == []


def test_optional_replicas_without_default_get_a_fix_inside_the_iteration(types):
    mpijob = types("kubeflow.org", "v2beta1", "MPIJob")
    text = ".spec.mpiReplicaSpecs.Worker.replicas"
    (f,) = check_expression(text, Expectation.for_field("replicasPath"), mpijob)
    assert rule_of(f) == "WM305" and f.replacement == f"{text} // 1"
    assert "replicas not set" in message_of(f) and "rejects" not in message_of(f)
    pcs = types("grove.io", "v1alpha1", "PodCliqueSet")
    text = ".spec.template.cliques[].spec.minAvailable"
    (f,) = check_expression(text, Expectation.for_field("replicasPath"), pcs)
    assert f.replacement == ".spec.template.cliques[].spec | (.minAvailable // 1)"
    assert check_expression(f.replacement, Expectation.for_field("replicasPath"), pcs) == []
    assert check_expression(text, Expectation.for_field("minReplicasPath"), pcs) == []


def test_conditions_need_the_named_fields(types):
    jobset = types("jobset.x-k8s.io", "v1alpha2", "JobSet")
    ok = Expectation.for_field("conditionsPath", type_field="type", status_field="status")
    assert check_expression(".status.conditions", ok, jobset) == []
    bad = Expectation.for_field("conditionsPath", type_field="kind", status_field="status")
    (f,) = check_expression(".status.conditions", bad, jobset)
    assert rule_of(f) == "WM306" and "'kind'" in message_of(f)


def test_phase_enum_is_exposed(types):
    rayjob = types("ray.io", "v1", "RayJob")
    result = infer(parse(".status.jobDeploymentStatus"), rayjob)
    assert result.type.kind == STRING
    assert result.enum is None or "Running" in result.enum


def test_suspend_values_must_fit_the_field(types):
    jobset = types("jobset.x-k8s.io", "v1alpha2", "JobSet")
    assert check_expression(".spec.suspend", Expectation.for_field("suspendPath", value="true"), jobset) == []
    (f,) = check_expression(".spec.suspend", Expectation.for_field("suspendPath", value='"yes"'), jobset)
    assert rule_of(f) == "WM307"
    assert check_expression(".spec.suspend", Expectation.for_field("suspendPath", value="null"), jobset) == []


def test_by_expression_results(types):
    job = types("batch", "v1", "Job")
    exp = Expectation.for_field("expression", expected_result="true")
    assert check_expression("(.status.active // 0) > 0", exp, job) == []
    (f,) = check_expression("(.status.active // 0) > 0", Expectation.for_field("expression",
                                                                            expected_result="True"), job)
    assert rule_of(f) == "WM308" and f.data["valid"] == ["false", "true"]
    assert rules(check_expression('(.status.active // 0) > "0"', exp, job)) == ["WM303"]
    assert rules(check_expression(".status.active + .metadata.name", Expectation(), job)) == ["WM303"]


def test_conditions_must_be_booleans_unless_existence_tests(types):
    job = types("batch", "v1", "Job")
    text = "[.status.conditions[]? | select(.type)] | length"
    (f,) = check_expression(text, Expectation(), job)
    assert rule_of(f) == "WM304" and text[f.start:f.end] == ".type"
    # optional fields are the usual existence test
    assert check_expression("[.status.conditions[]? | select(.reason)] | length", Expectation(), job) == []
    assert check_expression('if .spec.suspend then "x" else "y" end', Expectation(), job) == []


def test_any_never_reports_and_language_constructs_are_typed(types):
    assert check_expression(".a.b[].c | select(.d) | .e + 1", Expectation(), ANY) == []
    job = types("batch", "v1", "Job")
    cases = {
        ".spec.template.spec.containers | map(.name)": "array",
        ".spec.template.metadata.labels | to_entries[] | .value": STRING,
        ".spec.template.spec.containers | length": INTEGER,
        "def f: .spec; f | .parallelism": INTEGER,
        ".spec as $s | $s.parallelism": INTEGER,
        "reduce .spec.template.spec.containers[] as $c (0; . + 1)": INTEGER,
        '.spec.suspend and (.status.active > 0) | not': BOOLEAN,
        '{a: .spec.parallelism} | .a': INTEGER,
        '.spec.template.metadata.labels | with_entries(.value |= ascii_downcase) | keys[]': STRING,
    }
    for text, kind in cases.items():
        result = infer(parse(text), job)
        assert result.findings == [], text
        assert kind in result.type.kinds(), (text, result.type)
    (f,) = infer(parse("def f: .spec; f | .paralelism"), job).findings
    assert f.data["suggestions"] == ["parallelism"]


def test_deep_expressions_do_not_crash(types):
    job = types("batch", "v1", "Job")
    text = "(" * 80 + ".spec" + ")" * 80
    assert check_expression(text, Expectation(), job) == []
    assert check_expression("not valid jq ((", Expectation(), job) == []


def test_a_string_indexed_by_a_number_is_a_character_in_gojq(types):
    """gojq indexes strings by character (`"abc"[1]` is "b", GOJQ.md §4); a key on a string still fails."""
    job = types("batch", "v1", "Job")
    name = ".spec.template.spec.containers[0].name"
    result = infer(parse(f"{name}[0]"), job)
    assert result.type.kinds() == {STRING} and result.findings == []
    (f,) = check_expression(f'{name}["x"]', Expectation(), job)
    assert rule_of(f) == "WM302"


def test_comparing_different_kinds_says_what_each_operator_gives(types):
    job = types("batch", "v1", "Job")
    said = {}
    for op in ("==", "!=", "<"):
        (finding,) = check_expression(f'.status.active {op} "0"', Expectation(), job)
        said[op] = message_of(finding)
    assert "always false" in said["=="] and "always true" in said["!="] and "type order" in said["<"]
