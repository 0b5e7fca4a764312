"""The server's pure parts: positions, cursor paths, jq words, code actions, on hand-written documents."""

from __future__ import annotations

from lsprotocol import types as lsp

from wmaplint.diagnostics import Span
from wmaplint.jq import words as jqwords
from wmaplint.lsp import actions, format_schema
from wmaplint.lsp.attach import is_ours
from wmaplint.lsp.positions import LspPositions
from wmaplint.lsp.snapshot import Snapshot
from wmaplint.lsp.yamlpath import locate, mapping_path
from wmaplint.rules.examples import JOB


def test_columns_after_astral_characters_count_two_utf16_units():
    index = LspPositions("a: '😀x'\r\nb: c\rd: e\n")
    assert index.lines == ["a: '😀x'", "b: c", "d: e", ""]
    # code-point column 6 is the 'x' after the emoji: 5 code points before it, 6 UTF-16 units
    assert index.position(1, 6) == lsp.Position(line=0, character=6)
    assert index.range(Span(1, 6, 1, 7)).end == lsp.Position(line=0, character=7)
    assert index.column(lsp.Position(line=0, character=6)) == 5
    assert index.offset(lsp.Position(line=1, character=3)) == len("a: '😀x'\r\n") + 3
    assert index.offset(lsp.Position(line=2, character=0)) == len("a: '😀x'\r\nb: c\r")


def test_mapping_path_follows_block_lists_and_collects_siblings():
    text = (
        "spec:\n"
        "  structureDefinition:\n"
        "    childComponents:\n"
        "    - name: a\n"
        "      kind: {group: batch}\n"
        "      \n"
        "  optimizationInstructions:\n"
        "    gangScheduling:\n"
        "      podGroups:\n"
        "        - name: g\n"
        "          members:\n"
        "            - componentName: a\n"
        "              \n"
    )
    lines = text.splitlines()
    assert mapping_path(lines, 5, 6) == (
        ["spec", "structureDefinition", "childComponents", 0],
        ["kind", "name"],
    )
    assert mapping_path(lines, 12, 14) == (
        ["spec", "optimizationInstructions", "gangScheduling", "podGroups", 0, "members", 0],
        ["componentName"],
    )
    assert mapping_path(lines, 6, 2) == (["spec"], ["structureDefinition"])


def test_mapping_path_gives_up_inside_a_block_scalar():
    lines = ["spec:", "  expression: |", "    .status", "    "]
    assert mapping_path(lines, 3, 4) is None


def test_schema_walk_reaches_status_mapping_keys_and_gang_members():
    keys = format_schema.properties_at(
        ["spec", "structureDefinition", "rootComponent", "statusDefinition", "statusMappings"]
    )
    assert {"running", "completed", "failed", "initializing", "suspended"} <= set(keys)
    member = format_schema.properties_at(
        ["spec", "optimizationInstructions", "gangScheduling", "podGroups", 0, "members", 0]
    )
    assert member["groupByKeyPaths"]["type"] == "array"
    assert format_schema.schema_at(["spec", "nope"]) is None


def test_jq_word_and_arity():
    expr = '.spec.x | select(.a == "b") | sub("x"; "y") | .length'
    word = jqwords.word_at(expr, expr.index("select") + 2)
    assert word is not None and (word.name, word.arity) == ("select", 1)
    word = jqwords.word_at(expr, expr.index("sub"))
    assert word is not None and (word.name, word.arity) == ("sub", 2)
    assert jqwords.word_at(expr, expr.index("length")) is None  # a field, not the builtin
    assert jqwords.word_at("if . then 1 else 2 end", 1) is None
    text = jqwords.builtin_markdown("keys_unsorted", 0)
    assert text is not None and "gojq has no `keys_unsorted`" in text
    assert jqwords.builtin_markdown("no_such_function", 0) is None


def test_locate_is_iterative_on_deep_nesting():
    from wmaplint.source import MappingNode, ScalarNode

    depth = 10_000
    span = Span(1, 1, 1, 2)
    node: MappingNode | ScalarNode = ScalarNode(span, depth, depth + 1, "v", "v", "plain")
    for level in range(depth - 1, -1, -1):
        key = ScalarNode(span, level, level, "k", "k", "plain")  # empty key span: never "on the key"
        node = MappingNode(span, level, depth + 1, [(key, node)])
    found = locate(node, depth)
    assert found is not None and len(found.pointer) == depth and isinstance(found.value, ScalarNode)


