"""The Python evaluator of checked CEL against the CEL runtime: on the same values, the same value, or an
error with the same text, or a refusal (Unsupported) that leaves the evaluation to the runtime."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wmaplint.cel.checker import compile_expression
from wmaplint.cel.env import run_env
from wmaplint.cel.evaluate import _runtime_message
from wmaplint.cel.interpret import INT64_MAX, INT64_MIN, EvaluationError, Program, Unsupported, program_of
from wmaplint.cel.plan import plan_of
from wmaplint.packs import run as pack_run
from wmaplint.packs.in_use import packs_for
from wmaplint.rules.examples import JOB, job_with_children
from wmaplint.source import load_text, to_python

REPO = Path(__file__).resolve().parents[2]
VARIABLES = ("self", "root")
UNSUPPORTED = "unsupported"


def canonical(value: Any) -> Any:
    """A value with its CEL type spelled out, so 1, 1.0 and true differ and maps compare in any order."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("double", repr(value))  # nan equals nan here, -0.0 differs from 0.0
    if isinstance(value, str):
        return ("string", value)
    if value is None:
        return ("null",)
    if isinstance(value, list):
        return ("list", tuple(canonical(v) for v in value))
    if isinstance(value, dict):
        return ("map", frozenset((canonical(k), canonical(v)) for k, v in value.items()))
    if isinstance(value, (bytes, bytearray)):
        return ("bytes", bytes(value))
    raise AssertionError(f"not a CEL value: {value!r}")


def runtime_outcome(serialized: bytes, values: dict[str, Any]) -> tuple[str, Any]:
    """What the runtime gives, as rule packs evaluate with it: ("value", v) or ("error", message)."""
    program = run_env(VARIABLES).deserialize(serialized)
    try:
        value = program.eval(data=values)
    except Exception as error:
        return "error", _runtime_message(str(error))
    kind = str(value.type())
    if "ERROR" in kind.upper():
        return "error", _runtime_message(str(value.value()))
    if "UINT" in kind.upper():
        return "value", ("uint", value.value())
    return "value", canonical(value.plain_value())


def interpreted_outcome(program: Program | None, values: dict[str, Any]) -> tuple[str, Any]:
    if program is None:
        return UNSUPPORTED, "no program"
    try:
        return "value", canonical(program.evaluate(values))
    except EvaluationError as error:
        return "error", _runtime_message(error.text)
    except Unsupported as why:
        return UNSUPPORTED, str(why)


def compiled(text: str) -> tuple[bytes, Program | None]:
    result = compile_expression(text, VARIABLES)
    assert result.serialized is not None and result.ast is not None, result.problems
    plan = plan_of(result.ast)
    return result.serialized, program_of(plan, VARIABLES) if plan is not None else None


def agrees(text: str, self_value: Any = None, root: Any = None) -> bool:
    """Whether the interpreter evaluated it (else it refused); if it did, it gave the runtime's outcome."""
    serialized, program = compiled(text)
    values = {"self": self_value, "root": root}
    found = interpreted_outcome(program, values)
    if found[0] == UNSUPPORTED:
        return False
    assert found == runtime_outcome(serialized, values), text
    return True


# ---- (a) the shipped pack on the catalog -------------------------------------------------------------------


def _renamed(data: Any) -> None:
    data["metadata"]["name"] = "renamed"


def _selected_by_labels(data: Any, *keys: str) -> None:
    """Every component's pods selected by these label keys (and one valid key)."""
    structure = data["spec"]["structureDefinition"]
    labels = dict.fromkeys(["app.kubernetes.io/name", *keys], "x")
    for component in [structure["rootComponent"], *structure.get("childComponents", [])]:
        component["podSelector"] = {"componentTypeSelector": {"matchLabels": dict(labels)}}


