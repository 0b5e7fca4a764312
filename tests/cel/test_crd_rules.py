"""Type-checking of real CRD validation rules and of rules made wrong on purpose."""

from __future__ import annotations

import copy
from typing import Any

import yaml
from cel_rule_ids import rule_of

from wmaplint.cel import check_crd
from wmaplint.cel.crd import crd_schemas, walk_validation_rules
from wmaplint.cel.types import SchemaTypes


def test_every_real_rule_checks_clean(crd_docs: list[tuple[Any, dict[str, Any]]]) -> None:
    total = 0
    for path, doc in crd_docs:
        for schema, pointer in crd_schemas(doc):
            total += sum(1 for _ in walk_validation_rules(schema, pointer, SchemaTypes()))
        assert check_crd(doc) == [], path
    assert total >= 500  # several hundred real rules were actually visited


def _find_rule(doc: dict[str, Any], needle: str) -> tuple[Any, ...]:
    for schema, pointer in crd_schemas(doc):
        for site in walk_validation_rules(schema, pointer, SchemaTypes()):
            if needle in site.rule["rule"]:
                return (*site.pointer, "rule")
    raise AssertionError(needle)


def _set(doc: dict[str, Any], pointer: tuple[Any, ...], value: Any) -> None:
    node = doc
    for key in pointer[:-1]:
        node = node[key]
    node[pointer[-1]] = value


def test_rule_naming_a_missing_field_is_reported(karta_crd: dict[str, Any]) -> None:
    doc = copy.deepcopy(karta_crd)
    pointer = _find_rule(doc, "has(self.keyPath) || has(self.matchLabels)")
    _set(doc, pointer, "has(self.keyPath) || has(self.matchLabel)")
    issues = check_crd(doc)
    assert len(issues) == 1
    assert rule_of(issues[0]) == "WM601"
    assert issues[0].pointer == pointer
    assert "undefined field 'matchLabel'" in issues[0].message
    assert issues[0].offset == len("has(self.keyPath) || has")  # the has() macro call


def test_pointer_reaches_the_rule_string(karta_crd: dict[str, Any]) -> None:
    doc = copy.deepcopy(karta_crd)
    pointer = _find_rule(doc, "!has(self.value) || has(self.keyPath)")
    _set(doc, pointer, "self.value == 1")
    [issue] = check_crd(doc)
    node: Any = doc
    for key in issue.pointer:
        node = node[key]
    assert node == "self.value == 1"
    assert "found no matching overload for '_==_' applied to '(string, int)'" in issue.message


def _crd(rule_block: str, props: str = "") -> dict[str, Any]:
    text = f"""
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
spec:
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {{type: integer}}
              name: {{type: string}}
              x-mode: {{type: string}}
              tags: {{type: array, items: {{type: string}}}}
              labels: {{type: object, additionalProperties: {{type: string}}}}
{props}            x-kubernetes-validations:
{rule_block}"""
    return yaml.safe_load(text)


def _messages(doc: dict[str, Any]) -> list[tuple[str, str]]:
    return [(rule_of(i), i.message.splitlines()[0]) for i in check_crd(doc)]


def test_type_errors_match_cel_go_wording() -> None:
    cases = {
        "self.replicas.x == 1": "type 'int' does not support field selection",
        "self.replicas.lowerAscii() == 'a'": "found no matching overload for 'lowerAscii' applied to "
        "'int.()'",
        "size(self.replicas) > 0": "found no matching overload for 'size' applied to '(int)'",
        "self.all(k, true)": "cannot be range of a comprehension",
        "[1, 'a'].size() > 0": "expected type 'int' but found 'string'",
        "duration('5x') > duration('1s')": "invalid duration argument",
        "self.`x-mode` == 'a'": "unsupported syntax: '`'",
        "self.nosuch": "undeclared reference",
    }
    for rule, expected in cases.items():
        found = _messages(_crd(f'            - rule: "{rule}"\n'))
        if rule == "self.nosuch":
            found = _messages(_crd("            - rule: nosuch > 1\n"))
        assert found and found[0][0] == "WM601", rule
        assert expected in found[0][1], (rule, found)