def _disable(text: str, path: str, line: int, is_json: bool = False) -> list[lsp.CodeAction]:
    snapshot = Snapshot(text, path, is_json=is_json)
    diag = lsp.Diagnostic(
        range=lsp.Range(start=lsp.Position(line=line, character=2), end=lsp.Position(line=line, character=4)),
        message="m",
        code="WM301",
        source="wmaplint",
        data={"fixes": []},
    )
    return actions.code_actions(snapshot, "file:///x", [diag])


def test_disable_comment_appends_to_an_existing_suppression():
    text = JOB.replace("      name: job\n", "      name: job  # wmaplint: disable=WM112 -- old\n")
    line = text.splitlines().index("      name: job  # wmaplint: disable=WM112 -- old")
    found = _disable(text, "/tmp/a.yaml", line)
    assert len(found) == 1
    edit = found[0].edit.changes["file:///x"][0]  # type: ignore[union-attr,index]
    assert edit.new_text == "WM112,WM301"


def test_no_disable_comment_inside_a_multiline_scalar_or_in_json():
    text = JOB.replace("'(.status.active // 0) > 0'", "'(.status.active // 0)\n            > 0'")
    line = next(i for i, t in enumerate(text.splitlines()) if "(.status.active // 0)" in t)
    assert _disable(text, "/tmp/a.yaml", line) == []
    assert _disable('{"kind": "Karta"}', "/tmp/a.json", 0, is_json=True) == []


def test_only_definitions_crds_and_suites_are_linted():
    assert is_ours("/x/def.yaml", "yaml", "apiVersion: run.ai/v1alpha1\nkind: Karta\n")
    assert is_ours("/x/def.json", "json", '{"apiVersion": "run.ai/v1alpha1", "kind": "Karta"}')
    assert is_ours("/x/crd.yml", None, "kind: CustomResourceDefinition\n")
    assert is_ours("/x/jobset.test.yaml", "yaml", "definition: ../jobset.yaml\ncases:\n- name: a\n")
    assert not is_ours("/x/deploy.yaml", "yaml", "kind: Deployment\n")
    assert not is_ours("/x/notes.md", "markdown", "kind: Karta\n")
    assert not is_ours("/x/package.json", "json", '{"name": "x", "scripts": {"test": "mocha"}}')
    assert not is_ours("/x/.github/workflows/ci.yml", "yaml", "on: push\njobs:\n  lint: {runs-on: x}\n")
    helm = "{{- if .Values.enabled }}\napiVersion: apps/v1\nkind: Deployment\n{{- end }}\n"
    assert not is_ours("/chart/templates/deploy.yaml", "helm", helm)
    assert not is_ours("/chart/templates/deploy.yaml", "yaml", helm)


def test_related_locations_point_at_files_the_editor_can_open(tmp_path):
    from wmaplint.diagnostics import (
        BUNDLED_SCHEMAS,
        SHIPPED_PACKS,
        Diagnostic,
        RelatedLocation,
        Severity,
    )
    from wmaplint.lsp.convert import to_lsp
    from wmaplint.lsp.uris import from_path
    from wmaplint.shipped_data import shipped

    crd = tmp_path / "crd.yaml"
    crd.write_text("a: 1\nb: '😀x'\n")
    diag = Diagnostic("WM301", Severity.ERROR, "m", "/x/def.yaml", Span(1, 1, 1, 2), related=(
        RelatedLocation(str(crd), Span(2, 6, 2, 7), "declared"),
        RelatedLocation("karta-best-practices.yaml", Span(3, 1, 3, 2), "the rule", base=SHIPPED_PACKS),
        RelatedLocation("ray.io/rayclusters.yaml", Span(9, 1, 9, 2), "packed", base=BUNDLED_SCHEMAS),
    ))
    found = to_lsp(diag, LspPositions("x: 1\n"), "/x/def.yaml", "file:///x/def.yaml", from_path,
                   lambda path: LspPositions(open(path, encoding="utf-8").read()))
    assert [r.location.uri for r in found.related_information or []] == [
        crd.as_uri(), (shipped("packs") / "karta-best-practices.yaml").as_uri()]
    first = (found.related_information or [])[0].location.range
    assert (first.start.line, first.start.character) == (1, 6)  # after the emoji: two UTF-16 units