def _one_gang(data: Any) -> None:
    """Every component a member of one gang, scaled or not."""
    structure = data["spec"]["structureDefinition"]
    names = [structure["rootComponent"]["name"]] + [c["name"] for c in structure.get("childComponents", [])]
    data["spec"]["optimizationInstructions"] = {
        "gangScheduling": {"podGroups": [{"name": "all", "members": [{"componentName": n} for n in names]}]}
    }


VARIANTS = {
    "as shipped": lambda data: None,
    "renamed": _renamed,
    "selected by labels": _selected_by_labels,
    "a label key that is not one": lambda data: _selected_by_labels(data, "Bad Key!"),
    "a label key with a long prefix": lambda data: _selected_by_labels(data, "a" * 254 + "/b"),
    "one gang": _one_gang,
}


def _definitions() -> Iterator[tuple[str, Any]]:
    texts = {path.name: path.read_text() for path in sorted((REPO / "catalog").glob("*.yaml"))}
    texts |= {"job": JOB, "unscaled children": job_with_children(3, scaled=False, selected=False)}
    for name, text in texts.items():
        for document in load_text(text, name).documents:
            if document.root is not None:
                yield name, to_python(document.root)


def pack_evaluations() -> Iterator[tuple[str, Any, Any, Any]]:
    """(what, pack expression, self, root) for every expression of the shipped pack on every node its rule
    selects in the catalog's definitions and variants of them, converted as rule packs convert them."""
    rules, problems = packs_for(None)
    assert rules and not problems
    for name, data in _definitions():
        for variant, change in VARIANTS.items():
            changed = copy.deepcopy(data)
            change(changed)
            cel_root = pack_run._cel_value((), changed)
            for rule in rules:
                root = pack_run._read_part(rule, cel_root)
                for query in rule.givens:
                    for location, value in query.query.finditer(changed):
                        cel_self = pack_run._within(cel_root, location)
                        if cel_self is pack_run._MISSING:
                            cel_self = pack_run._cel_value(location, value)
                        for expression in (rule.assertion, rule.message_program):
                            if expression is not None:
                                what = f"{rule.id} on {name}, {variant}, at {location}"
                                yield what, expression, cel_self, root


def test_the_shipped_pack_evaluates_as_the_runtime_on_every_catalog_definition() -> None:
    seen = set()
    for what, expression, cel_self, root in pack_evaluations():
        assert expression.interpreted is not None, what
        values = {"self": cel_self, "root": root}
        found = interpreted_outcome(expression.interpreted, values)
        assert found == runtime_outcome(expression.serialized, values), what
        seen.add((what.split()[0], found[1][0] if found[0] == "value" else found[0]))
    # every rule ran, and both passing and failing assertions were met
    assert {rule for rule, _ in seen} == {"KBP001", "KBP002", "KBP003"}
    assert {("KBP003", "bool"), ("KBP003", "string"), ("KBP002", "string"), ("KBP001", "string")} <= seen


# ---- (b) a corpus of the constructs the interpreter covers -------------------------------------------------

DATA = {
    "i": 3, "neg": -7, "zero": 0, "d": 1.5, "one": 1.0, "nan": math.nan, "t": True, "f": False, "n": None,
    "s": "héllo wörld", "empty": "", "emoji": "a😀b", "l": [1, 2.0, "x", None, [3]], "ints": [3, 1, 2],
    "m": {"a": 1, "b": {"c": [1, 2]}, "dash-key": "v"}, "labels": {"app": "web", "tier": "db"},
    "max": INT64_MAX, "min": INT64_MIN, "keys": ["a/b", "c", "d.e/f"], "words": ["x", "y"],
}

