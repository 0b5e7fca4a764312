"""A definition kind written in another case (`kind: karta`) is a finding, not a file passed by in silence:
Kubernetes finds kinds by their exact name, so such a definition is never stored."""

from __future__ import annotations

import json

from click.testing import CliRunner

from wmaplint.cli import main
from wmaplint.rules.examples import JOB


def check(*args: str):
    return CliRunner().invoke(main, ["check", *args, "--format", "json"])


def test_a_named_file_with_a_misspelled_kind_is_a_finding(tmp_path) -> None:
    for written in ("karta", "KARTA", "resourceinterface"):
        path = tmp_path / "definition.yaml"
        path.write_text(JOB.replace("kind: Karta", f"kind: {written}", 1))
        result = check(str(path))
        assert result.exit_code == 1, result.output
        rules = [d["rule"] for d in json.loads(result.output)["diagnostics"]]
        assert rules == ["WM106"]


def test_a_directory_walk_finds_it_and_leaves_another_tools_kind_alone(tmp_path) -> None:
    (tmp_path / "definition.yaml").write_text(JOB.replace("kind: Karta", "kind: karta", 1))
    (tmp_path / "other.yaml").write_text("apiVersion: example.com/v1\nkind: karta\nmetadata: {name: x}\n")
    result = check(str(tmp_path))
    found = [(d["path"].rsplit("/", 1)[-1], d["rule"]) for d in json.loads(result.output)["diagnostics"]]
    assert found == [("definition.yaml", "WM106")]
