"""Offsets inside YAML scalars: every decoded character points back at the file position that produced it."""

from __future__ import annotations

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from wmaplint.source.scalars import LineIndex, decode_with_offsets

BREAKS = "\r\n\x85\u2028\u2029"


def scalar_nodes(text: str) -> list[yaml.ScalarNode]:
    found: list[yaml.ScalarNode] = []
    for document in yaml.compose_all(text, Loader=yaml.CSafeLoader):
        stack = [document] if document is not None else []
        while stack:
            node = stack.pop()
            if isinstance(node, yaml.ScalarNode):
                found.append(node)
            elif isinstance(node, yaml.MappingNode):
                for key, value in node.value:
                    stack.extend((key, value))
            else:
                stack.extend(node.value)
    return found


def decode(text: str, node: yaml.ScalarNode) -> tuple[str, list[int]]:
    return decode_with_offsets(text, node.start_mark.index, node.end_mark.index, node.style)


def check_all_nodes(text: str) -> list[tuple[str, list[int]]]:
    """Decode every scalar of `text` and assert the properties that hold for any YAML input."""
    results = []
    for node in scalar_nodes(text):
        value, offsets = decode(text, node)
        assert value == node.value
        assert len(offsets) == len(value) + 1
        assert all(a < b for a, b in zip(offsets, offsets[1:-1], strict=False)), "offsets must increase"
        assert offsets[-1] <= node.end_mark.index
        if value:
            assert offsets[0] >= node.start_mark.index
            assert offsets[-1] > offsets[-2]
        for ch, at in zip(value, offsets, strict=False):
            source = text[at]
            if source == ch:
                continue
            if node.style == '"' and source == "\\":
                continue  # produced by an escape sequence
            assert source in BREAKS, f"{ch!r} at {at} comes from {source!r}"
            assert ch in " \n\u2028\u2029", f"a line break produced {ch!r}"
        results.append((value, offsets))
    return results


def value_node(text: str, value: str) -> yaml.ScalarNode:
    matches = [node for node in scalar_nodes(text) if node.value == value]
    assert len(matches) == 1, f"expected exactly one scalar {value!r}"
    return matches[0]


def where(text: str, value: str, fragment: str, occurrence: int = 0) -> tuple[int, int]:
    """(line, column) of the first character of `fragment` inside the scalar whose value is `value`."""
    decoded, offsets = decode(text, value_node(text, value))
    assert decoded == value
    at = -1
    for _ in range(occurrence + 1):
        at = decoded.index(fragment, at + 1)
    return LineIndex(text).position(offsets[at])


def positions(text: str, value: str) -> list[tuple[int, int]]:
    decoded, offsets = decode(text, value_node(text, value))
    index = LineIndex(text)
    return [index.position(at) for at in offsets]


# --- property tests -------------------------------------------------------------------------------