CORPUS = [
    # literals, variables, selection, has()
    "1", "-1", "1.5", "'s'", "true", "null", "[]", "[1, 'a', [null]]", "{}", "{'a': 1, 'b': [true]}", "self",
    "root", "self.i", "self.m.b.c", "self.m.x", "self.i.x", "self.n.x", "self.l.x", "self.m['dash-key']",
    "has(self.m.a)", "has(self.m.x)", "has(self.m.b.c)", "has(self.i.x)", "has(self.x.y)", "has(self.n)",
    # indexing
    "self.l[0]", "self.l[4][0]", "self.l[5]", "self.l[-1]", "self.l[1.0]", "self.l[1.5]", "self.l['a']",
    "self.l[true]", "self.l[null]", "self.m['a']", "self.m['x']", "self.m[1]", "self.m[true]", "self.m[null]",
    "self.m[[1]]", "self.s[0]", "self.i[0]", "self.n[0]", "self.d[0]", "self.t[0]", "self.m['x\\'y']",
    # logic, with errors absorbed either way round
    "!self.t", "!self.i", "!self.x", "self.t && self.f", "self.f && self.x", "self.x && self.f",
    "self.t || self.x", "self.x || self.t", "self.x || self.f", "self.f || self.x", "self.x && self.y",
    "self.i && self.t", "self.t && self.i", "self.i && self.f", "self.i || self.t", "self.i && self.x",
    "self.x && self.i", "self.t ? 1 : self.x", "self.f ? self.x : 2", "self.x ? 1 : 2", "self.i ? 1 : 2",
    # equality and ordering across kinds
    "self.i == 3", "self.one == 1", "dyn(1) == 1.0", "self.t == 1", "self.n == null", "self.m == null",
    "self.l == [1, 2, 'x', null, [3]]", "self.m.b == {'c': [1.0, 2]}", "self.nan == self.nan",
    "[self.nan] == [self.nan]", "self.nan != self.nan", "-0.0 == 0.0",
    "self.labels == {'tier': 'db', 'app': 'web'}", "self.s == 'héllo'", "self.i < self.d", "self.d > self.i",
    "self.i <= 3", "self.i >= 3.5", "dyn(9007199254740993) > 9007199254740992.0", "self.s < 'z'",
    "self.f < self.t", "self.n < 1", "self.t < 1", "self.l < self.l", "self.nan < 1.0",
    # arithmetic
    "self.i + 4", "self.max + 1", "self.min - 1", "self.max * 2", "-self.min", "-self.i", "-self.d",
    "-self.s", "self.neg / 2", "self.neg % 2", "self.i / self.zero", "self.i % self.zero", "self.min / -1",
    "self.min % -1", "self.d / 0.0", "-self.d / 0.0", "0.0 / 0.0", "self.d * 2.0", "self.d - 0.5",
    "self.i + self.d", "self.s + '!'", "self.s + 1", "self.l + self.ints", "self.i - self.t",
    "dyn(self.d) % dyn(1.0)",
    # in
    "1 in self.l", "2 in self.l", "'x' in self.l", "[3] in self.l", "'a' in self.m", "1 in self.m",
    "null in self.m", "'e' in self.s", "1 in self.i",
    # size and strings
    "size(self.s)", "self.s.size()", "self.emoji.size()", "size(self.l)", "size(self.m)", "size(self.i)",
    "self.s.contains('wö')", "self.s.startsWith('hé')", "self.s.endsWith('d')", "self.i.contains('a')",
    "self.s.lowerAscii()", "'ÀBc'.lowerAscii()", "self.s.upperAscii()", "'  a \\u0085\\u00a0'.trim()",
    "'\\u001ca\\u200b'.trim()", "'a.b.c'.replace('.', '-')", "'a.b.c'.replace('.', '-', 1)",
    "'abc'.replace('', '-')", "'abc'.replace('', '-', 2)", "'abc'.replace('b', '-', 0)", "'a/b/c'.split('/')",
    "'a/b/c'.split('/', 2)", "'a/b/c'.split('/', 0)", "'a/b/c'.split('/', -1)", "'abc'.split('')",
    "'abc'.split('', 2)", "''.split('')", "''.split(',')", "'a,b,'.split(',')", "self.words.join()",
    "self.words.join(', ')", "[].join('-')", "self.l.join()", "self.s.matches('^h.llo')",
    "self.s.matches('w[ö]rld$')", "self.emoji.matches('^a.b$')", "matches(self.s, 'l+')",
    "self.i.matches('a')", "string(self.i) + string(self.t) + string('s')", "dyn(self.m).a",
    # comprehensions
    "self.ints.all(x, x > 0)", "self.ints.all(x, x > 1)", "self.ints.exists(x, x == 2)",
    "self.ints.exists_one(x, x > 1)", "self.ints.map(x, x * 2)", "self.ints.filter(x, x > 1)",
    "self.ints.map(x, x > 1, x * 10)", "self.labels.all(k, self.labels[k].size() > 1)",
    "self.labels.exists(k, k == 'tier')", "self.labels.filter(k, k == 'app')", "self.labels.map(k, k).size()",
    "[0, 1].exists(x, 1 / x > 0)", "[0].exists(x, 1 / x > 0)", "[0, 1].all(x, 1 / x > 0)",
    "[1, 0].all(x, 1 / x < 0)", "[0, 1].exists_one(x, 1 / x > 0)", "[0, 1].map(x, 1 / x)",
    "[0, 1].filter(x, 1 / x > 0)", "self.i.all(x, true)", "self.s.all(c, true)", "self.x.all(y, true)",
    "[5, 6].all(i, v, i < 2 && v > 4)", "self.labels.all(k, v, v.size() == 2 || k == 'app')",
    "self.ints.exists(x, self.ints.exists(x, x == 3))", "self.ints.map(x, self.ints.filter(y, y < x).size())",
    "self.keys.filter(k, !k.contains('/') || k.split('/')[0].size() <= 1)",
    "self.words.map(w, w + '!').join(' ')", "self.m.b.c.map(x, [x]).map(y, y[0])",
]


