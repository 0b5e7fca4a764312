"""The one reader of raw schemas' references (``wmaplint.schema.raw``): what a ``$ref`` names, followed
through OpenAPI's ``allOf`` wrapper, a reference naming nothing or a circle of them being unknown; manifest
validation and CEL's types read a schema through it alike."""

from __future__ import annotations

from wmaplint.cel.types import ObjectType, schema_type
from wmaplint.resolve.validate import structural_problems
from wmaplint.schema.raw import definitions, follow

SPEC = {"type": "object", "properties": {"replicas": {"type": "integer"}}}
NAMED = {
    "Spec": SPEC,
    "Widget": {"type": "object", "properties": {"spec": {"allOf": [{"$ref": "#/components/schemas/Spec"}],
                                                          "description": "the widget's spec"}}},
    "Loop": {"$ref": "#/definitions/Back"},
    "Back": {"$ref": "#/components/schemas/Loop"},
}
REFS = definitions(NAMED)


def test_a_reference_and_the_allof_wrapper_lead_to_the_named_schema() -> None:
    assert follow({"$ref": "#/components/schemas/Spec"}, REFS) is SPEC
    assert follow({"$ref": "#/definitions/Spec"}, REFS) is SPEC
    assert follow({"allOf": [{"$ref": "#/components/schemas/Spec"}], "description": "x"}, REFS) is SPEC


def test_an_allof_beside_a_type_of_its_own_is_the_schema_itself() -> None:
    typed = {"type": "object", "allOf": [{"$ref": "#/components/schemas/Spec"}]}
    assert follow(typed, REFS) is typed


def test_a_reference_naming_nothing_and_a_circle_are_unknown() -> None:
    assert follow({"$ref": "#/components/schemas/Missing"}, REFS) is None
    assert follow({"$ref": "https://example.com/other.json"}, REFS) is None
    assert follow({"$ref": "#/components/schemas/Loop"}, REFS) is None
    assert follow({"$ref": "#/components/schemas/Spec"}, None) is None
    assert follow("not a schema", REFS) is None


def test_validation_and_cel_types_see_the_same_wrapped_schema() -> None:
    widget = NAMED["Widget"]
    problems = structural_problems(widget, {"spec": {"replicas": "two", "extra": 1}}, REFS)
    assert sorted(p.message for p in problems) == [
        'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "two"',
        'unknown field "spec.extra"',
    ]
    cel = schema_type(widget, REFS)
    assert isinstance(cel, ObjectType)
    spec = cel.field("spec")
    assert spec is not None and isinstance(spec.type, ObjectType)
    replicas = spec.type.field("replicas")
    assert replicas is not None and replicas.type.kind == "int"
