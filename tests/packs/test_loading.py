"""Loading packs: every problem is a rule pack rule's finding on the pack file, at the offending value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmaplint.diagnostics import Span
from wmaplint.packs.loader import load_pack_text
from wmaplint.packs.problems import BadAssert
from wmaplint.packs.schema import SCHEMA_FILE, schema_json
from wmaplint.rules import diagnostics_of

from .helpers import PACK_HEAD, acme_rule

ROOT = "$.spec.structureDefinition.rootComponent"


def problems(text: str) -> list[tuple[str, Span, str]]:
    return [(d.rule, d.span, d.message) for d in diagnostics_of(load_pack_text(text, "acme.yaml").problems)]


def test_valid_pack_loads_its_rules() -> None:
    pack = load_pack_text(PACK_HEAD + acme_rule(ROOT, "has(self.statusDefinition)"), "acme.yaml")
    assert pack.problems == [] and [r.id for r in pack.rules] == ["ACME001"] and pack.name == "acme"


def test_bad_yaml_is_reported_at_its_line() -> None:
    (found,) = problems(PACK_HEAD + "  - id: [ACME001\n")
    assert found[0] == "WM920" and found[1].start_line == 6 and "not valid YAML" in found[2]


def test_unknown_field_points_at_the_key() -> None:
    (found,) = problems(PACK_HEAD + acme_rule(ROOT, "true", extra="    asert: false\n"))
    assert found[0] == "WM920" and found[1] == Span(12, 5, 12, 10) and "'asert'" in found[2]


def test_bad_severity_points_at_the_value() -> None:
    text = PACK_HEAD + acme_rule(ROOT, "true").replace("severity: warning", "severity: loud")
    (found,) = problems(text)
    assert found[0] == "WM920" and found[1] == Span(7, 15, 7, 19)


def test_missing_required_field_and_wrong_kind() -> None:
    text = PACK_HEAD.replace("kind: RulePack", "kind: Rules") + acme_rule(ROOT, "true").replace(
        "    docs: Because.\n", ""
    )
    found = problems(text)
    assert {f[0] for f in found} == {"WM920"}
    assert any("'docs' is a required property" in f[2] and f[1].start_line == 5 for f in found)
    assert any("kind must be 'RulePack'" in f[2] and f[1].start_line == 2 for f in found)


def test_reserved_wm_id_is_rejected() -> None:
    (found,) = problems(PACK_HEAD + acme_rule(ROOT, "true", rule_id="WM999"))
    assert found[0] == "WM920" and "reserved WM prefix" in found[2] and found[1].start_line == 5


def test_jsonpath_syntax_error_is_positioned_inside_given() -> None:
    (found,) = problems(PACK_HEAD + acme_rule("'$.spec[?@.x =='", "true"))
    assert found[0] == "WM921" and found[1].start_line == 10 and "not an RFC 9535 JSONPath" in found[2]
    assert found[1].start_col > 12  # inside the query, not at the key


def test_misspelled_field_in_given_is_a_load_error() -> None:
    (found,) = problems(PACK_HEAD + acme_rule("$.spec.structureDefinition.rootComponnet", "true"))
    assert found[0] == "WM921" and "no field 'rootComponnet'" in found[2] and found[1].start_line == 10


def test_name_on_a_list_is_a_load_error() -> None:
    (found,) = problems(PACK_HEAD + acme_rule("$.spec.structureDefinition.childComponents.name", "true"))
    assert found[0] == "WM921" and "is a list" in found[2]


def test_misspelled_field_in_assert_is_a_load_error_at_the_field() -> None:
    (found,) = problems(PACK_HEAD + acme_rule(ROOT, "has(self.scaleDefinition.replicaPath)"))
    # "    assert: has(self.scaleDefinition." is 37 characters: the misspelling starts at column 38
    assert found == (
        "WM922",
        Span(11, 38, 11, 49),
        "ACME001: assert does not compile: undefined field 'replicaPath'",
    )


def test_misspelled_field_through_root_is_a_load_error() -> None:
    (found,) = problems(
        PACK_HEAD + acme_rule("$.metadata.name", "root.spec.structureDefinition.rootComponent.nme == self")
    )
    assert found[0] == "WM922" and "undefined field 'nme'" in found[2]


def test_cel_syntax_error_and_non_bool_assert() -> None:
    (syntax,) = problems(PACK_HEAD + acme_rule(ROOT, "has(self.name"))
    assert syntax[0] == "WM922" and syntax[1].start_line == 11
    (output,) = problems(PACK_HEAD + acme_rule(ROOT, "self.name"))
    assert output[0] == "WM922" and "must evaluate to a bool" in output[2]


def test_message_expression_must_be_a_string() -> None:
    text = PACK_HEAD + acme_rule(ROOT, "true", extra="    messageExpression: self.name.size()\n")
    (found,) = problems(text)
    assert found[0] == "WM922" and "messageExpression" in found[2] and found[1].start_line == 12


def test_assert_is_checked_against_every_given() -> None:
    text = PACK_HEAD + acme_rule(f"[{ROOT}, $.metadata]", "has(self.kind)")
    (found,) = problems(text)  # metadata has no kind
    assert found[0] == "WM922" and "undefined field 'kind'" in found[2]


def test_duplicate_id_in_one_pack() -> None:
    text = PACK_HEAD + acme_rule(ROOT, "true") + acme_rule(ROOT, "true")
    (found,) = problems(text)
    assert found[0] == "WM923" and found[1].start_line == 12 and "first at line 5" in found[2]


def test_a_broken_rule_does_not_hide_the_others() -> None:
    text = PACK_HEAD + acme_rule(ROOT, "has(self.nope)") + acme_rule(ROOT, "true", rule_id="ACME002")
    pack = load_pack_text(text, "acme.yaml")
    assert [r.id for r in pack.rules] == ["ACME002"] and [type(p) for p in pack.problems] == [BadAssert]


def test_not_a_mapping_and_several_documents() -> None:
    assert problems("- 1\n")[0][0] == "WM920"
    assert "one YAML document" in problems(PACK_HEAD + "---\na: 1\n")[0][2]


def test_deeply_nested_pack_does_not_raise() -> None:
    text = PACK_HEAD + "  - " + "[" * 10_000 + "]" * 10_000 + "\n"
    assert {p[0] for p in problems(text)} == {"WM920"}


def test_schema_file_is_current() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_json()
    assert json.loads(schema_json())["$defs"]["Rule"]["required"] == [
        "id",
        "severity",
        "message",
        "docs",
        "given",
        "assert",
    ]


def test_a_pack_text_that_passed_the_schema_is_not_validated_again(tmp_path, monkeypatch) -> None:
    from wmaplint.packs import loader

    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path))
    text = Path(shipped_pack()).read_text(encoding="utf-8")
    assert loader.load_pack_text(text, "pack.yaml").problems == []

    def never(*_args):
        raise AssertionError("validated twice")

    monkeypatch.setattr(loader, "_schema_problems", never)
    assert loader.load_pack_text(text, "pack.yaml").problems == []
    with pytest.raises(AssertionError):  # a different text is validated
        loader.load_pack_text(text + "\n# changed\n", "pack.yaml")


def shipped_pack():
    from wmaplint.packs.in_use import shipped_pack_paths

    return shipped_pack_paths()[0]
