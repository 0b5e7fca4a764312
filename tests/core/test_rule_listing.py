"""`rules` and `explain` know every rule a check runs: the built-in rules, the rule pack shipped with wmaplint
(KBP001-KBP003, on by default) and the packs the configuration names."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from wmaplint.cli import main

PACK = """\
apiVersion: wmaplint.dev/v1
kind: RulePack
metadata: {name: acme}
rules:
  - id: ACME001
    name: root-needs-a-name
    severity: warning
    message: the root component has no name
    docs: Our platform shows the root component by its name.
    given: [$.spec.structureDefinition.rootComponent]
    assert: has(self.name)
"""


def run(*args: str, cwd: Path | None = None):
    old = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        return CliRunner().invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)


def test_rules_lists_the_shipped_packs_rules_with_the_built_in_ones(tmp_path) -> None:
    listing = run("rules", "--format", "json", cwd=tmp_path)
    assert listing.exit_code == 0, listing.output
    rules = {r["id"]: r for r in json.loads(listing.output)}
    assert {"KBP001", "KBP002", "KBP003", "WM101"} <= set(rules)
    assert rules["KBP003"]["name"] == "definition-name-convention"
    assert rules["KBP003"]["severity"] == "info"
    assert rules["KBP003"]["pack"] == "karta-best-practices"
    assert list(rules) == sorted(rules)
    text = run("rules", cwd=tmp_path).output
    assert any(line.startswith("KBP002  selector-label-key-invalid") for line in text.splitlines())


def test_explain_tells_a_pack_rule_by_id_or_name(tmp_path) -> None:
    for key in ("KBP003", "kbp003", "definition-name-convention"):
        explained = run("explain", key, cwd=tmp_path)
        assert explained.exit_code == 0, explained.output
        assert explained.output.startswith("# KBP003 definition-name-convention\n")
        assert "Default severity: **info**." in explained.output
        assert "karta-best-practices" in explained.output
        assert "keeps catalogs free of collisions" in explained.output  # its docs


def test_the_packs_a_configuration_names_are_listed_and_explained(tmp_path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "acme.yaml").write_text(PACK)
    (tmp_path / ".wmaplint.yaml").write_text("rule-packs: [acme.yaml]\n")
    ids = [r["id"] for r in json.loads(run("rules", "--format", "json", cwd=tmp_path).output)]
    assert "ACME001" in ids and "KBP001" in ids
    explained = run("explain", "ACME001", cwd=tmp_path)
    assert explained.exit_code == 0, explained.output
    assert "Our platform shows the root component by its name." in explained.output
