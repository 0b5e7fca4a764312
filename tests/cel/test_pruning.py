"""validate_object descends only where a schema declares a rule: the same violations, far fewer nodes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from wmaplint import cache_records
from wmaplint.cel import evaluate
from wmaplint.cel.crd import crd_schemas
from wmaplint.cel.evaluate import validate_object

REPO = Path(__file__).resolve().parents[2]


def _everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluate, "_validation_rules_below", lambda node, types, depth=0: True)


def _karta(karta_crd: dict[str, Any]) -> dict[str, Any]:
    schema, _ = next(iter(crd_schemas(karta_crd)))
    return dict(schema)


def test_a_rule_after_a_long_rule_free_list_is_still_evaluated(monkeypatch: pytest.MonkeyPatch) -> None:
    # 250,000 items would use up the walk's node budget before it reached `name`, which has the rule.
    schema = {
        "type": "object",
        "properties": {
            "big": {"type": "array", "items": {"type": "integer"}},
            "name": {"type": "string",
                     "x-kubernetes-validations": [{"rule": "self == 'ok'", "message": "no"}]},
        },
    }
    obj = {"big": [0] * 250_000, "name": "bad"}
    assert [v.message for v in validate_object(schema, obj)] == ["name: Invalid value: \"bad\": no"]
    _everywhere(monkeypatch)
    assert validate_object(schema, obj) == []  # walking every item, the budget ends first


def test_rules_under_refs_maps_and_lists_are_reached() -> None:
    definitions = {
        "Leaf": {"type": "object", "properties": {"size": {"type": "integer"}},
                 "x-kubernetes-validations": [{"rule": "self.size < 3", "message": "too big"}]},
        "Tree": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/T"}},
                                                  "leaves": {"type": "object",
                                                             "additionalProperties": {"$ref": "#/L"}}}},
    }
    refs = {"#/T": definitions["Tree"], "#/L": definitions["Leaf"]}
    obj = {"children": [{"children": [{"leaves": {"a": {"size": 5}, "b": {"size": 1}}}]}]}
    found = validate_object(definitions["Tree"], obj, refs.__getitem__)
    assert [v.message for v in found] == ["children[0].children[0].leaves[a]: Invalid value: too big"]


def test_same_violations_as_walking_everything_on_the_catalog(
    karta_crd: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = _karta(karta_crd)
    objects = [yaml.safe_load(p.read_text()) for p in sorted((REPO / "catalog").glob("*.yaml"))]
    for selectors in objects[:5]:  # and some that break the selector rules
        component = selectors["spec"]["structureDefinition"]["rootComponent"]
        component["podSelector"] = {"componentTypeSelector": {"value": "x"}}
    pruned = [[v.message for v in validate_object(schema, o)] for o in objects]
    _everywhere(monkeypatch)
    assert pruned == [[v.message for v in validate_object(schema, o)] for o in objects]
    assert sum(map(len, pruned)) >= 5


def test_same_violations_as_walking_everything_on_the_shared_samples(
    shared: Path, crd_docs: list[tuple[Path, dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = {}
    for path, doc in crd_docs:
        spec = doc.get("spec", {})
        for version, (schema, _) in zip(spec.get("versions", []), crd_schemas(doc), strict=False):
            if not path.name.endswith(".minimal.yaml"):
                index[(f"{spec['group']}/{version['name']}", spec["names"]["kind"])] = dict(schema)
    pairs = [
        (index[(m.get("apiVersion"), m.get("kind"))], m)
        for p in sorted((shared / "samples").rglob("*.yaml"))
        for m in yaml.safe_load_all(p.read_text())
        if isinstance(m, dict) and (m.get("apiVersion"), m.get("kind")) in index
    ]
    pruned = [[v.message for v in validate_object(schema, m)] for schema, m in pairs]
    _everywhere(monkeypatch)
    assert pruned == [[v.message for v in validate_object(schema, m)] for schema, m in pairs]
    assert len(pairs) >= 30 and any(pruned)  # one upstream sample really breaks its CRD


@pytest.fixture
def compiled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The rule texts type-checked from here on (a private user cache, nothing remembered in-process)."""
    from wmaplint.cel import checker

    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path / "cache"))
    evaluate._VERDICTS.clear()
    texts: list[str] = []
    real = checker.check_expression
    monkeypatch.setattr(
        checker, "check_expression", lambda text, *a, **k: texts.append(text) or real(text, *a, **k)
    )
    return texts


SELECTOR_RULES = ["!has(self.value) || has(self.keyPath)", "has(self.keyPath) || has(self.matchLabels)"]
BROKEN = ["at least one of keyPath or matchLabels must be set", "value requires keyPath"]


