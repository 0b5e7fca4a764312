"""The expression corpus (tests/jq/corpus.txt) and generated programs, cross-checked with C jq where the
dialects agree."""

from __future__ import annotations

import itertools
from pathlib import Path

import jq as cjq
import pytest

from wmaplint.diagnostics import RULES, Severity
from wmaplint.jq import ast as jqast
from wmaplint.jq.parser import JqSyntaxError, parse
from wmaplint.jq.roles import ExprRole
from wmaplint.rules import expression_findings as analyze

CORPUS = Path(__file__).with_name("corpus.txt")
NEUTRAL = ExprRole(field="path", context="root", cardinality="stream")

# Syntax gojq accepts and C jq 1.8 rejects (or the reverse); GOJQ.md §4.
GOJQ_ONLY_SYNTAX = {
    '"\\ud800"',
    "+1",
    "+.",
    ".a.[1:]",
    "def f: .;",
    '. as {"x": $v, (.k): $w} | $v, $w',
}
C_JQ_ONLY_SYNTAX = {
    "def true: .; .",
    "def m::f: .; .",
    "reduce . as $x ?// $y (0; 1)",
    '{@base64 "k": 1}',
}
# Builtins whose availability differs (gojq-only: compile errors in C jq 1.8; C-jq-only: WM202 here).
GOJQ_ONLY_BUILTINS = {"@urid", "toboolean", "getpath(", "ltrimstr", "gamma", "pick"}
# Lines C jq cannot compile for reasons outside the dialect difference (unbound module, input without input).
C_JQ_COMPILE_DIFFERENT = {
    "import",
    "include",
    "module",
    "input",
    "$__loc__",
    "$ENV",
    "halt",
    "debug",
    "stderr",
}


def corpus_entries() -> list[tuple[str, str, tuple[str, ...]]]:
    entries = []
    for raw in CORPUS.read_text(encoding="utf-8").splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        verdict, _, rest = raw.partition("\t")
        expr, _, rules = rest.partition("\t")
        entries.append((verdict, expr, tuple(rules.split()) if rules else ()))
    return entries


ENTRIES = corpus_entries()


def test_corpus_is_large_enough() -> None:
    assert len(ENTRIES) >= 300
    assert len({e[1] for e in ENTRIES}) == len(ENTRIES), "duplicate expressions"


@pytest.mark.parametrize(("verdict", "expr", "rules"), ENTRIES, ids=[repr(e[1])[:60] for e in ENTRIES])
def test_corpus_entry(verdict: str, expr: str, rules: tuple[str, ...]) -> None:
    findings = analyze(expr, NEUTRAL)
    found = {f.rule for f in findings}
    if verdict == "accept":
        parse(expr)  # must not raise
        errors = {f.rule for f in findings if RULES[f.rule].severity == Severity.ERROR}
        assert set(rules) <= found, findings
        assert errors <= set(rules), findings
    else:
        expected = verdict.split()[1]
        assert expected in found, findings


def _c_jq_accepts(expr: str) -> bool:
    try:
        cjq.compile(expr)
        return True
    except ValueError:
        return False


def _comparable(expr: str, rules: tuple[str, ...]) -> bool:
    if expr in GOJQ_ONLY_SYNTAX or expr in C_JQ_ONLY_SYNTAX:
        return False
    if any(word in expr for word in GOJQ_ONLY_BUILTINS | C_JQ_COMPILE_DIFFERENT):
        return False
    return not set(rules) & {"WM202", "WM203", "WM204", "WM205", "WM206"}


@pytest.mark.parametrize(("verdict", "expr", "rules"), ENTRIES, ids=[repr(e[1])[:60] for e in ENTRIES])
def test_corpus_agrees_with_c_jq(verdict: str, expr: str, rules: tuple[str, ...]) -> None:
    if not _comparable(expr, rules) or (verdict != "accept" and verdict != "reject WM201"):
        pytest.skip("dialects differ here (listed above) or not a parse verdict")
    assert _c_jq_accepts(expr) == (verdict == "accept")


def test_listed_dialect_differences_hold() -> None:
    for expr in GOJQ_ONLY_SYNTAX - {"def f: .;"}:
        parse(expr)
    for expr in C_JQ_ONLY_SYNTAX:
        with pytest.raises(JqSyntaxError):
            parse(expr)
        assert _c_jq_accepts(expr), expr


# --- generated programs: constructs combined, checked for parse, span sanity and C jq agreement -------------

ATOMS = [
    ".",
    ".a",
    ".a.b",
    ".a[0]",
    ".a[]?",
    '.["x"]',
    "1",
    '"s"',
    "null",
    "$v",
    "[.a]",
    "{a: .b}",
    "length",
    "(.a // 1)",
    '"x\\(.a)"',
]
BINARY = ["|", ",", "//", "and", "or", "==", "<", "+", "-", "*"]
WRAPPERS = [
    "[{}]",
    "({})",
    "{{k: ({})}}",
    "try {}",
    "if {} then . else {} end",
    "{}?",
    "first({})",
    "reduce .[] as $x (0; {})",
    "label $l | {}",
    "def f: {}; f",
    "{} as $w | $w",
    '"<\\({})>"',
    "[{}] | length",
    "select({})",
]


def generated_programs() -> list[str]:
    programs = []
    for left, op, right in itertools.product(ATOMS[:8], BINARY, ATOMS[6:12]):
        programs.append(f"{left} {op} {right}")
    for wrapper, atom in itertools.product(WRAPPERS, ATOMS):
        programs.append(wrapper.replace("{}", atom))
    return [f". as $v | {p}" for p in programs]


GENERATED = generated_programs()


def _check_spans(text: str, node: jqast.Node) -> None:
    for n in jqast.walk(node):
        assert 0 <= n.start <= n.end <= len(text), n
        for child in jqast.children(n):
            if not isinstance(n, (jqast.Bind,)):
                assert n.start <= child.start and child.end <= n.end, (n, child)


def test_generated_programs_parse_like_c_jq() -> None:
    assert len(GENERATED) > 300
    disagreements = []
    for program in GENERATED:
        try:
            node = parse(program)
            ours = True
        except JqSyntaxError:
            ours = False
        else:
            _check_spans(program, node)
        if ours != _c_jq_accepts(program):
            disagreements.append(program)
    # C jq 1.8 and gojq share the precedence ladder; the only expected differences are none here.
    assert disagreements == []