@pytest.mark.parametrize("text", CORPUS)
def test_a_construct_of_the_subset_evaluates_as_the_runtime(text: str) -> None:
    assert agrees(text, DATA, {"spec": {"x": 1}}), text


@pytest.mark.parametrize("count, expression", [
    (9_999, "self.all(x, true)"), (10_000, "self.all(x, true)"), (10_005, "self.exists(x, x == 9998)"),
    (9_997, "self.all(x, true) && [1, 2].all(x, true)"), (9_998, "self.all(x, true) && [1, 2].all(x, true)"),
    (4_999, "self.all(x, [1].all(y, true))"), (5_000, "self.all(x, [1].all(y, true))"),
    (10_001, "self.all(x, true) || true"), (10_001, "false && self.all(x, true)"),
    (10_000, "self.x + self.map(x, x).size()"), (9_999, "self.map(x, x).size()"),
])
def test_loops_stop_where_the_runtime_stops_them(count: int, expression: str) -> None:
    assert agrees(expression, list(range(count)))


def _nested(depth: int) -> list[Any]:
    outer = inner = []
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return outer


@pytest.mark.parametrize("text, self_value", [
    ("1u", None), ("b'x'", None), ("self.?a", {}), ("[?optional.none()]", None),
    ("timestamp('2024-01-01T00:00:00Z')", None),
    ("int(self)", 1.5), ("string(self)", 1.5), ("self.indexOf('a')", "abc"), ("type(self) == int", 1),
    ("self.matches('(?i)A')", "a"), ("self.matches('[[:alpha:]]')", "a"), ("{1: 'a'}", None),
    ("{'a': 1, 'a': 2}", None), ("self.transformMap(k, v, v)", {"a": 1}), ("quantity(self).isInteger()", "1"),
    ("self.a", {"a": (1, 2)}), ("self.a", {"a": 2**63}), ("self.a", {"a": -(2**63) - 1}), ("self", b"x"),
    ("self.a", {"a": "\ud800"}), ("self.a", {"a": "a\0b"}), ("self", {1: "a"}), ("self['a\"b']", {}),
    ("self['a\\nb']", {}),
    ("self.m[1.5]", {"m": {}}), ("size(self)", _nested(150)),
])
def test_what_is_outside_the_subset_is_left_to_the_runtime(text: str, self_value: Any) -> None:
    assert not agrees(text, self_value, None)


