"""The table of the format's fields is the one source: the JSON Schema, the typed model and the analyses agree
with it."""

from __future__ import annotations

import json
from typing import Any

from wmaplint.definition.fields import (
    CONTEXTS,
    FIELDS,
    FRAGMENT_FIELDS,
    JQ_FIELDS,
    OBJECTS,
    ROLES,
    SCALE_FIELDS,
    SHAPES,
    FormatField,
    field_at,
    fragment_pod_fields,
    shape_of,
)
from wmaplint.definition.format import SCHEMA_FILE
from wmaplint.definition.model import build
from wmaplint.jq.roles import CARDINALITIES
from wmaplint.source import load_text

# Every jq field of the format set once (twice for the suspend and resume actions).
EVERY_JQ_FIELD = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: everything}
spec:
  structureDefinition:
    rootComponent:
      name: root
      kind: {group: example.com, version: v1, kind: Thing}
      instanceIdPath: .spec.parts[].name
      specDefinition:
        podTemplateSpecPath: .spec.parts[].template
        podSpecPath: .spec.parts[].template.spec
        metadataPath: .spec.parts[].template.metadata
        fragmentedPodSpecDefinition:
          schedulerNamePath: .spec.parts[].schedulerName
          labelsPath: .spec.parts[].labels
          annotationsPath: .spec.parts[].annotations
          resourcesPath: .spec.parts[].resources
          resourceClaimsPath: .spec.parts[].claims
          podAffinityPath: .spec.parts[].affinity.podAffinity
          nodeAffinityPath: .spec.parts[].affinity.nodeAffinity
          containersPath: .spec.parts[].containers
          containerPath: .spec.parts[].container
          priorityClassNamePath: .spec.parts[].priorityClassName
          imagePath: .spec.parts[].image
      scaleDefinition:
        replicasPath: .spec.parts[].replicas
        minReplicasPath: .spec.parts[].minReplicas
        maxReplicasPath: .spec.parts[].maxReplicas
      statusDefinition:
        phaseDefinition: {path: .status.phase}
        conditionsDefinition: {path: .status.conditions}
        statusMappings:
          running: [{byExpression: {expression: .status.ready, expectedResult: "true"}}]
      suspendDefinition:
        suspendActions: [{path: .spec.suspend, value: "true"}]
        resumeActions: [{path: .spec.suspend, value: "false"}]
      podSelector:
        componentTypeSelector: {keyPath: .metadata.labels.part, value: worker}
        componentInstanceSelector: {idPath: .metadata.labels.part}
        replicaSelector: {keyPath: .metadata.labels.index}
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: all
        members:
        - componentName: root
          groupByKeyPaths: [.metadata.labels.part]
          filters: [.metadata.labels.gang == "yes"]
