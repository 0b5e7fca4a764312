"""Definitions as a cluster prints them: ``kubectl get kartas -o yaml`` is one ``kind: List`` whose items are
the definitions (with the server's metadata), ``-o json`` the same as JSON, and ``-w`` a stream of them or of
watch events. `check` reads each object where it stands, with the positions of the whole file."""

from __future__ import annotations

import json

import yaml
from click.testing import CliRunner

from wmaplint import rules
from wmaplint.cli import main
from wmaplint.diagnostics import RULES
from wmaplint.engine import lint_text

rules.load()
BAD = RULES["WM301"].bad  # a definition reading a field its kind's schema does not have


def findings(text: str, path: str = "defs.yaml") -> list[tuple[str, int]]:
    return [(d.rule, d.span.start_line) for d in lint_text(text, path)]


def as_list(*definitions: str) -> str:
    """What ``kubectl get kartas -o yaml`` prints for these definitions: a List, each item indented."""
    items = "".join("- " + "\n  ".join(d.rstrip("\n").splitlines()) + "\n" for d in definitions)
    return "apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n" + items


def test_each_definition_of_a_list_is_checked_where_it_stands() -> None:
    alone = findings(BAD)
    assert ("WM301", alone[0][1]) in alone
    listed = findings(as_list(BAD, BAD))
    lines = len(BAD.rstrip("\n").splitlines())
    # the first item starts on line 6 of the List, the second `lines` lines later
    first = [(rule, line + 5) for rule, line in alone]
    expected = sorted(first + [(rule, line + lines) for rule, line in first])
    assert sorted(listed) == expected


def test_a_json_list_and_a_watch_stream_are_checked_alike() -> None:
    definition = yaml.safe_load(BAD)
    listed = {"apiVersion": "v1", "kind": "List", "metadata": {}, "items": [definition]}
    as_json = json.dumps(listed, indent=2)
    watch = "\n".join(json.dumps({"type": kind, "object": definition}) for kind in ("ADDED", "MODIFIED"))
    assert "WM301" in [rule for rule, _ in findings(as_json, "defs.json")]
    assert [rule for rule, _ in findings(watch, "defs.json")].count("WM301") == 2


def test_check_reads_a_list_of_definitions_as_a_file_of_ours(tmp_path) -> None:
    (tmp_path / "kartas.yaml").write_text(as_list(BAD), encoding="utf-8")
    run = CliRunner().invoke(main, ["check", "--format", "json", str(tmp_path)])
    report = json.loads(run.output)
    assert run.exit_code == 1 and report["files"] == 1
    assert "WM301" in {d["rule"] for d in report["diagnostics"]}


def test_a_list_of_other_objects_is_not_ours() -> None:
    pods = "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: p}}\n"
    assert findings(pods) == []


def test_the_editor_knows_the_definitions_of_a_list() -> None:
    """Hover on a label key of the second definition of a List shows the controller's fact, as on the file."""
    from lsprotocol import types as lsp

    from wmaplint.lsp.hover import hover
    from wmaplint.lsp.snapshot import Snapshot
    from wmaplint.shipped_data import shipped

    rayjob = (shipped("catalog") / "ray-io-rayjob-v1.yaml").read_text(encoding="utf-8")
    text = as_list(BAD, rayjob)
    offset = text.index('ray.io/group"]') + 3
    line = text.count("\n", 0, offset)
    position = lsp.Position(line=line, character=offset - (text.rfind("\n", 0, offset) + 1))
    found = hover(Snapshot(text, "kartas.yaml"), position)
    assert found is not None and isinstance(found.contents, lsp.MarkupContent)
    assert found.contents.value.startswith("**label `ray.io/group`** (entry)")
