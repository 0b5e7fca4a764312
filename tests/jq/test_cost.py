"""The cost estimate (wmaplint.jq.cost) where it answers each subtree's questions once: deep chains, a
generator on the left of a pipe with a variable read far to the right, nested binds, and variables sized by
what they are bound to (a size kept for a subtree read with no variable bound must not stand for it with
one)."""

from __future__ import annotations

import math

import pytest

from wmaplint.jq.cost import growth, is_generator, pair_terms
from wmaplint.jq.parser import parse
from wmaplint.jq.runtime import MAX_EXPRESSION_LENGTH, JqRuntime, _cost, _guarded_cost, refusal, scan_names

PIPES = " | ".join([".a[]"] * 100)


@pytest.mark.parametrize(
    ("text", "grows", "single"),
    [
        (PIPES, 1.0, False),  # a hundred iterations in a row: each element is part of the input
        (f"{PIPES} | $x", math.inf, False),  # the variable once per element
        (f".x as $x | {PIPES} | $x", math.inf, False),
        (f".x as $x | [{PIPES}] | $x", 3.0, True),  # collected into one array first: read once
        (".x as $x | .a[] | " + " | ".join([".b"] * 100) + " | [$x]", math.inf, False),  # read 101 pipes on
        (".x as $x | .a[] | " + " | ".join([".b"] * 100), 2.0, False),  # never read after the iteration
        ("(" * 40 + ".a[]" + " | $v)" * 40, math.inf, False),  # pipes nested on the left
        ("(" * 40 + ".a[]" + " | .b)" * 40, 1.0, False),
        ("[.,.,.] as $v | [$v, $v]", 13.0, True),  # $v is 4 (the array), twice, in an array: 4 + 1 + 8
        (".a as $a | .b as $b | .c as $c | [$a, $b, $c]", 7.0, True),
        ("(1, 2) as $x | [$x, .]", 10.0, False),  # the body twice, on the whole input
        (".a[] as $x | [$x, .]", math.inf, False),  # the body once per element of the data
        ("if .a then .b end", 2.0, True),  # no else: the input as it is
        ("first(.a[])", 2.0, True),
        ("any(.a[]; .b)", 3.0, True),
    ],
)
def test_growth_and_one_output(text: str, grows: float, single: bool) -> None:
    tree = parse(text)
    # asked one after another of one tree (the answers kept for it), and of a tree seen afresh
    assert (growth(tree), is_generator(tree), growth(tree)) == (grows, not single, grows)
    assert growth(parse(".other")) == 1.0
    assert is_generator(tree) is not single and growth(tree) == grows


def test_a_long_chain_of_subtractions_pairs_each_step() -> None:
    # each step's left side is every step before it: 149 fields, then 148, ... down to `.a - .a`
    tree = parse(" - ".join([".a"] * 150))
    assert growth(tree) == 150.0
    pairs = pair_terms(tree)
    assert len(pairs) == 149
    field = frozenset({("a",)})
    assert pairs[0] == (149.0, field)
    assert pairs[1] == (148.0, field)
    assert pairs[-1] == (field, field)


def test_a_long_chain_of_computed_indexes() -> None:
    tree = parse(".a" + "[.b]" * 150)
    assert growth(tree) == 151.0
    pairs = pair_terms(tree)
    assert len(pairs) == 150
    assert pairs[0] == (150.0, frozenset({("b",)}))
    assert pairs[-1] == (frozenset({("a",)}), frozenset({("b",)}))
    # indexes that generate: each output is one element, unless the indexed value is a variable's, read
    # again for every index
    assert growth(parse(".a" + "[.b[]]" * 20)) == 21.0
    assert growth(parse(".x as $x | $x" + "[.b[]]" * 20)) == math.inf
    assert growth(parse(".x as $x | $x[.b]" + "[.b]" * 20 + "[.b[]]")) == math.inf


def test_variables_bound_in_nested_binds_are_sized_by_their_values() -> None:
    tree = parse(".spec.a as $a | .spec.b as $b | $a - $b")
    assert growth(tree) == 4.0
    assert pair_terms(tree) == ((frozenset({("spec", "a")}), frozenset({("spec", "b")})),)
    assert pair_terms(parse('(.s / "") as $s | $s - $s')) == ((6.0, 6.0),)
    tree = parse("(.a // 1) as $a | (.b // 1) as $b | $a * $b")
    assert growth(tree) == math.inf
    assert growth(tree, guarded=True) == 8.0  # 2 + 2 + ($a * $b guarded: 2 + 2)
    assert pair_terms(tree, guarded=True) == ()
    assert growth(tree) == math.inf  # the guarded estimate kept apart from the other


def test_the_names_scanned_once_give_what_each_scan_gives() -> None:
    for text in (".spec.replicas // 1", "env.HOME", "$ENV.PATH", "[limit(3; repeat(1))]", ".a * .b",
                 "input"):
        names = scan_names(text)
        assert refusal(text, names) == refusal(text)
        assert _cost(text, names) == _cost(text)
        assert _guarded_cost(text, names) == _guarded_cost(text)
    runtime = JqRuntime()
    assert runtime._info("env.HOME").error == refusal("env.HOME") is not None
    assert runtime._info("." * (MAX_EXPRESSION_LENGTH + 1)).error == (
        f"expression longer than {MAX_EXPRESSION_LENGTH} characters")
    info = runtime._info(".a * .b")
    assert info.error is None and info.form is not None and info.growth == 2.0


@pytest.mark.parametrize(
    ("bound", "inline"),
    [
        ('(.s / "") as $s | (.t / "") as $t | $s | indices($t)', '(.t / "") as $t | (.s / "") | indices($t)'),
        ("[.a, .a, .a, .a] as $s | $s | contains(.b)", "[.a, .a, .a, .a] | contains(.b)"),
        ("[.a, .a, .a] as $s | [$s, $s] - .b", "[[.a, .a, .a], [.a, .a, .a]] - .b"),
        ("[.a, .a, .a] as $s | $s[] as $e | $e - .b", ".b as $b | [.a, .a, .a][] | . - $b"),
    ],
)
def test_a_variable_compares_as_many_pairs_as_the_value_it_stands_for(bound: str, inline: str) -> None:
    # a variable on a pipe's left (or inside an operand) once counted as a constant: the bound said a sixth
    # of the pairs `indices` compares, so a program six times over the budget ran where nothing stops it
    def pairs(text: str) -> float:  # as multiples of the input's size squared, a value read from it as 1
        sizes = [[o if isinstance(o, float) else 1.0 for o in term] for term in pair_terms(parse(text))]
        return sum(one * other for one, other in sizes)

    assert pairs(bound) >= pairs(inline) > 1.0


def test_the_runtime_counts_the_pairs_a_bound_variable_compares() -> None:
    from wmaplint.jq.runtime import IN_PROCESS_PAIRS, JqInput, _pairs

    # `$s` is 64 copies of .s split into characters: 19,200 elements each searched for .t's 10 (indices of
    # an array is a search for a sub-array), about 192,000 pairs
    text = '([' + ", ".join(["(.s / \"\")"] * 64) + '] | add) as $s | .t as $t | $s | indices($t)'
    doc = JqInput({"s": "x" * 300, "t": ["a"] * 10})
    assert _pairs(pair_terms(parse(text)), doc.value, len(doc.text)) > IN_PROCESS_PAIRS
    assert not JqRuntime()._runs_here(JqRuntime()._info(text), doc, doc.text)
