"""No false alarm from the rules that read the controller model (WM53x, WM44x, WM55x, WM73x): the shipped
catalog, the docs' examples and every tree of ../shared/samples give none of their findings."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from wmaplint.cli import main

REPO = Path(__file__).resolve().parents[2]
MODEL_RULES = re.compile(r"^WM(53|44|55|73)\d$")


def _model_rule_findings(args: list[str]) -> list[str]:
    result = CliRunner().invoke(main, [*args, "--format", "json"], catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output
    diagnostics = json.loads(result.stdout)["diagnostics"]
    return [f"{d.get('path', '')} {d['rule']} {d['message']}"
            for d in diagnostics if MODEL_RULES.match(d["rule"])]


def test_the_catalog_and_the_docs_examples_give_no_finding_of_the_model_rules() -> None:
    examples = [str(p) for p in sorted((REPO / "docs" / "examples").rglob("*.yaml"))]
    assert _model_rule_findings(["check", str(REPO / "catalog"), *examples]) == []


def test_no_tree_of_the_shared_samples_gives_a_finding_of_the_model_rules(shared: Path) -> None:
    samples = sorted((shared / "samples").rglob("*.yaml"))
    assert len(samples) >= 40
    assert [f for sample in samples for f in _model_rule_findings(["tree", str(sample)])] == []
