"""A definition in the proposed CEL format (value accessors, spec.variables, references) gets one finding
that says the released runtime reads none of it, instead of 21 unknown-field and jq findings."""

from __future__ import annotations

from pathlib import Path

from wmaplint.engine import lint_text
from wmaplint.rules.examples import JOB, job_with

HERE = Path(__file__).parent
JOBSET_CEL = (HERE / "jobset-cel.yaml").read_text(encoding="utf-8")


def test_a_cel_format_definition_is_one_finding_at_its_first_field() -> None:
    found = lint_text(JOBSET_CEL, "jobset-cel.yaml")
    assert [(d.rule, d.span.start_line, d.span.start_col) for d in found] == [("WM121", 9, 3)]
    message = found[0].message
    assert message.startswith("`spec.variables` (named CEL expressions) belongs to the proposed CEL")
    assert "the released runtime reads only the jq path fields" in message
    assert "no pod template, no replicas and no status" in message


def test_an_accessor_alone_is_enough_and_is_where_the_finding_is() -> None:
    text = job_with("specDefinition: {podTemplateSpecPath: .spec.template}",
                    "specDefinition:\n        podTemplatePath: {expression: object.spec.template}")
    found = lint_text(text, "job.yaml")
    assert [(d.rule, d.span.start_line, d.span.start_col) for d in found] == [("WM121", 10, 9)]
    field = "spec.structureDefinition.rootComponent.specDefinition.podTemplatePath"
    assert found[0].message.startswith(f"`{field}` (a value accessor: {{expression, patch, replace}})")


def test_other_documents_are_still_checked() -> None:
    released = job_with("'.spec.parallelism // 1'", "'.spec.parallelism | nosuchfunc'")
    found = lint_text(JOBSET_CEL + "---\n" + released, "both.yaml")
    assert [d.rule for d in found if d.span.start_line < 60] == ["WM121"]
    assert "WM202" in {d.rule for d in found}  # the released definition's unknown jq function


def test_a_stray_variables_key_is_only_an_unknown_field() -> None:
    text = JOB.replace("spec:\n", "spec:\n  variables: []\n", 1)
    assert [d.rule for d in lint_text(text, "job.yaml") if d.rule in ("WM112", "WM121")] == ["WM112"]
