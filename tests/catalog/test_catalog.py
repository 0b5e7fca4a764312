"""Checks of the shipped catalog: file shape, jq compilation, the zip rule, replicas, status mapping and
pod-context paths, evaluated with libjq on each definition's example manifests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .cases import CONTROLLER_LABELS, EXPECTED
from .karta_eval import (
    all_examples,
    ancestor_multiplier,
    ancestors,
    attribute_pod,
    compiled,
    components,
    definition_files,
    example_files,
    has_spec,
    instance_ids,
    jq_fields,
    load_definition,
    load_yaml_documents,
    make_pod,
    matched_statuses,
    pod_gpus,
    pod_templates,
    replicas,
    run,
    spec_and_scale_paths,
    to_json_value,
    type_selector_matches,
)
from .paths import missing_step, root_chains
from .schemas import schema_for, validator_for

DEFINITIONS = definition_files()
# frameworks whose controller reports no failure at all (no condition, phase or counter to map)
NO_FAILURE_SIGNAL = {
    "leaderworkerset-x-k8s-io-leaderworkerset-v1": "only Available, Progressing, UpdateInProgress conditions",
    "apps-statefulset-v1": "no conditions; only replica counters",
    "grove-io-podcliqueset-v1alpha1": "MinAvailableBreached is set on PodCliques and scaling groups only",
    "milvus-io-milvus-v1beta1": "Unhealthy is reported as degraded: components may recover",
    "batch-cronjob-v1": "CronJobStatus has no conditions or phase; a failed run is a failed Job",
}
DEF_IDS = [p.stem for p in DEFINITIONS]
FIELDS = [(p.stem, f) for p in DEFINITIONS for f in jq_fields(load_definition(p))]
EXAMPLES = all_examples()
EXAMPLE_IDS = [f"{d}/{e.stem}" for d, e in EXAMPLES]
# constructs upstream's validator rejects (FORMAT.md §3.3)
DENIED = re.compile(
    r"\bdel\s*\(|\b(range|paths|recurse|walk|repeat)\b|\.\."
    r"|(?<![=!<>])(\|=|\+=|-=|\*=|/=|%=|//=)|(?<![=!<>|+\-*/%])=(?!=)"
)


def _definition(name: str) -> dict[str, Any]:
    return load_definition(next(p for p in DEFINITIONS if p.stem == name))


def _workload(example: Path) -> Any:
    docs = load_yaml_documents(example)
    assert len(docs) == 1
    return to_json_value(docs[0])


def _root_gvk(defn: dict[str, Any]) -> tuple[str, str, str]:
    kind = defn["spec"]["structureDefinition"]["rootComponent"]["kind"]
    return kind["group"], kind["version"], kind["kind"]


# --- definition files -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", DEFINITIONS, ids=DEF_IDS)
def test_definition_is_one_karta_named_after_its_root_kind(path: Path) -> None:
    docs = load_yaml_documents(path)
    assert len(docs) == 1
    defn = docs[0]
    assert defn["apiVersion"] == "run.ai/v1alpha1"
    assert defn["kind"] == "Karta"
    group, version, kind = _root_gvk(defn)
    expected = f"{group.replace('.', '-') or 'core'}-{kind.lower()}-{version}"
    assert path.stem == expected
    assert defn["metadata"]["name"] == expected


@pytest.mark.parametrize("path", DEFINITIONS, ids=DEF_IDS)
def test_definition_is_valid_against_the_karta_crd(path: Path) -> None:
    validator_for("run.ai", "v1alpha1", "Karta").validate(load_definition(path))


@pytest.mark.parametrize("path", DEFINITIONS, ids=DEF_IDS)
def test_components_are_well_formed(path: Path) -> None:
    defn = load_definition(path)
    comps = components(defn)
    names = [c["name"] for c in comps]
    assert len(names) == len(set(names))
    root = comps[0]
    assert "ownerRef" not in root and root.get("statusDefinition")
    for child in comps[1:]:
        assert child.get("ownerRef") in names and child["ownerRef"] != child["name"]
    for comp in comps:
        assert bool(comp.get("instanceIdPath")) == bool(
            (comp.get("podSelector") or {}).get("componentInstanceSelector")
        ), comp["name"]
        spec = comp.get("specDefinition") or {}
        shapes = [
            k for k in ("podTemplateSpecPath", "podSpecPath", "fragmentedPodSpecDefinition") if k in spec
        ]
        assert len(shapes) <= 1, comp["name"]
    pod_bearing = [c for c in comps if has_spec(c)]
    if len(pod_bearing) > 1:
        for comp in pod_bearing:
            assert (comp.get("podSelector") or {}).get("componentTypeSelector"), comp["name"]
    root_kind = root["kind"]
    assert root_kind["version"] and root_kind["kind"] and (root_kind["group"] or root_kind["kind"] == "Pod")
    # list-map keys the API server enforces (the jsonschema check above does not)
    extra_kinds = [k["kind"] for k in defn["spec"]["structureDefinition"].get("additionalChildKinds", [])]
    assert len(extra_kinds) == len(set(extra_kinds))
    gang = (defn["spec"].get("optimizationInstructions") or {}).get("gangScheduling") or {}
    groups = gang.get("podGroups", [])
    assert len({g["name"] for g in groups}) == len(groups)
    for group in groups:
        members = [m["componentName"] for m in group["members"]]
        assert len(members) == len(set(members))
        for member in group["members"]:
            assert member["componentName"] in names
            for key in ("groupByKeyPaths", "filters"):
                assert len(member.get(key, [])) == len(set(member.get(key, [])))


@pytest.mark.parametrize("path", DEFINITIONS, ids=DEF_IDS)
def test_status_mappings_cover_the_lifecycle(path: Path) -> None:
    root = load_definition(path)["spec"]["structureDefinition"]["rootComponent"]
    mappings = root["statusDefinition"]["statusMappings"]
    assert mappings.get("running")
    assert mappings.get("failed") or path.stem in NO_FAILURE_SIGNAL
    if root.get("suspendDefinition"):
        assert mappings.get("suspended")
    status = root["statusDefinition"]
    cond_def = status.get("conditionsDefinition")
    if cond_def:
        # offline (no API-server defaulting) an omitted field name is "", so every name is spelled out
        for key in ("typeFieldName", "statusFieldName", "reasonFieldName", "messageFieldName"):
            assert cond_def.get(key), key
    for matchers in mappings.values():
        for matcher in matchers:
            assert matcher, "an empty matcher always matches"
            assert "byPhase" not in matcher or status.get("phaseDefinition")
            assert "byConditions" not in matcher or cond_def
            for cond in matcher.get("byConditions", []):
                assert "status" in cond or "reason" in cond


@pytest.mark.parametrize("path", DEFINITIONS, ids=DEF_IDS)
def test_every_definition_has_examples(path: Path) -> None:
    assert example_files(path.stem)


# --- jq expressions -------------------------------------------------------------------------------


@pytest.mark.parametrize("name,field", FIELDS, ids=[f"{n}:{f.where}" for n, f in FIELDS])
def test_jq_expression_compiles_and_is_allowed(name: str, field: Any) -> None:
    compiled(field.expr)
    assert not DENIED.search(re.sub(r'"(\\.|[^"\\])*"', '""', field.expr)), field.expr
    assert "$__loc__" not in field.expr and "keys_unsorted" not in field.expr


ROOT_FIELDS = [(n, f) for n, f in FIELDS if f.context == "R"]


@pytest.mark.parametrize("name,field", ROOT_FIELDS, ids=[f"{n}:{f.where}" for n, f in ROOT_FIELDS])
def test_root_paths_exist_in_the_target_schema(name: str, field: Any) -> None:
    schema = schema_for(*_root_gvk(_definition(name)))
    for chain in root_chains(field.expr):
        assert missing_step(schema, chain) is None, f"{'.'.join(chain)} is not in the schema ({field.expr})"


@pytest.mark.parametrize(
    "name,field",
    [(n, f) for n, f in FIELDS if f.kind in ("spec", "suspend")],
    ids=[f"{n}:{f.where}" for n, f in FIELDS if f.kind in ("spec", "suspend")],
)
def test_spec_and_suspend_paths_are_assignable(name: str, field: Any) -> None:
    for _, example in [e for e in EXAMPLES if e[0] == name]:
        # raises "Invalid path expression" for constructed or variable-rooted values
        run(f"[path({field.expr})]", _workload(example))


# --- evaluation on the examples -------------------------------------------------------------------


@pytest.mark.parametrize("name,example", EXAMPLES, ids=EXAMPLE_IDS)
def test_example_is_valid_against_the_target_schema(name: str, example: Path) -> None:
    workload = _workload(example)
    group, version, kind = _root_gvk(_definition(name))
    assert workload["apiVersion"] == (f"{group}/{version}" if group else version)
    assert workload["kind"] == kind
    validator_for(group, version, kind).validate(workload)


@pytest.mark.parametrize("name,example", EXAMPLES, ids=EXAMPLE_IDS)
def test_status_expressions_give_exactly_one_output(name: str, example: Path) -> None:
    """The runtime compares only the first output of a byExpression / phase path; more would be ignored."""
    workload = _workload(example)
    for field in jq_fields(_definition(name)):
        if field.kind == "status" and "conditionsDefinition" not in field.where:
            assert len(run(field.expr, workload)) == 1, field.where


@pytest.mark.parametrize("name,example", EXAMPLES, ids=EXAMPLE_IDS)
def test_zip_rule_every_spec_and_scale_path_yields_one_output_per_instance(name: str, example: Path) -> None:
    defn, workload = _definition(name), _workload(example)
    external = EXPECTED[(name, example.stem)].get("external_templates", [])
    for comp in components(defn):
        ids = instance_ids(comp, workload)
        if comp.get("instanceIdPath"):
            assert all(ids), f"{comp['name']}: empty instance id"
        assert len(ids) == len(set(ids)), f"{comp['name']}: duplicate instance ids"
        for key, expr in spec_and_scale_paths(comp).items():
            out = run(expr, workload)
            assert len(out) == len(ids), f"{comp['name']}.{key}: {len(out)} outputs for {len(ids)} instances"
        if has_spec(comp):
            for count, template in zip(replicas(comp, workload), pod_templates(comp, workload), strict=True):
                if count and comp["name"] not in external:
                    assert (template.get("spec") or {}).get("containers"), f"{comp['name']}: no containers"


@pytest.mark.parametrize("name,example", EXAMPLES, ids=EXAMPLE_IDS)
def test_example_replicas_status_and_gpus(name: str, example: Path) -> None:
    expected = EXPECTED.get((name, example.stem))
    assert expected is not None, "every example needs expected outcomes in cases.py"
    defn, workload = _definition(name), _workload(example)
    for comp_name, ids in expected.get("ids", {}).items():
        comp = next(c for c in components(defn) if c["name"] == comp_name)
        assert instance_ids(comp, workload) == ids
    for comp_name, want in expected["replicas"].items():
        comp = next(c for c in components(defn) if c["name"] == comp_name)
        assert replicas(comp, workload) == want, comp_name
    assert matched_statuses(defn, workload) == expected["status"]
    pods = gpus = 0
    for comp in components(defn):
        if not has_spec(comp):
            continue
        factor = ancestor_multiplier(defn, comp, workload)
        for count, template in zip(replicas(comp, workload), pod_templates(comp, workload), strict=True):
            pods += factor * count
            gpus += factor * count * pod_gpus(template.get("spec") or {})
    assert (pods, gpus) == (expected["pods"], expected["gpus"])


def _pods(name: str, example: Path) -> list[tuple[dict[str, Any], str, Any]]:
    """(component, instance id, pod) for the first and last replica of every pod-bearing instance."""
    defn, workload = _definition(name), _workload(example)
    labels_for = CONTROLLER_LABELS[name]
    pods = []
    for comp in components(defn):
        if not has_spec(comp):
            continue
        rows = zip(
            instance_ids(comp, workload), replicas(comp, workload), pod_templates(comp, workload), strict=True
        )
        for instance, count, template in rows:
            if not count:
                continue
            for index in sorted({0, max(count - 1, 0)}):
                extra = labels_for(comp["name"], instance, workload, index)
                pod = make_pod(
                    template,
                    extra,
                    f"{workload['metadata']['name']}-{index}",
                    workload["metadata"].get("namespace", "default"),
                )
                pods.append((comp, instance, pod))
    return pods


@pytest.mark.parametrize("name,example", EXAMPLES, ids=EXAMPLE_IDS)
def test_pod_context_paths_give_one_value_and_attribute_the_pod(name: str, example: Path) -> None:
    defn = _definition(name)
    pod_fields = [f for f in jq_fields(defn) if f.context == "P"]
    pods = _pods(name, example)
    assert bool(pods) == bool(EXPECTED[(name, example.stem)]["pods"])
    for comp, instance, pod in pods:
        assert attribute_pod(defn, pod) == comp["name"]
        selector = comp.get("podSelector") or {}
        if selector.get("componentTypeSelector"):
            assert type_selector_matches(comp, pod)
        if selector.get("componentInstanceSelector"):
            assert run(selector["componentInstanceSelector"]["idPath"], pod) == [instance]
        lineage = {f"component {c['name']}." for c in [comp, *ancestors(defn, comp)]}
        excluded = _gang_members_filtered_out(defn, pod)
        members = {c["name"] for c in [comp, *ancestors(defn, comp)]}
        for field in pod_fields:
            if field.kind == "gang" and any(field.where.startswith(x) for x in excluded):
                continue
            # the scheduler reads a member's keys only on pods of that member or its descendants
            if field.kind == "gang" and field.where.split(" ", 1)[1].split(".")[1] not in members:
                continue
            if field.kind == "selector" and not any(field.where.startswith(x) for x in lineage):
                continue
            if "componentTypeSelector" in field.where or ".filters[" in field.where:
                continue  # existence/equality semantics checked above; filters checked in the helper
            out = run(field.expr, pod)
            assert len(out) == 1 and out[0] not in (None, ""), f"{field.where} on {comp['name']}: {out}"
            if field.kind == "gang":
                assert re.fullmatch(r"[a-z0-9]([-a-z0-9.]*[a-z0-9])?", str(out[0])), out


def _gang_members_filtered_out(defn: dict[str, Any], pod: Any) -> set[str]:
    """Gang members (as "podGroup <group>.<member>.groupByKeyPaths[" prefixes) whose filters reject the pod.
    Every filter must give exactly one boolean."""
    gang = (defn["spec"].get("optimizationInstructions") or {}).get("gangScheduling") or {}
    excluded = set()
    for group in gang.get("podGroups", []):
        for member in group["members"]:
            results = [run(expr, pod) for expr in member.get("filters", [])]
            assert all(len(r) == 1 and isinstance(r[0], bool) for r in results), results
            if not all(r[0] for r in results):
                excluded.add(f"podGroup {group['name']}.{member['componentName']}.groupByKeyPaths[")
    return excluded


def _richest_example(name: str, comp: dict[str, Any]) -> Path:
    """The example with the most instances of a component."""
    return max(example_files(name), key=lambda ex: len(instance_ids(comp, _workload(ex))))


MULTI_INSTANCE = [
    (d.stem, _richest_example(d.stem, comp), comp["name"])
    for d in DEFINITIONS
    for comp in components(load_definition(d))
    if comp.get("instanceIdPath")
]


def _instance_container(comp: dict[str, Any]) -> str:
    """The array or map a multi-instance component iterates: the leading navigation of its instanceIdPath."""
    match = re.match(r"\s*(\.[A-Za-z0-9_.]+)", comp["instanceIdPath"])
    assert match, comp["instanceIdPath"]
    return match.group(1).rstrip(".")


@pytest.mark.parametrize(
    "name,example,comp_name", MULTI_INSTANCE, ids=[f"{n}/{c}" for n, _, c in MULTI_INSTANCE]
)
@pytest.mark.parametrize("variant", ["absent", "empty", "sparse"])
def test_multi_instance_paths_stay_aligned_on_edge_cases(
    name: str, example: Path, comp_name: str, variant: str
) -> None:
    """The zip rule must hold when the instance list is missing, empty, or its entries omit optional
    numbers (the `.a[].x // 1` bug: `//` over the whole stream drops or invents outputs)."""
    comp = next(c for c in components(_definition(name)) if c["name"] == comp_name)
    container = _instance_container(comp)
    program = {
        "absent": f"delpaths([path({container})])",
        "empty": f'if ({container} | type) == "object" then {container} = {{}} else {container} = [] end',
        # drop every numeric field of each entry so that all defaults kick in
        "sparse": f'{container} |= map_values(with_entries(select(.value | type != "number")))',
    }[variant]
    workload = run(program, _workload(example))[0]
    ids = instance_ids(comp, workload)
    expected = len(ids) if variant == "sparse" else 0
    assert len(ids) == expected
    for key, expr in spec_and_scale_paths(comp).items():
        out = run(expr, workload)
        assert len(out) == expected, f"{key}: {len(out)} outputs for {expected} instances"
        if "eplicas" in key:
            assert all(isinstance(v, int | float) for v in out), (key, out)