def test_valid_constructs_are_accepted() -> None:
    rules = [
        "self.x__dash__mode == 'a'",
        "self.tags.all(t, t.size() < 10) && self.labels.all(k, self.labels[k] != '')",
        "!has(self.name) || self.name.matches('^[a-z]+$')",
        "self.?name.orValue('') != 'x'",
        "self.replicas < 1.5",
        "quantity('1Gi').isGreaterThan(quantity('1G'))",
        "self.labels.exists_one(k, k == 'a') || self.labels.map(k, k.size()).exists(n, n > 0)",
        "self.labels.all(k, v, v.size() > 0)",
        "!format.dns1123Label().validate('my-name').hasValue()",
    ]
    for rule in rules:
        assert _messages(_crd(f'            - rule: "{rule}"\n')) == [], rule


def test_root_metadata_only_has_name_and_generate_name() -> None:
    doc = _crd("            - rule: 'true'\n")
    root = doc["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    root["x-kubernetes-validations"] = [
        {"rule": "self.metadata.labels.size() > 0"},
        {"rule": "self.metadata.name.size() < 64"},
    ]
    issues = check_crd(doc)
    assert [i.pointer[-2] for i in issues] == [0]
    assert "undefined field 'labels'" in issues[0].message


def test_message_expression_must_be_string() -> None:
    doc = _crd("            - rule: self.replicas > 0\n              messageExpression: self.replicas\n")
    assert _messages(doc) == [("WM602", "messageExpression must evaluate to a string")]
    doc = _crd(
        "            - rule: self.replicas > 0\n              messageExpression: self.replicaz + 'x'\n"
    )
    [(rule, message)] = _messages(doc)
    assert rule == "WM602" and "undefined field 'replicaz'" in message


def test_cost_limit_is_a_finding() -> None:
    doc = _crd("            - rule: self.tags.all(a, self.tags.all(b, a == b || a != b))\n")
    messages = _messages(doc)
    assert (
        "WM603",
        "estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, "
        "or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
    ) in messages
    bounded = _crd("            - rule: self.tags.all(a, self.tags.all(b, a == b || a != b))\n")
    tags = bounded["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"][
        "tags"
    ]
    tags["maxItems"] = 10
    tags["items"]["maxLength"] = 10
    assert _messages(bounded) == []


def test_rule_field_checks() -> None:
    assert (
        _messages(_crd("            - rule: self.replicas > 0\n              reason: Bad\n"))[0][0] == "WM606"
    )
    assert _messages(
        _crd("            - rule: self.replicas > 0\n              optionalOldSelf: true\n")
    ) == [("WM606", "optionalOldSelf may not be set if oldSelf is not used in rule")]
    multi = _crd(
        "            - rule: |\n                self.replicas > 0 &&\n                self.replicas < 9\n"
    )
    assert _messages(multi) == [("WM606", "message must be specified if rule contains line breaks")]


def test_hostile_input_is_bounded() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(10_000):
        deep = {"type": "object", "properties": {"a": deep}}
    deep["x-kubernetes-validations"] = [{"rule": "has(self.a.a.a.a)"}]
    doc = {"spec": {"versions": [{"schema": {"openAPIV3Schema": deep}}]}}
    assert check_crd(doc) == []
    nested = "(" * 5000 + "true" + ")" * 5000
    doc = _crd(f"            - rule: '{nested}'\n")
    assert rule_of(check_crd(doc)[0]) == "WM601"
    assert check_crd({"spec": "nonsense"}) == []
    assert check_crd({"spec": {"versions": [None, {"schema": {"openAPIV3Schema": []}}]}}) == []
