"""Parser: tree shapes, spans, precedence and positioned errors."""

from __future__ import annotations

import sys

import pytest

from wmaplint.jq import ast as jqast
from wmaplint.jq.parser import EXACT_DIGITS, JqSyntaxError, parse
from wmaplint.jq.roles import ExprRole
from wmaplint.rules import expression_findings as analyze


def test_field_chain_keeps_each_segment_span() -> None:
    text = ".spec.replicatedJobs[].name"
    node = parse(text)
    assert isinstance(node, jqast.Field) and node.name == "name"
    it = node.target
    assert isinstance(it, jqast.Iterate) and text[it.seg_start : it.end] == "[]"
    jobs = it.target
    assert isinstance(jobs, jqast.Field) and text[jobs.name_start : jobs.name_end] == "replicatedJobs"
    assert isinstance(jobs.target, jqast.Field) and jobs.target.target is None


@pytest.mark.parametrize(
    ("text", "shape"),
    [
        (".a = .b // 1", "Binary(//)<Assign(=)>"),
        (".a // .b = 1", "Binary(//)<_,Assign(=)>"),
        ("1, 2 // 3", "Comma<_,Binary(//)>"),
        (".a // .b | .c", "Pipe<Binary(//)>"),
        ("1 + 2 as $x | -$x", "Bind<Binary(+)>"),
        ("1, 2 as $x | $x", "Comma<_,Bind>"),
        ("1, def f: 2; f | .+1", "Comma<_,FuncDef>"),
        ("try 1 catch 2 + 10", "Binary(+)<Try>"),
        ("-.a[0].b + 5", "Binary(+)<Neg>"),
        ("a, b | c", "Pipe<Comma>"),
    ],
)
def test_precedence(text: str, shape: str) -> None:
    node = parse(text)
    assert _shape(node, shape.count("<")) == shape


def _shape(node: jqast.Node, depth: int) -> str:
    name = type(node).__name__
    if isinstance(node, (jqast.Binary, jqast.Assign)):
        name += f"({node.op})"
    if depth == 0:
        return name
    kids = jqast.children(node)
    if not kids:
        return name
    inner = [_shape(kids[0], depth - 1)]
    if len(kids) > 1 and isinstance(kids[0], (jqast.Literal, jqast.FuncCall, jqast.Field)) and depth:
        inner = ["_", _shape(kids[1], 0)]
    return f"{name}<{','.join(inner)}>"


def test_optional_covers_only_last_suffix() -> None:
    node = parse(".a.b?")
    assert isinstance(node, jqast.Field) and node.optional and not node.target.optional  # type: ignore[union-attr]
    assert isinstance(parse("(.a.b)?"), jqast.Optional)
    assert isinstance(parse(".a??"), jqast.Optional)


def test_string_interpolation_and_format() -> None:
    node = parse('@base64 "x\\(.a)y"')
    assert isinstance(node, jqast.StringInterp) and node.format == "base64"
    assert node.parts[0] == "x" and isinstance(node.parts[1], jqast.Field) and node.parts[2] == "y"
    assert parse('"\\ud83d\\ude00"') == jqast.Literal(0, 14, "😀")
    assert parse('"\\ud800"').value == "\ufffd"  # type: ignore[attr-defined]


def test_object_entry_kinds() -> None:
    node = parse('{a, $b, "c", (.d): 1, if: 2, "e\\(1)": 3}')
    assert isinstance(node, jqast.ObjectCons)
    assert [e.key_kind for e in node.entries] == ["ident", "var", "string", "expr", "ident", "string"]
    assert [e.value is None for e in node.entries] == [True, True, True, False, False, False]


