"""WM309: `[]` over a list or map that the schema lets be absent, with no guard (FORMAT.md §8).

The real case: a RayJob that runs on an existing cluster (`clusterSelector`) has no `rayClusterSpec`, so
`.spec.rayClusterSpec.workerGroupSpecs[]` stops gojq with `cannot iterate over: null`. The sweeps check the
rule against an independent reading of the OpenAPI of every bundled CRD (which include every CRD in
../shared): reported exactly where a field on the path is neither required nor defaulted, or is nullable (a
`spec` excepted).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from worded import message_of, rule_of

from wmaplint import rules
from wmaplint.engine import lint_text
from wmaplint.schema.served import object_meta_from
from wmaplint.typecheck.expectations import Expectation, check_expression

rules.load()

RULE = "WM309"
WORKERS = ".spec.rayClusterSpec.workerGroupSpecs"


@pytest.fixture(scope="module")
def types(bundle_store: Any) -> Any:
    meta = object_meta_from(bundle_store.lookup("", "v1", "Pod"))

    def check(gvk: tuple[str, str, str], text: str, field: str = "instanceIdPath") -> list[Any]:
        schema = bundle_store.lookup(*gvk)[0]
        found = check_expression(text, Expectation.for_field(field), schema.type, object_meta=meta)
        return [f for f in found if rule_of(f) == RULE]

    return check


RAYJOB = ("ray.io", "v1", "RayJob")


def test_rayjob_worker_groups_without_a_guard(types: Any) -> None:
    text = f"{WORKERS}[].groupName"
    (f,) = types(RAYJOB, text)
    assert text[f.start:f.end] == "[]"
    assert f.data == {"path": WORKERS, "absent": WORKERS}
    assert "`workerGroupSpecs`" in message_of(f) and "cannot iterate over: null" in message_of(f)
    assert f.replacement == f"{WORKERS}[]?.groupName"
    assert types(RAYJOB, f.replacement) == []


def test_a_missing_parent_is_named(types: Any) -> None:
    """The head's containers are required in its pod spec, but rayClusterSpec itself may be absent."""
    (f,) = types(RAYJOB, ".spec.rayClusterSpec.headGroupSpec.template.spec.containers[].name")
    assert f.data["absent"] == ".spec.rayClusterSpec"
    assert "whenever `.spec.rayClusterSpec` is absent" in message_of(f)


@pytest.mark.parametrize("text", [
    f"{WORKERS}[]?.groupName",
    f"try {WORKERS}[].groupName",
    f"({WORKERS}[] | .groupName)?",
    f"({WORKERS} // [])[] | .groupName",
    f"{WORKERS} // [] | .[].groupName",
    f"{WORKERS} | arrays | .[].groupName",
    f"if {WORKERS} then {WORKERS}[].groupName else empty end",
    f"if ({WORKERS} // []) | length > 0 then {WORKERS}[].groupName else empty end",
    f"if {WORKERS} == null then empty else {WORKERS}[].groupName end",
    f"{WORKERS} | if . then .[].groupName else empty end",
    f"if .spec.rayClusterSpec | has(\"workerGroupSpecs\") then {WORKERS}[].groupName else empty end",
    ".spec.rayClusterSpec | select(.workerGroupSpecs) | .workerGroupSpecs[].groupName",
    f"{WORKERS} != null and any({WORKERS}[]; .replicas > 0)",
    f"{WORKERS} == null or any({WORKERS}[]; .replicas > 0)",
    f"({WORKERS} | length) == 0 or any({WORKERS}[]; .replicas > 0)",
    ".spec.rayClusterSpec.headGroupSpec.template.spec.containers[]?.name",
])
def test_guarded_iterations_are_not_reported(types: Any, text: str) -> None:
    assert types(RAYJOB, text) == []


def test_a_condition_that_proves_the_path_absent_does_not_guard_it(types: Any) -> None:
    (f,) = types(RAYJOB, f"if {WORKERS} == null then {WORKERS}[].groupName else empty end")
    assert f.data["path"] == WORKERS


@pytest.mark.parametrize("builtin", ["map(.groupName)", "any(.replicas > 0)", "sort_by(.groupName)"])
def test_builtins_defined_over_iteration_are_reported_without_a_fix(types: Any, builtin: str) -> None:
    text = f"{WORKERS} | {builtin}"
    (f,) = types(RAYJOB, text, "expression")
    assert text[f.start:f.end] == builtin.split("(")[0]
    assert f.replacement is None and "// []" in message_of(f)


def test_required_lists_and_a_spec_are_taken_as_present(types: Any) -> None:
    # JobSet: replicatedJobs[].template (a JobTemplateSpec) has an optional `spec`; containers are required
    text = ".spec.replicatedJobs[]?.template.spec.template.spec.containers[].name"
    assert types(("jobset.x-k8s.io", "v1alpha2", "JobSet"), text) == []


def test_status_lists_of_a_new_object(types: Any) -> None:
    """A Job has no status until its controller writes one: its conditions are absent then."""
    text = '[.status.conditions[] | select(.type == "Complete")] | length > 0'
    (f,) = types(("batch", "v1", "Job"), text, "expression")
    assert f.data == {"path": ".status.conditions", "absent": ".status.conditions"}


CATALOG_RAYJOB = Path(__file__).resolve().parents[2] / "catalog" / "ray-io-rayjob-v1.yaml"


