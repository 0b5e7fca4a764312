"""Positioned YAML: spans, YAML faults as findings, hostile input within bounds."""

from __future__ import annotations

import pytest

from wmaplint.diagnostics import Diagnostic
from wmaplint.rules import diagnostics_of
from wmaplint.rules.examples import JOB
from wmaplint.source import InputError, SourceFile, find_node, load_path, load_text, read_path, to_python


def findings(source: SourceFile) -> list[Diagnostic]:
    """The file's faults as the document rules report them."""
    return list(diagnostics_of(source.problems))


def test_spans_of_keys_and_values_are_exact() -> None:
    f = load_text(JOB, "job.yaml")
    node = find_node(f.documents[0].root, ("spec", "structureDefinition", "rootComponent", "scaleDefinition",
                                           "replicasPath"))
    assert node is not None and node.value == ".spec.parallelism // 1"
    line = JOB.splitlines()[node.span.start_line - 1]
    assert line[node.span.start_col - 1:node.span.end_col - 1] == "'.spec.parallelism // 1'"


def test_offsets_inside_quoted_scalars_map_to_file_columns() -> None:
    text = 'a: "select(.x == \\"y\\") | .name"\n'
    node = find_node(load_text(text, "x.yaml").documents[0].root, ("a",))
    start = node.value.index(".name")
    span = node.span_of(start, start + 5)
    assert text.splitlines()[0][span.start_col - 1:span.end_col - 1] == ".name"


def test_offsets_inside_block_scalars_map_to_their_line() -> None:
    text = "a: |\n  .spec\n  | .replicas\n"
    node = find_node(load_text(text, "x.yaml").documents[0].root, ("a",))
    start = node.value.index(".replicas")
    span = node.span_of(start, start + len(".replicas"))
    assert (span.start_line, span.start_col, span.end_col) == (3, 5, 14)


def test_multi_document_files_keep_every_document() -> None:
    f = load_text(JOB + "---\nkind: ConfigMap\n", "x.yaml")
    assert [to_python(d.root).get("kind") for d in f.documents] == ["Karta", "ConfigMap"]


def test_yaml_syntax_error_is_a_positioned_finding() -> None:
    f = load_text("a: [1, 2\nb: 3\n", "x.yaml")
    assert [d.rule for d in findings(f)] == ["WM101"]
    assert findings(f)[0].span.start_line == 2


def test_duplicate_keys_point_at_the_second_with_the_first_related() -> None:
    f = load_text("a: 1\nb: 2\na: 3\n", "x.yaml")
    (d,) = findings(f)
    assert d.rule == "WM102" and d.span.start_line == 3 and d.related[0].span.start_line == 1


def test_alias_bomb_is_refused_quickly() -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev, cur = chr(96 + i), chr(97 + i)
        levels.append(f"{cur}: &{cur} [{', '.join(['*' + prev] * 10)}]")
    f = load_text("\n".join(levels) + "\n", "bomb.yaml")
    assert [d.rule for d in findings(f)] == ["WM103"]


@pytest.mark.parametrize("opening,closing", [("[", "]"), ("{a: ", "}")])
def test_ten_thousand_levels_of_nesting_is_a_finding(opening: str, closing: str) -> None:
    f = load_text("a: " + opening * 10_000 + closing * 10_000 + "\n", "deep.yaml")
    assert [d.rule for d in findings(f)] == ["WM101"]


def test_deep_block_nesting_is_read_without_recursion_errors() -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(300)) + "  " * 300 + "v\n"
    f = load_text(text, "deep.yaml")
    assert f.documents or f.problems


def test_unreadable_inputs_raise_one_line_errors(tmp_path) -> None:
    (tmp_path / "bin.yaml").write_bytes(b"\x00\x01\x02binary")
    (tmp_path / "latin.yaml").write_bytes("name: caf\xe9\n".encode("latin-1"))
    for name, words in (("bin.yaml", "binary"), ("latin.yaml", "UTF-8"), ("missing.yaml", "no such file")):
        with pytest.raises(InputError) as info:
            read_path(tmp_path / name)
        assert words in str(info.value) and "\n" not in str(info.value)


def test_huge_files_are_refused_before_reading(tmp_path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    with pytest.raises(InputError, match="limit"):
        read_path(big)


def test_empty_file_has_no_documents(tmp_path) -> None:
    (tmp_path / "empty.yaml").write_text("")
    f = load_path(tmp_path / "empty.yaml")
    assert f.documents == [] and f.problems == []


def test_yaml_11_booleans_resolve_like_kubernetes() -> None:
    root = load_text("a: yes\nb: 'yes'\nc: 1\nd: null\n", "x.yaml").documents[0].root
    assert to_python(root) == {"a": True, "b": "yes", "c": 1, "d": None}
