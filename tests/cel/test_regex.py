"""CEL's ``matches`` without the runtime: every pattern of the subset answers as RE2 in the runtime does,
every other one is refused, and matching takes time linear in the text."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wmaplint.cel.checker import compile_expression
from wmaplint.cel.env import run_env
from wmaplint.cel.regex import compile_pattern

LABEL_KEY = (
    "^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}"
    "[A-Za-z0-9])?$"
)


def runtime_matches(text: str, pattern: str) -> Any:
    """The runtime's answer: True, False, or the text of its error (a pattern RE2 refuses)."""
    compiled = compile_expression("self.matches(root)", ("self", "root"))
    assert compiled.serialized is not None
    program = run_env(("self", "root")).deserialize(compiled.serialized)
    try:
        found = program.eval(data={"self": text, "root": pattern}).value()
    except RuntimeError as error:  # a lone surrogate does not even reach RE2
        return str(error)
    return found if isinstance(found, bool) else str(found)


def assert_agrees(pattern: str, texts: list[str]) -> bool:
    """Whether the pattern is in the subset; if it is, it answers as the runtime on every text."""
    compiled = compile_pattern(pattern)
    for text in texts:
        expected = runtime_matches(text, pattern)
        if compiled is not None:
            assert compiled.search(text) is expected, (pattern, text, expected)
    return compiled is not None


TEXTS = ["", "a", "ab", "abc", "a\nb", "ab\n", "\n", "é", "x{", "a-b_c.d/e", " \t", "\v", "]", "-", "aaaa",
         "\\"]


@pytest.mark.parametrize("pattern", [
    "", "a", "^a", "a$", "^$", "$^", "^ab$", "a.b", ".", "^.$", "a|b", "x|", "|x", "a||b", "()", "(?:)",
    "(a|ab)$", "a*", "a+", "a?", "a*?", "a+?", "a??", "a{2}", "a{0}", "a{1,}", "a{0,2}", "(ab){2}", "(a*)*b",
    "(|a)+", "[ab]", "[^a]", "[a-c]", "[]a]", "[a-]", "[-a]", "[^]]", "[.]", "[é-ü]", "\\d", "\\D", "\\w",
    "\\W", "\\s", "\\S", "[\\d]", "[\\s]", "[\\w-]", "\\.", "\\-", "\\\\", "\\ ", "\\_", "\\n", "\\t", "\\v",
    "(x{10}){100}", "x{1000}", LABEL_KEY,
])
def test_a_pattern_of_the_subset_answers_as_the_runtime(pattern: str) -> None:
    assert assert_agrees(pattern, TEXTS)


@pytest.mark.parametrize("pattern", [
    # what RE2 refuses: the runtime's error is the answer
    "(", ")", "*", "a**", "a*+", "x{2,1}", "a{1001}", "(x{11}){100}", "[z-a]", "\\8", "[a-\\d]",
    # what RE2 reads its own way, or this module does not read
    "(?i)a", "(?P<n>a)", "\\pL", "\\b", "\\A", "\\z", "\\Q.\\E", "\\x{41}", "[[:alpha:]]", "a{,2}", "x{", "{",
    "]", "}", "^*", "[a-c-e]", "[\\D]", "\ud800",
])
def test_a_pattern_outside_the_subset_is_refused(pattern: str) -> None:
    assert not assert_agrees(pattern, ["a", "x{"])


@pytest.mark.parametrize("pattern, text", [
    ("(a*)*b", "a" * 20_000),
    ("(a|aa)*c", "a" * 20_000),
    ("(x+x+)+y", "x" * 20_000),
    (LABEL_KEY, "a" * 5_000 + "/"),
])
def test_matching_takes_linear_time_where_backtracking_would_not_end(pattern: str, text: str) -> None:
    compiled = compile_pattern(pattern)
    assert compiled is not None
    started = time.perf_counter()
    assert compiled.search(text) is False
    assert time.perf_counter() - started < 2.0


def test_a_pattern_whose_states_explode_gives_no_answer_rather_than_taking_long() -> None:
    pattern = "a(a|b){12}$"  # the 13th character from the end: thousands of DFA states on a random text
    compiled = compile_pattern(pattern)
    assert compiled is not None
    chooser = random.Random(3)
    short = "".join(chooser.choice("ab") for _ in range(300))
    long = "".join(chooser.choice("ab") for _ in range(20_000)) + "b" + "a" * 12
    assert compiled.search(short) is runtime_matches(short, pattern)
    started = time.perf_counter()
    assert compiled.search(long) is None
    assert time.perf_counter() - started < 2.0


_ATOMS = ["a", "b", ".", "\\d", "\\w", "\\s", "\\W", "[ab]", "[^a]", "[a-c]", "[]a]", "[-a]", "\\.", "é", "^",
          "$", "\\n", "[\\w-]", "-", "/", " ", "(?i)", "\\b", "]", "{", "[[:alpha:]]", "\\pL", "[z-a]"]
_REPEATS = ["", "", "", "*", "+", "?", "*?", "+?", "{2}", "{0,2}", "{1,}", "{0}", "{,2}", "{2,1}", "**"]


def _patterns() -> st.SearchStrategy[str]:
    atoms = st.builds(lambda atom, repeat: atom + repeat, st.sampled_from(_ATOMS), st.sampled_from(_REPEATS))
    return st.recursive(
        st.lists(atoms, max_size=4).map("".join),
        lambda inner: st.one_of(
            st.builds(lambda kind, part, repeat: f"({kind}{part}){repeat}",
                      st.sampled_from(["", "?:", "?P<n>"]), inner, st.sampled_from(_REPEATS)),
            st.builds(lambda left, right: f"{left}|{right}", inner, inner),
            st.lists(inner, min_size=2, max_size=3).map("".join),
        ),
        max_leaves=8,
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.lists(st.text("ab.-_/ \n\té1]{}|\\", max_size=8), min_size=1, max_size=4))
def test_generated_patterns_answer_as_the_runtime_or_are_refused(pattern: str, texts: list[str]) -> None:
    assert_agrees(pattern, texts)