@pytest.mark.parametrize(
    ("text", "message", "span"),
    [
        ("if . then 1", "`if` at 1:1 has no `end`", (0, 2)),
        ("(.a", "`(` at 1:1 has no `)`", (0, 1)),
        (".a)", "nothing to close", (2, 3)),
        ('"abc', "unterminated string", (0, 4)),
        ('"\\u12"', "invalid escape sequence", (1, 6)),
        (".a?//1", "`?//`", (2, 5)),
        ("1 < 2 < 3", "cannot be chained", (6, 7)),
        ("f()", "unexpected `)`", (2, 3)),
        (".a |\n  ]", "unexpected `]`", (7, 8)),
    ],
)
def test_errors_are_positioned(text: str, message: str, span: tuple[int, int]) -> None:
    with pytest.raises(JqSyntaxError) as info:
        parse(text)
    assert message in info.value.message
    assert (info.value.start, info.value.end) == span


@pytest.mark.parametrize(
    "text",
    [
        "(" * 10000 + "." + ")" * 10000,
        "[" * 10000,
        ".a" * 10000,
        "1+" * 10000 + "1",
        ".|" * 10000 + ".",
        "try " * 10000 + "1",
        '"\\(' * 5000,
        "-" * 10000 + "1",
        "{a:" * 5000,
        ". as " + "[" * 5000,
    ],
)
def test_hostile_depth_is_a_positioned_error(text: str) -> None:
    with pytest.raises(JqSyntaxError) as info:
        parse(text)
    assert "too deep" in info.value.message
    assert 0 <= info.value.start <= info.value.end <= len(text)


def test_megabyte_string_parses() -> None:
    text = '"' + "x" * 1_000_000 + '"'
    assert parse(text).end == len(text)  # type: ignore[union-attr]
    with pytest.raises(JqSyntaxError) as info:
        parse('"' + "x" * 1_000_000 + "\\u00")
    assert info.value.start == 1_000_001


def test_comment_continuation() -> None:
    node = parse(".a # c \\\n .b\n| .c")  # the continued comment swallows ` .b`
    assert isinstance(node, jqast.Pipe)
    assert [n.name for n in jqast.walk(node) if isinstance(n, jqast.Field)] == ["a", "c"]
    assert isinstance(parse(".a # c \\\\\n| .c"), jqast.Pipe)


def test_parses_are_cached_and_immutable() -> None:
    assert parse(".a.b") is parse(".a.b")
    with pytest.raises(AttributeError):
        parse(".a.b").name = "x"  # type: ignore[misc]


def test_walk_is_iterative_and_in_source_order() -> None:
    node = parse(".a | .b, .c")
    fields = [n.name for n in jqast.walk(node) if isinstance(n, jqast.Field)]
    assert fields == ["a", "b", "c"]


def test_integer_literals_of_any_length_parse() -> None:
    """gojq reads integer literals as exact integers of any size (GOJQ.md §1); Python refuses to convert more
    than 4,300 digits, so the longest literals keep their magnitude only."""
    exact = "9" * EXACT_DIGITS
    assert parse(exact).value == int(exact)  # type: ignore[union-attr]
    assert parse("000012").value == 12  # type: ignore[union-attr]
    huge = "1" + "0" * 5000
    node = parse(f".x == {huge}")
    assert isinstance(node, jqast.Binary)
    assert node.right == jqast.Literal(6, 6 + len(huge), sys.float_info.max)
    assert parse("0" * 5000 + "7").value == 7  # type: ignore[union-attr]
    assert parse("1e400").value == sys.float_info.max  # type: ignore[union-attr]


_BY_EXPRESSION = ExprRole("expression", "root", "first", expected_result="true")


@pytest.mark.parametrize(
    ("expression", "role"),
    [
        (f"(.status.active // 0) > 1{'0' * 5000}", _BY_EXPRESSION),
        (f'.status.phase == "Running" or .status.active == 1{"0" * 4000}', _BY_EXPRESSION),
        (f".spec.parallelism // 1{'0' * 5000}", ExprRole("replicasPath", "root", "per-instance")),
    ],
)
def test_huge_integer_literals_are_analysed(expression: str, role: ExprRole) -> None:
    assert analyze(expression, role) == []
