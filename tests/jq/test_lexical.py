"""The lexical layer the editor reads jq text with: strings, interpolations and comments are not code."""

from __future__ import annotations

from wmaplint.jq.lexical import argument_count, closers, in_literal


def test_an_offset_inside_a_string_or_a_comment_is_in_a_literal() -> None:
    text = '.a | "x\\"(.b" # c\n| .d'
    assert not in_literal(text, 0)
    assert in_literal(text, text.index("x"))
    assert in_literal(text, text.index("(.b"))  # the quote before it is escaped
    assert not in_literal(text, text.index(" #"))
    assert in_literal(text, text.index(" c"))
    assert not in_literal(text, text.index("| .d"))


def test_closers_skip_brackets_in_strings_and_comments() -> None:
    assert closers('.a[(.b | "(" # {\n') == ")]"
    assert closers(".a[0] | {x: (.b") == ")}"


def test_arguments_are_counted_at_the_calls_own_depth() -> None:
    text = 'f(.a; g(.b; .c); "x;y")'
    assert argument_count(text, 1) == 3
    assert argument_count(text, text.index("g(") + 1) == 2