def test_a_list_made_from_a_map_s_keys_has_the_runtime_s_members_in_the_map_s_order() -> None:
    labels = {key: "x" for key in ("zeta", "Bad Key!", "alpha", "b", "1/2/3", "é")}
    text = "self.filter(k, !k.matches('^[a-z]+$')).join(', ')"
    serialized, program = compiled(text)
    values = {"self": labels, "root": None}
    expected, found = runtime_outcome(serialized, values), interpreted_outcome(program, values)
    assert found == ("value", ("string", "Bad Key!, 1/2/3, é"))
    assert sorted(expected[1][1].split(", ")) == sorted(found[1][1].split(", "))


def test_a_malformed_plan_is_refused() -> None:
    for plan in (None, [], ["nope"], ["const"], ["call", "_+_", None, [["const", 1]]], ["ident", "other"],
                 ["select", ["ident", "self"], 1, False], ["const", [1]], ["const", 2**64], ["map", [[1]]]):
        assert program_of(plan, VARIABLES) is None, plan


# ---- (c) generated data ------------------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(INT64_MIN, INT64_MAX),
    st.sampled_from([INT64_MIN, INT64_MAX, -1, 0, 1, 2, 0.0, -0.0, 1.0, math.inf, math.nan]), st.floats(),
    st.text(max_size=6),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=10,
)
ON_ANY_PAIR = [
    "self == root", "self != root", "self < root", "self >= root", "self + root", "self - root",
    "self * root",
    "self / root", "self % root", "self in root", "self[root]", "root[self]", "size(self)", "-self", "!self",
    "self && root", "self || root", "self ? root : self", "has(self.a)", "self.a", "[self, root][1]",
    "{'k': self}.k == root", "self.contains(root)", "self.startsWith(root)", "self.endsWith(root)",
    "self.split(root)", "self.split(root, 2)", "self.replace(root, '-')", "self.lowerAscii()", "self.trim()",
    "self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')", "self.all(x, x == root)", "self.exists(x, x != root)",
    "self.exists_one(x, x == root)", "self.filter(x, x in root).size()", "root.join(self)",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(ON_ANY_PAIR), VALUES, VALUES)
def test_generated_values_evaluate_as_the_runtime(text: str, self_value: Any, root: Any) -> None:
    agrees(text, self_value, root)


LABEL_KEYS = st.text(st.sampled_from("ab-_./A9 é"), max_size=12) | st.sampled_from(["a" * 254 + "/b",
                                                                                      "a" * 64])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(LABEL_KEYS, st.text("xyz", max_size=3), max_size=3))
def test_generated_label_keys_evaluate_as_the_runtime(labels: dict[str, str]) -> None:
    rules, _ = packs_for(None)
    (rule,) = [r for r in rules if r.id == "KBP002"]
    assert rule.message_program is not None
    assertion, message = rule.assertion, rule.message_program

    def both(program: Any, self_value: Any) -> tuple[tuple[str, Any], tuple[str, Any]]:
        values = {"self": self_value, "root": {}}
        return runtime_outcome(program.serialized, values), interpreted_outcome(program.interpreted, values)

    expected, found = both(assertion, labels)
    assert found == expected
    bad = [key for key in labels if both(assertion, {key: labels[key]})[1] == ("value", ("bool", False))]
    expected, found = both(message, labels)
    assert found == ("value", ("string", "not valid label keys: " + ", ".join(bad)))  # in the map's order
    orders = itertools.permutations(bad)  # the runtime iterates a map in an order of its own
    assert expected[1][1] in {"not valid label keys: " + ", ".join(keys) for keys in orders}