"""


def _schema_properties(schema: dict[str, Any], path: tuple[str | int, ...], defs: dict[str, Any],
                       found: list[tuple[tuple[str | int, ...], dict[str, Any]]], depth: int = 0) -> None:
    """Every property of the schema file by its key path (list entries as index 0), each once per path of
    objects: a shared object is followed the first time it is met below a path."""
    if depth > 12:
        return
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    if schema.get("type") == "array":
        _schema_properties(schema["items"], (*path, 0), defs, found, depth + 1)
    for key, sub in schema.get("properties", {}).items():
        found.append(((*path, key), sub))
        _schema_properties(sub, (*path, key), defs, found, depth + 1)


def schema_file_properties() -> list[tuple[tuple[str | int, ...], dict[str, Any]]]:
    schema = json.loads(SCHEMA_FILE.read_text())
    found: list[tuple[tuple[str | int, ...], dict[str, Any]]] = []
    _schema_properties(schema, (), schema["$defs"], found)
    return found


def _jq_context(sub: dict[str, Any]) -> str | None:
    if sub.get("type") == "array":
        return sub["items"].get("x-wmaplint-jq")
    return sub.get("x-wmaplint-jq")


def test_every_jq_field_of_the_schema_is_in_the_table_with_its_context() -> None:
    jq = [(path, _jq_context(sub)) for path, sub in schema_file_properties() if _jq_context(sub)]
    assert len(jq) > len(JQ_FIELDS)  # the shared Component is reached as the root and as a child
    for path, context in jq:
        f = field_at(path)
        assert f is not None and f.jq is not None, path
        assert f.jq.context == context, path


def test_every_field_of_the_table_is_in_the_schema() -> None:
    reached = set()
    for path, _ in schema_file_properties():
        f = field_at(path)
        assert f is not None, path
        reached.add(id(f))
    assert [f"{f.parent}.{f.key}" for f in FIELDS if id(f) not in reached] == []


def test_the_table_is_consistent() -> None:
    for f in FIELDS:
        assert f.parent in OBJECTS and (f.holds is None or f.holds in OBJECTS), f
        assert f.type in ("string", "object", "array", "map"), f
        if f.jq is not None:
            assert f.jq.context in CONTEXTS and f.jq.role in ROLES and f.jq.cardinality in CARDINALITIES, f
            assert f.type == "string" or (f.type == "array" and f.holds is None), f
    assert len(SHAPES) == len([f for f in JQ_FIELDS if f.jq and f.jq.shape])  # names with shapes are unique
    assert {f.jq.role for f in JQ_FIELDS if f.jq} == set(ROLES)


_BUILT: list[Any] = []  # an expression knows its component (weakly) while its definition lives


def _expressions() -> list[Any]:
    definition = build(load_text(EVERY_JQ_FIELD, "all.yaml").documents[0].root)
    assert definition is not None
    _BUILT[:] = [definition]
    return list(definition.expressions())


def test_the_model_makes_an_expression_of_every_jq_field_with_the_tables_use() -> None:
    exprs = _expressions()
    made: dict[int, FormatField] = {id(e.format_field): e.format_field for e in exprs}
    assert [f"{f.parent}.{f.key}" for f in JQ_FIELDS if id(f) not in made] == []
    for expr in exprs:
        f = field_at(expr.pointer)
        assert f is expr.format_field and f.jq is not None, expr.pointer
        assert (expr.field, expr.context, expr.cardinality, expr.writable) == (
            f.key, f.jq.context, f.jq.cardinality, f.jq.writable)
        role = expr.role
        assert (role.field, role.context, role.cardinality, role.writable) == (
            f.key, f.jq.context, f.jq.cardinality, f.jq.writable)
    by_role = {e.use.role: e for e in exprs}
    assert by_role["type-selector"].role.selector_value == "worker"
    assert by_role["by-expression"].role.expected_result == "true"
    assert by_role["scale"].role.has_instances


def test_the_typed_paths_of_a_component() -> None:
    definition = build(load_text(EVERY_JQ_FIELD, "all.yaml").documents[0].root)
    assert definition is not None and definition.root is not None
    root = definition.root
    assert list(root.fragment_paths) == list(FRAGMENT_FIELDS)
    assert list(root.scale_paths) == list(SCALE_FIELDS)
    assert list(root.spec_paths) == ["podTemplateSpecPath", "podSpecPath", "metadataPath"]
    assert root.scale_paths["minReplicasPath"].text == ".spec.parts[].minReplicas"


def test_the_typing_analysis_reads_each_fields_shape_from_the_model() -> None:
    from wmaplint.typecheck.expectations import Expectation, expectation_key

    assert set(SHAPES.values()) <= {"pod-template-spec", "pod-spec", "object-meta", "string-map",
                                    "resource-requirements", "containers", "container", "string", "affinity",
                                    "resource-claims", "replicas", "instance-id", "conditions", "phase",
                                    "suspend", "by-expression"}
    for expr in _expressions():
        assert expectation_key(expr) == expr.format_field.name
        assert Expectation.for_field(expr.format_field.name).shape == shape_of(expr.format_field.name)


def test_the_fragments_and_scale_fields_are_what_resolution_reads() -> None:
    from wmaplint.resolve.templates import FRAGMENT_PLACES
    from wmaplint.resolve.tree import SCALE_ATTRIBUTES

    assert tuple(key for key, _, _ in FRAGMENT_PLACES) == FRAGMENT_FIELDS
    assert tuple(SCALE_ATTRIBUTES) == SCALE_FIELDS
    assert SCALE_ATTRIBUTES["minReplicasPath"] == "min_replicas"
    pod_fields = dict(fragment_pod_fields())
    assert list(pod_fields) == list(FRAGMENT_FIELDS)
    assert pod_fields["labelsPath"] == "metadata.labels"
    assert pod_fields["imagePath"] == "spec.containers[].image"


def test_a_field_by_its_place() -> None:
    child = ("spec", "structureDefinition", "childComponents", 3)
    f = field_at((*child, "podSelector", "componentTypeSelector", "keyPath"))
    assert f is not None and f.jq is not None and f.jq.context == "pod" and f.jq.role == "type-selector"
    entry = field_at(("spec", "optimizationInstructions", "gangScheduling", "podGroups", 0, "members", 0,
                      "groupByKeyPaths", 2))
    assert entry is not None and entry.key == "groupByKeyPaths" and entry.jq is not None
    assert field_at((*child, "specDefiniton")) is None
    assert field_at((*child, "statusDefinition", "statusMappings", "pending")) is None
    assert field_at(("spec", 0)) is None
    assert field_at(("spec", "structureDefinition", "childComponents", 0, 0)) is None