SPECIAL = list("'\"\\ \t\n#:-?|>&*!%@{}[],`/") + [
    ": ", " #", "\\n", "''", "\r", "\x85", "\u2028", "\u2029", "\ufeff", "é", "\u00a0",
    "😀", "\U0010fffd", "\x07", "\x1b",
]
texts = st.lists(
    st.one_of(st.sampled_from(SPECIAL), st.characters(exclude_categories=("Cs",)),
              st.text(alphabet="ab .[]|", min_size=1, max_size=6)),
    max_size=40,
).map("".join)
styles = st.sampled_from([None, "'", '"', "|", ">"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=texts, style=styles, width=st.integers(4, 60), indent=st.integers(2, 9),
       unicode=st.booleans(), crlf=st.booleans(), shape=st.sampled_from(["map", "nested", "seq", "root"]))
def test_dumped_block_documents_round_trip(value, style, width, indent, unicode, crlf, shape):
    data = {"map": {"key": value}, "nested": {"outer": {"inner": [value, {"k": value}]}},
            "seq": [[value]], "root": value}[shape]
    text = yaml.dump(data, default_style=style, width=width, indent=indent, allow_unicode=unicode,
                     default_flow_style=False)
    if crlf:
        text = text.replace("\n", "\r\n")
    check_all_nodes(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=texts, style=styles, width=st.integers(4, 60), margin=st.integers(0, 12),
       unicode=st.booleans(), crlf=st.booleans())
def test_dumped_scalars_embedded_in_flow_and_indented_blocks(value, style, width, margin, unicode, crlf):
    flow = yaml.dump([value], default_style=style, width=width, allow_unicode=unicode,
                     default_flow_style=True)
    block = yaml.dump({"k": value}, default_style=style, width=width, allow_unicode=unicode,
                      default_flow_style=False)
    pad = " " * margin
    indented = "".join(pad + line if line.strip() else line for line in block.splitlines(keepends=True))
    text = (f"top:\n{pad} flow: {{a: {flow.strip()}, b: y}}\n{pad} seq: {flow.strip()}\n"
            f"{pad} block:\n{indented}")
    if crlf:
        text = text.replace("\n", "\r\n")
    try:
        scalar_nodes(text)
    except yaml.YAMLError:
        assume(False)
    check_all_nodes(text)


# --- hand-written cases ---------------------------------------------------------------------------

def test_plain_jq_expression():
    text = "spec:\n  instanceIdPath: .spec.replicatedJobs[] | .name  # ids\n"
    assert where(text, ".spec.replicatedJobs[] | .name", "|") == (2, 42)
    assert where(text, ".spec.replicatedJobs[] | .name", ".name") == (2, 44)
    node = value_node(text, ".spec.replicatedJobs[] | .name")
    assert decode(text, node)[1][-1] == text.index("  # ids")


def test_single_quoted_label_path():
    text = "keyPath: '.metadata.labels[\"a/b\"]'\n"
    assert where(text, '.metadata.labels["a/b"]', "a/b") == (1, 29)
    assert where(text, '.metadata.labels["a/b"]', ".metadata") == (1, 11)


def test_single_quote_doubling_points_at_the_first_quote():
    text = "expr: '.a == ''x'' and .b'\n"
    value = ".a == 'x' and .b"
    assert positions(text, value)[6] == (1, 14)
    assert where(text, value, "x") == (1, 16)
    assert where(text, value, "'", 1) == (1, 17)
    assert where(text, value, ".b") == (1, 24)


def test_double_quoted_escaped_quotes():
    text = 'expression: "select(.x == \\"y\\")"\n'
    value = 'select(.x == "y")'
    assert where(text, value, '"') == (1, 27)  # the backslash of \"
    assert where(text, value, "y") == (1, 29)
    assert where(text, value, ")") == (1, 32)
    assert decode(text, value_node(text, value))[1][-1] == text.index('"\n')


def test_every_double_quoted_escape():
    source = r'"\t\u00e9\U0001F600\x41\/\ \_\N\L\P\\\"\0\a\b\v\f\r\e\n|"'
    text = f"e: {source}\n"
    value, offsets = decode(text, value_node(text, yaml.safe_load(text)["e"]))
    assert value == "\té😀A/ \xa0\x85\u2028\u2029\\\"\x00\x07\x08\x0b\x0c\r\x1b\n|"
    assert all(text[at] == "\\" for at in offsets[:-2])  # each character comes from its escape
    assert offsets[:5] == [4, 6, 12, 22, 26]
    assert text[offsets[-2]] == "|"
    assert offsets[-1] == text.index('"\n')


def test_astral_characters_count_as_one_column():
    text = "a: '😀 .x'\nb: \"\\U0001F600.y\"\n"
    assert where(text, "😀 .x", ".x") == (1, 7)
    assert where(text, "😀.y", ".y") == (2, 15)


def test_escaped_line_breaks_join_without_space():
    text = 'expr: "first\\\n   second\\\n\n  third"\n'
    value = "firstsecond\nthird"
    assert where(text, value, "second") == (2, 4)
    assert where(text, value, "\n") == (3, 1)  # the blank line's break
    assert where(text, value, "third") == (4, 3)


def test_escaped_whitespace_before_a_fold_is_kept():
    text = 'e: "a\\ \t \n  b"\n'
    assert yaml.safe_load(text)["e"] == "a  b"
    assert positions(text, "a  b")[:4] == [(1, 5), (1, 6), (1, 10), (2, 3)]


def test_plain_multi_line_folding():
    text = "path: .spec\n  | .a   \n\n\n  | .b\n"
    value = ".spec | .a\n\n| .b"
    got = positions(text, value)
    assert got[5] == (1, 12)  # folded space: the line break after .spec
    assert got[6] == (2, 3)
    assert got[10] == (3, 1) and got[11] == (4, 1)  # blank lines become newlines
    assert got[12] == (5, 3)
    assert got[-1] == (5, 7)


def test_quoted_multi_line_folding_drops_edge_whitespace():
    text = "q: '  .a  \n    | .b \t\n\n    | .c  '\n"
    value = "  .a | .b\n| .c  "
    got = positions(text, value)
    assert got[0] == (1, 5)
    assert got[4] == (1, 11)  # fold at the first break
    assert got[5] == (2, 5)
    assert got[9] == (3, 1)
    assert got[10] == (4, 5)
    assert got[-1] == (4, 11)


def test_literal_block_jq_program():
    text = (
        "statusMappings:\n"
        "  running:\n"
        "  - byExpression:\n"
        "      expression: |  # a jq program\n"
        "        .status.replicatedJobsStatus as $s\n"
        "        | ($s | map(.active) | add) > 0\n"
        "      expectedResult: \"true\"\n"
    )
    value = ".status.replicatedJobsStatus as $s\n| ($s | map(.active) | add) > 0\n"
    assert where(text, value, ".status") == (5, 9)
    assert where(text, value, "\n") == (5, 43)
    assert where(text, value, "map") == (6, 17)
    node = value_node(text, value)
    assert decode(text, node)[1][-1] == text.index("      expectedResult")


def test_indentation_indicator_relative_to_enclosing_block():
    cases = {
        "key: |2\n    indented\n  x\n": "  indented\nx\n",
        "- |1\n  x\n": " x\n",
        "- a: |1\n    x\n": " x\n",
        "- - |2\n     x\n": " x\n",
        "a:\n  |1\n   x\n": "  x\n",
        "--- |1\n  x\n": " x\n",
        "top:\n  deep: >-2\n      more\n    folded\n    text\n": "  more\nfolded text",
        "a: |+1\n  x\n\n": " x\n\n",
    }
    for text, value in cases.items():
        assert yaml.safe_load(text) in (value, {"key": value}, [value], [{"a": value}], [[value]],
                                        {"a": value}, {"top": {"deep": value}})
        (decoded, offsets), = [r for r in check_all_nodes(text) if r[0] == value]
        assert text[offsets[0]] == decoded[0]


def test_indentation_indicator_with_leading_spaces_line():
    text = "a: |1\n   \n  x\n"
    assert yaml.safe_load(text) == {"a": "  \n x\n"}
    assert positions(text, "  \n x\n")[:3] == [(2, 2), (2, 3), (2, 4)]


def test_chomping_indicators():
    body = "  x\n\n  y\n\n\n"
    expected = {"|": "x\n\ny\n", "|-": "x\n\ny", "|+": "x\n\ny\n\n\n", ">": "x\ny\n", ">-": "x\ny",
                ">+": "x\ny\n\n\n"}
    for header, value in expected.items():
        text = f"a: {header}\n{body}b: 1\n"
        assert yaml.safe_load(text)["a"] == value
        got = positions(text, value)
        assert got[0] == (2, 3)
        assert got[value.index("y")] == (4, 3)
        if header.endswith("+"):
            assert got[-2] == (6, 1) and got[-1] == (7, 1)


def test_folded_block_keeps_breaks_around_more_indented_lines():
    text = "f: >\n  a\n  b\n\n  c\n    code\n  d\n"
    value = "a b\nc\n  code\nd\n"
    assert yaml.safe_load(text)["f"] == value
    got = positions(text, value)
    assert got[1] == (2, 4)  # folded space
    assert got[3] == (4, 1)  # b's own break is dropped; the blank line's break is the newline
    assert got[value.index("  code")] == (6, 3)
    assert got[value.rindex("d")] == (7, 3)


def test_block_header_comment_and_empty_blocks():
    text = "a: |  # comment\n  x\nb: |\nc: >+\n\n\nd: 1\n"
    nodes = {node.value: node for node in scalar_nodes(text)}
    assert decode(text, nodes["x\n"]) == ("x\n", [18, 19, 20])
    for node in scalar_nodes(text):
        value, offsets = decode(text, node)
        assert value == node.value
    empty = [n for n in scalar_nodes(text) if n.style == "|" and n.value == ""][0]
    assert decode(text, empty) == ("", [text.index("c: >+")])


def test_crlf_positions_match_lf_positions():
    documents = [
        "a: .spec\n  | .a\n\n  | .b\n",
        "a: '.x\n\n  ''y'''\n",
        'a: "p\\\n  q\n\n  r\\ty"\n',
        "a: |\n  .x\n\n  | .y\n",
        "a: >-\n  .x\n\n  | .y\n    z\n  w\n",
    ]
    for lf in documents:
        crlf = lf.replace("\n", "\r\n")
        value = yaml.safe_load(lf)["a"]
        assert yaml.load(crlf, Loader=yaml.CSafeLoader)["a"] == value
        assert positions(crlf, value) == positions(lf, value)
        check_all_nodes(crlf)


def test_flow_mapping_scalars():
    text = "spec: {a: '.x | .y', b: .z, c: \"\\t\", d: multi\n   line}\n"
    assert where(text, ".x | .y", "|") == (1, 15)
    assert where(text, ".z", ".z") == (1, 25)
    assert where(text, "\t", "\t") == (1, 33)
    assert positions(text, "multi line")[5] == (1, 46)
    assert where(text, "multi line", "line") == (2, 4)


def test_anchors_and_tags_are_skipped():
    text = "a: &x !!str .a | .b\nb: !!str\n  # note\n  '.c'\nc: !!str\n"
    assert where(text, ".a | .b", "|") == (1, 16)
    assert where(text, ".c", ".c") == (4, 4)
    empty = [n for n in scalar_nodes(text) if n.value == ""][0]
    assert decode(text, empty) == ("", [empty.end_mark.index])


def test_empty_scalars():
    text = "a:\nb: ''\nc: \"\"\n"
    results = check_all_nodes(text)
    assert ("", [text.index("''") + 1]) in results
    assert ("", [text.index('""') + 1]) in results


def test_line_separator_in_single_quotes_is_kept():
    text = "a: 'x \u2028\u2028 y'\n"
    value, offsets = decode(text, value_node(text, "x\u2028\u2028y"))
    assert offsets == [4, 6, 7, 9, 10]


def test_invalid_input_raises_value_error():
    with pytest.raises(ValueError):
        decode_with_offsets("a: 'open", 3, 8, "'")
    with pytest.raises(ValueError):
        decode_with_offsets('a: "\\q"', 3, 7, '"')
    with pytest.raises(ValueError):
        decode_with_offsets('a: "\\uD800"', 3, 11, '"')
    with pytest.raises(ValueError):
        decode_with_offsets('a: "\\x4"', 3, 8, '"')
    with pytest.raises(ValueError):
        decode_with_offsets("a: x", 3, 4, "?")
    with pytest.raises(ValueError):
        decode_with_offsets("a: x", 3, 10, None)
    with pytest.raises(ValueError):
        decode_with_offsets("a: x", 3, 4, "|")
    with pytest.raises(ValueError):
        decode_with_offsets("a: 'x' 'y'", 3, 10, "'")


def test_large_scalar_decodes_whole():
    line = ".spec.replicatedJobs[] | select(.name == \\\"w\\\") | .replicas  "
    words = [line] * (1_000_000 // len(line))
    text = 'big: "' + "\n  ".join(words) + '"\n'
    node = value_node(text, yaml.load(text, Loader=yaml.CSafeLoader)["big"])
    value, offsets = decode(text, node)
    assert value == node.value and len(value) > 900_000
    assert text[offsets[-2]] == " " and offsets[-1] == text.index('"\n')


# --- LineIndex ------------------------------------------------------------------------------------

def test_line_index_breaks():
    text = "ab\ncd\r\nef\rgh\n\n😀x"
    index = LineIndex(text)
    assert index.position(0) == (1, 1)
    assert index.position(2) == (1, 3)  # the LF itself ends line 1
    assert index.position(3) == (2, 1)
    assert index.position(5) == (2, 3) and index.position(6) == (2, 4)
    assert index.position(7) == (3, 1)
    assert index.position(10) == (4, 1)
    assert index.position(13) == (5, 1)
    assert index.position(14) == (6, 1) and index.position(15) == (6, 2)
    assert index.position(len(text)) == (6, 3)
    assert index.line_count == 6
    for at in range(len(text) + 1):
        line, column = index.position(at)
        assert index.index(line, column) == at or text[at - 1:at + 1] == "\r\n"


def test_line_index_rejects_outside_indices():
    index = LineIndex("abc")
    with pytest.raises(ValueError):
        index.position(4)
    with pytest.raises(ValueError):
        index.position(-1)
    with pytest.raises(ValueError):
        index.index(2, 1)
    assert index.index(1, 99) == 3


def test_indentation_indicator_in_nested_and_later_documents():
    text = (
        "spec:\n"
        "  items: [a, b]   # flow before\n"
        "  nested:\n"
        "    - name: x\n"
        "      program: |2\n"
        "           .a\n"
        "          | .b\n"
        "---\n"
        "- k: v\n"
        "  more: >1-\n"
        "     .c\n"
        "    .d\n"
    )
    first = "   .a\n  | .b\n"
    second = "  .c\n .d"
    assert list(yaml.safe_load_all(text)) == [
        {"spec": {"items": ["a", "b"], "nested": [{"name": "x", "program": first}]}},
        [{"k": "v", "more": second}],
    ]
    check_all_nodes(text)
    assert where(text, first, ".a") == (6, 12)
    assert where(text, first, "|") == (7, 11)
    assert where(text, second, ".c") == (11, 6)
    assert where(text, second, ".d") == (12, 5)
