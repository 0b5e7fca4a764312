"""Generated documents stay current: schemas/definition.schema.json (docs/rules.md is held by
tests/rules/test_examples.py); and how docs/rules.md shows a rule's examples."""

from __future__ import annotations

import json

import jsonschema
import yaml

from wmaplint.definition.format import SCHEMA_FILE, schema_json


def test_definition_schema_file_is_current() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_json(), (
        "schemas/definition.schema.json is stale: run `python -m wmaplint.definition.format`"
    )


def test_definition_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(json.loads(schema_json()))


def test_catalog_definitions_validate_against_the_format_schema(repo) -> None:
    validator = jsonschema.Draft202012Validator(json.loads(schema_json()))
    files = sorted((repo / "catalog").glob("*.yaml"))
    assert files
    for path in files:
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        errors = [f"{path.name}: {'/'.join(map(str, e.path))}: {e.message}"
                  for e in validator.iter_errors(doc)]
        assert errors == []


def test_format_schema_rejects_a_misspelled_key() -> None:
    validator = jsonschema.Draft202012Validator(json.loads(schema_json()))
    from wmaplint.rules.examples import job_with

    doc = yaml.safe_load(job_with("specDefinition:", "specDefiniton:"))
    assert any("specDefiniton" in e.message for e in validator.iter_errors(doc))


def test_rule_docs_show_where_the_examples_differ() -> None:
    from wmaplint.diagnostics import Rule, Severity
    from wmaplint.rule_reference import example_snippets

    good = "a:\n  b:\n    c: 1\n    d: 2\n  e: 3\n"
    rule = Rule("WM999", "x", Severity.ERROR, "s", "w", bad=good.replace("d: 2", "d: 3"), good=good)
    assert example_snippets(rule) == ("a:\n  b:\n    ...\n    d: 3", "a:\n  b:\n    ...\n    d: 2")
    removed = Rule("WM999", "x", Severity.ERROR, "s", "w", bad=good.replace("    d: 2\n", ""), good=good)
    assert example_snippets(removed)[0] == "a:\n  b:\n    ...\n    # (nothing here)"
    items = "l:\n- n: a\n  v: 1\n- n: b\n  v: 2\n"
    rule = Rule("WM999", "x", Severity.ERROR, "s", "w", bad=items.replace("v: 2", "v: 3"), good=items)
    assert example_snippets(rule)[0] == "l:\n...\n- n: b\n  v: 3"


def test_every_rule_shows_a_short_example() -> None:
    from wmaplint.diagnostics import RULES
    from wmaplint.rule_reference import example_snippets

    long = {rule_id: len(bad.splitlines()) for rule_id, rule in RULES.items()
            for bad in example_snippets(rule)[:1] if len(bad.splitlines()) > 30}
    assert long == {}
