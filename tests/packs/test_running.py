"""Running packs on definitions: findings at the selected node, configuration, suppressions, reporters."""

from __future__ import annotations

import json
from pathlib import Path

from wmaplint.diagnostics import CheckOutcome, Severity, Span
from wmaplint.report.sarif import render_sarif
from wmaplint.rules.examples import JOB, job_with

from .helpers import PACK_HEAD, PackLab, acme_rule

SCALE = "$.spec.structureDefinition.rootComponent.scaleDefinition"


def ours(diags: list, prefix: str = "ACME") -> list:
    return [d for d in diags if d.rule.startswith(prefix)]


def test_finding_points_at_the_selected_node(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "self.replicasPath.startsWith('1')"))
    (found,) = ours(lab.lint())
    # JOB line 10: "      scaleDefinition: {replicasPath: '.spec.parallelism // 1'}" - the flow mapping
    assert found.span == Span(10, 24, 10, 64) and found.message == "acme says no"
    assert found.severity == Severity.WARNING and found.path.endswith("def.yaml")
    assert found.related[0].path.endswith("acme.yaml") and found.related[0].span.start_line == 11


def test_passing_assertion_and_unselected_nodes_give_nothing(lab: PackLab) -> None:
    lab.pack(
        PACK_HEAD
        + acme_rule(SCALE, "self.replicasPath.contains('parallelism')")
        + acme_rule("$.spec.structureDefinition.childComponents[*]", "'false' == 'true'", rule_id="ACME002")
    )
    assert ours(lab.lint()) == []


def test_root_and_message_expression(lab: PackLab) -> None:
    extra = ("    messageExpression: \"'name ' + self + ' is not ' + "
             "root.spec.structureDefinition.rootComponent.name\"\n")
    lab.pack(
        PACK_HEAD
        + acme_rule(
            "$.metadata.name", "self == root.spec.structureDefinition.rootComponent.name", extra=extra
        )
    )
    (found,) = ours(lab.lint())
    assert found.message == "name batch-job-v1 is not job" and found.span == Span(3, 18, 3, 30)


def test_every_match_of_a_wildcard_is_checked(lab: PackLab) -> None:
    lab.pack(
        PACK_HEAD
        + acme_rule(
            "$.spec.structureDefinition.rootComponent.statusDefinition.statusMappings.*[*]",
            "has(self.byExpression)",
        )
    )
    found = ours(lab.lint())
    assert [d.span.start_line for d in found] == [15, 16]  # completed and failed use byConditions


def test_runtime_error_is_a_finding_of_the_rule(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "self.maxReplicasPath == '3'"))
    (found,) = ours(lab.lint())
    assert "could not be evaluated" in found.message and "maxReplicasPath" in found.message


def test_what_the_python_evaluator_leaves_to_the_cel_runtime_is_still_evaluated(lab: PackLab) -> None:
    lab.pack(
        PACK_HEAD
        + acme_rule(SCALE, "self.replicasPath.matches('(?i)PARALLELISM')")
        + acme_rule(SCALE, "self.replicasPath.matches('(?i)^PARALLELISM')", rule_id="ACME002")
        + acme_rule(SCALE, "dyn([self.replicasPath.size()])", rule_id="ACME003")
    )
    found = ours(lab.lint())
    assert [d.rule for d in found] == ["ACME002", "ACME003"]
    assert found[1].message == "acme says no (the assertion gave [22], not a bool)"


def test_pack_problems_are_reported_on_the_pack_file(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "has(self.replicas)"))
    (found,) = [d for d in lab.lint() if d.rule == "WM922"]
    assert found.path.endswith("acme.yaml") and found.span.start_line == 11


def test_missing_pack_file_is_reported(lab: PackLab) -> None:
    (found,) = [d for d in lab.lint(packs=("nowhere.yaml",)) if d.rule == "WM920"]
    assert "cannot read rule pack" in found.message and found.path.endswith("nowhere.yaml")


def test_pack_may_not_reuse_a_shipped_id(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "true", rule_id="KBP001"))
    (found,) = [d for d in lab.lint() if d.rule == "WM923"]
    assert "already defined by" in found.message and found.span.start_line == 5