def test_the_catalog_rayjob_guards_every_worker_path() -> None:
    text = CATALOG_RAYJOB.read_text()
    assert [d for d in lint_text(text, "rayjob.yaml") if d.rule == RULE] == []
    unguarded = text.replace("workerGroupSpecs[]?", "workerGroupSpecs[]")
    found = [d for d in lint_text(unguarded, "rayjob.yaml") if d.rule == RULE]
    fields = [d.message.split(" ")[0] for d in found]
    assert len(found) == text.count("workerGroupSpecs[]?") == 5
    assert set(fields) == {f"`{WORKERS}`"}
    assert all(len(d.fixes) == 1 for d in found)


def test_pod_paths_are_not_checked() -> None:
    from wmaplint.rules.examples import JOB

    text = JOB.replace(
        "      statusDefinition:",
        "      podSelector:\n"
        "        componentTypeSelector: {keyPath: '.metadata.ownerReferences[].name'}\n"
        "      statusDefinition:",
    )
    assert [d for d in lint_text(text, "job.yaml") if d.rule == RULE] == []


# -- the sweeps: every list and map of every CRD, against an independent reading of its OpenAPI ------------

MAX_DEPTH = 7


def _iterables(schema: dict[str, Any]) -> list[tuple[str, bool]]:
    """Every list or map below ``schema`` as (jq path, expected finding): `[]?` between levels, `[]` at the
    end; a finding is expected when a field since the last list element may be absent or null."""
    out: list[tuple[str, bool]] = []

    def walk(node: dict[str, Any], text: str, may_miss: bool, depth: int, root: bool) -> None:
        if depth > MAX_DEPTH or node.get("x-kubernetes-preserve-unknown-fields"):
            return
        required = set(node.get("required") or ())
        for name, prop in (node.get("properties") or {}).items():
            if not isinstance(prop, dict) or (name == "metadata" and (root or node.get(
                    "x-kubernetes-embedded-resource"))):
                continue  # the object's metadata is ObjectMeta as the API server serves it
            key = f".{name}" if name.replace("_", "a").isalnum() and not name[0].isdigit() else f'.["{name}"]'
            path = text + key
            optional = (name not in required and "default" not in prop) and name != "spec"
            missing = may_miss or optional or bool(prop.get("nullable"))
            kind = prop.get("type")
            if kind == "array" or (kind == "object" and isinstance(prop.get("additionalProperties"), dict)
                                   and not prop.get("properties")):
                if not prop.get("x-kubernetes-preserve-unknown-fields"):
                    out.append((path + "[]", missing))
                items = prop.get("items") if kind == "array" else prop.get("additionalProperties")
                if isinstance(items, dict) and items.get("type") == "object":
                    walk(items, path + "[]?", False, depth + 1, False)
            elif kind == "object":
                walk(prop, path, missing, depth + 1, False)

    walk(schema, "", False, 0, True)
    return out


def _sweep(schema_dict: dict[str, Any], schema_type: Any) -> tuple[int, int, list[str]]:
    wrong: list[str] = []
    reported = 0
    cases = _iterables(schema_dict)
    for text, expected in cases:
        found = [f for f in check_expression(text, Expectation(), schema_type) if rule_of(f) == RULE]
        reported += bool(found)
        if bool(found) != expected:
            wrong.append(f"{text}: expected {'a finding' if expected else 'none'}")
        elif found and [f for f in check_expression(found[0].replacement, Expectation(), schema_type)
                        if rule_of(f) == RULE]:
            wrong.append(f"{text}: the fix {found[0].replacement} is reported again")
    return len(cases), reported, wrong


def _bundled_crds() -> list[str]:
    from wmaplint.schema.bundle import shipped_bundle

    bundle = shipped_bundle()
    assert bundle is not None
    return sorted(s.file for s in bundle.sources if s.file.startswith("crds/"))


@pytest.mark.parametrize("file", _bundled_crds())
def test_sweep_of_every_bundled_crd(file: str, bundled_crd_doc: Any, bundle_store: Any) -> None:
    assert _sweep_bundled(file, bundled_crd_doc, bundle_store)[2] == []


def test_the_sweep_meets_both_outcomes(bundled_crd_doc: Any, bundle_store: Any) -> None:
    cases, reported, _ = _sweep_bundled("crds/ray.io/rayjob_v1.yaml", bundled_crd_doc, bundle_store)
    assert cases > 200 and 0 < reported < cases


def _sweep_bundled(file: str, bundled_crd_doc: Any, bundle_store: Any) -> tuple[int, int, list[str]]:
    doc = bundled_crd_doc(file)
    group, kind = doc["spec"]["group"], doc["spec"]["names"]["kind"]
    totals = [0, 0]
    wrong: list[str] = []
    for version in doc["spec"]["versions"]:
        schemas = [s for s in bundle_store.lookup(group, version["name"], kind) if s.source.endswith(file)]
        assert schemas, (group, version["name"], kind)
        cases, reported, errors = _sweep(version["schema"]["openAPIV3Schema"], schemas[0].type)
        totals[0] += cases
        totals[1] += reported
        wrong += errors
    return totals[0], totals[1], wrong


def test_the_bundled_sweep_covers_every_crd_in_shared(shared: Path) -> None:
    """So the sweep above runs over every CRD in ../shared, and stands without it."""
    files = {f"crds/{p.relative_to(shared / 'crds')}" for p in (shared / "crds").glob("*/*.yaml")}
    assert files and files <= set(_bundled_crds())
