"""The structural check reads each schema node once a process: what it remembers of a node never stands in
for a reference, which each schema's own resolver follows."""

from wmaplint.resolve.validate import structural_problems

SCHEMA = {
    "type": "object",
    "properties": {
        "size": {"$ref": "#/definitions/Size"},
        "mode": {"type": "string", "enum": ["a", "b"]},
        "name": {"type": "string"},
    },
    "required": ["name"],
}


def _messages(obj, definitions):
    return [p.message for p in structural_problems(SCHEMA, obj, lambda ref: definitions.get(ref))]


NOT_TEXT = ['size: Invalid value: "integer": size in body must be of type string: 3']


def test_one_node_referring_through_two_resolvers_reaches_each_ones_schema():
    as_text = {"#/definitions/Size": {"type": "string"}}
    as_number = {"#/definitions/Size": {"type": "integer"}}
    obj = {"name": "n", "size": 3}
    assert _messages(obj, as_text) == NOT_TEXT
    assert _messages(obj, as_number) == []
    assert _messages(obj, as_text) == NOT_TEXT


def test_every_kind_of_problem_is_found_again_on_a_node_read_before():
    obj = {"size": 1, "mode": "c", "nmae": "n"}
    expected = ['unknown field "nmae"', 'mode: Unsupported value: "c": supported values: "a", "b"',
                "name: Required value"]
    number = {"#/definitions/Size": {"type": "integer"}}
    assert sorted(_messages(obj, number)) == sorted(expected)
    assert sorted(_messages(obj, number)) == sorted(expected)
    assert _messages({"name": "n", "size": 1, "mode": "a"}, number) == []