def test_configuration_ignores_selects_and_reweights_pack_ids(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "false") + acme_rule(SCALE, "false", rule_id="ACME002"))
    assert [d.rule for d in ours(lab.lint(extra_config="ignore: [ACME001]\n"))] == ["ACME002"]
    assert ours(lab.lint(extra_config="ignore: [ACME]\n")) == []
    assert {d.rule for d in lab.lint(extra_config="select: [ACME002]\n")} == {"ACME002"}
    (err, _) = ours(lab.lint(extra_config="severity: {ACME001: error}\n"))
    assert err.rule == "ACME001" and err.severity == Severity.ERROR


def test_suppression_by_pack_id_and_name(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "false"))
    line = "      scaleDefinition: {replicasPath: '.spec.parallelism // 1'}"
    for key in ("ACME001", "acme-rule"):
        text = JOB.replace(line, line + f"  # wmaplint: disable={key} -- fine here")
        assert [d.rule for d in lab.lint(text) if d.rule.startswith(("ACME", "WM91"))] == []


def test_pack_problems_are_not_suppressed_by_definition_comments(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "has(self.nope)"))
    text = "# wmaplint: disable-file=WM922 -- not here\n" + JOB
    assert "WM922" in {d.rule for d in lab.lint(text)}


def test_sarif_documents_pack_rules(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule(SCALE, "false"))
    diags = ours(lab.lint())
    log = json.loads(
        render_sarif(
            CheckOutcome(diagnostics=diags, sources={diags[0].path: JOB}, files_checked=1),
            tool_version="0.0.0",
        )
    )
    (descriptor,) = [r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "ACME001"]
    assert descriptor["name"] == "acme-rule" and descriptor["shortDescription"]["text"] == "acme says no"
    assert descriptor["fullDescription"]["text"] == "acme says no Because."


def test_hostile_nesting_is_survived(lab: PackLab) -> None:
    lab.pack(PACK_HEAD + acme_rule("$..name", "true"))
    deep = job_with(
        "metadata: {name: batch-job-v1}", "metadata: {name: batch-job-v1}\nstatus: " + "[" * 5000 + "]" * 5000
    )
    assert ours(lab.lint(deep)) == []


def test_pack_file_linted_on_its_own(tmp_path: Path) -> None:
    from wmaplint.engine import lint_text

    text = PACK_HEAD + acme_rule(SCALE, "has(self.nope)")
    assert [d.rule for d in lint_text(text, str(tmp_path / "acme.yaml"))] == ["WM922"]


def test_pack_findings_in_json_name_their_rule_and_a_relative_pack(tmp_path, monkeypatch) -> None:
    # they had an empty `name` and the pack's absolute path
    from wmaplint.engine import Options, lint_text
    from wmaplint.report import render

    (tmp_path / "packs").mkdir()
    (tmp_path / "packs" / "acme.yaml").write_text(PACK_HEAD + acme_rule("$.metadata", "false"), "utf-8")
    (tmp_path / ".wmaplint.yaml").write_text("rule-packs: [packs/acme.yaml]\n", encoding="utf-8")
    (tmp_path / "job.yaml").write_text(JOB.replace("batch-job-v1", "my-job"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = lint_text((tmp_path / "job.yaml").read_text(encoding="utf-8"), "job.yaml", Options())
    out = json.loads(render(CheckOutcome(found, {}, 1), "json", tool_version="0.1.0"))["diagnostics"]
    by_rule = {d["rule"]: d for d in out}
    assert by_rule["ACME001"]["name"] == "acme-rule"
    assert by_rule["ACME001"]["data"]["pack"] == "packs/acme.yaml"
    assert by_rule["ACME001"]["data"]["packBase"] is None
    shipped = by_rule["KBP003"]  # the shipped pack: relative to its own root, never a machine path
    assert shipped["name"] == "definition-name-convention"
    assert (shipped["data"]["pack"], shipped["data"]["packBase"]) == ("karta-best-practices.yaml",
                                                                       "WMAPLINT_SHIPPED_RULES")
    assert str(tmp_path) not in json.dumps(out)