def _with_selector(value: str) -> dict[str, Any]:
    definition = yaml.safe_load((REPO / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml").read_text())
    component = definition["spec"]["structureDefinition"]["childComponents"][0]
    component["podSelector"]["componentTypeSelector"] = {"value": value}
    return definition


def test_each_rule_is_type_checked_once_per_schema_node_not_per_object(
    karta_crd: dict[str, Any], compiled: list[str]
) -> None:
    schema = _karta(karta_crd)
    for value in ("a", "b", "c"):
        assert [v.detail for v in validate_object(schema, _with_selector(value))] == BROKEN
    assert sorted(compiled) == SELECTOR_RULES


def test_a_later_process_takes_the_checked_rules_from_the_user_cache(
    karta_crd: dict[str, Any], compiled: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = _karta(karta_crd)
    first = [(v.message, v.detail) for v in validate_object(schema, _with_selector("a"))]
    evaluate._VERDICTS.clear()  # as in a new process
    again = [(v.message, v.detail) for v in validate_object(schema, _with_selector("a"))]
    assert again == first and [d for _, d in first] == BROKEN
    assert sorted(compiled) == SELECTOR_RULES  # compiled by the first run only


def test_a_later_process_evaluates_the_recorded_rules_without_the_cel_runtime(
    karta_crd: dict[str, Any], compiled: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    schema = _karta(karta_crd)
    first = [(v.message, v.detail) for v in validate_object(schema, _with_selector("a"))]
    evaluate._VERDICTS.clear()
    monkeypatch.setattr(evaluate, "_program", lambda *a: pytest.fail("the CEL runtime was used"))
    assert [(v.message, v.detail) for v in validate_object(schema, _with_selector("a"))] == first


def test_a_record_without_a_plan_is_not_used(
    karta_crd: dict[str, Any], compiled: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    schema = _karta(karta_crd)
    validate_object(schema, _with_selector("a"))
    for path in (tmp_path / "cache" / "records" / "cel").iterdir():
        data = cache_records.read(path)
        assert data["plan"] is not None
        del data["plan"]
        cache_records.write(path, data)
    evaluate._VERDICTS.clear()
    assert [v.detail for v in validate_object(schema, _with_selector("a"))] == BROKEN
    assert sorted(compiled) == sorted(SELECTOR_RULES * 2)


def test_rules_that_do_not_compile_are_checked_and_reported_every_time(compiled: list[str]) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}},
              "x-kubernetes-validations": [{"rule": "self.b == 1"}, {"rule": "self.a == 'x'"}]}
    for _ in range(2):
        evaluate._VERDICTS.clear()
        found = validate_object(schema, {"a": "y"})
        assert len(found) == 2 and "compilation failed" in found[0].message
    assert compiled == ["self.b == 1", "self.a == 'x'", "self.b == 1"]


def _large_node(rule: str) -> dict[str, Any]:
    """A schema node too large to key a record by its text, with a reference below it."""
    padding = {f"f{i}": {"type": "string", "description": "x" * 100}
               for i in range(evaluate.MAX_RECORDED_SCHEMA_CHARS // 100)}
    return {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"$ref": "#/B"}, **padding},
            "x-kubernetes-validations": [{"rule": rule, "message": "a is too big"}]}


REFS = {"#/B": {"type": "string"}}


def _messages(schema: dict[str, Any], source: str | None) -> list[str]:
    evaluate._VERDICTS.clear()  # as in a new process
    return [v.message for v in validate_object(schema, {"a": 5, "b": "x"}, REFS.get, source=source)]


def test_a_large_node_is_recorded_by_where_its_source_holds_it(compiled: list[str]) -> None:
    schema = _large_node("self.a < 3")
    assert _messages(schema, None) == _messages(schema, None) == ["<nil>: Invalid value: a is too big"]
    assert compiled == ["self.a < 3"] * 2  # its text keys no record
    assert _messages(schema, "digest-1\0g\0v1\0K") == _messages(schema, "digest-1\0g\0v1\0K")
    assert compiled == ["self.a < 3"] * 3  # recorded by its source and pointer, read back
    assert _messages(schema, "digest-2\0g\0v1\0K") == ["<nil>: Invalid value: a is too big"]
    assert compiled == ["self.a < 3"] * 4  # another source is another record


def test_a_damaged_record_of_a_place_is_not_used(compiled: list[str], tmp_path: Path) -> None:
    schema = _large_node("self.a < 3")
    expected = _messages(schema, "digest-1\0g\0v1\0K")
    (path,) = (tmp_path / "cache" / "records" / "cel").iterdir()
    path.write_bytes(path.read_bytes()[:-7])
    assert _messages(schema, "digest-1\0g\0v1\0K") == expected
    assert compiled == ["self.a < 3"] * 2  # compiled again, and recorded whole
    assert _messages(schema, "digest-1\0g\0v1\0K") == expected and len(compiled) == 2


def test_a_record_cannot_pass_off_a_rule_as_reading_old_self(compiled: list[str], tmp_path: Path) -> None:
    schema = _large_node("self.a < 3")
    expected = _messages(schema, "digest-1\0g\0v1\0K")
    (path,) = (tmp_path / "cache" / "records" / "cel").iterdir()
    data = cache_records.read(path)
    cache_records.write(path, {**data, "uses_old_self": True})  # a transition rule is not run offline
    assert _messages(schema, "digest-1\0g\0v1\0K") == expected == ["<nil>: Invalid value: a is too big"]
