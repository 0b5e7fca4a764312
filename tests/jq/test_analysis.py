"""Analysis by role: each rule on realistic definition expressions, with exact positions and fixes."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import wmaplint.rules.jq
from wmaplint.diagnostics import RULES
from wmaplint.jq.parser import parse
from wmaplint.jq.result_kinds import infer_result_kind
from wmaplint.jq.roles import ExprRole
from wmaplint.rules import expression_findings as analyze

SCALE = ExprRole("replicasPath", "root", "per-instance", has_instances=True)
SCALE_SINGLE = ExprRole("replicasPath", "root", "per-instance")
IDS = ExprRole("instanceIdPath", "root", "instance-ids", has_instances=True)
SPEC = ExprRole("podTemplateSpecPath", "root", "per-instance", writable=True, has_instances=True)
POD_ID = ExprRole("idPath", "pod", "one")
PHASE = ExprRole("path", "root", "first")


def rules_of(text: str, role: ExprRole) -> list[str]:
    return [f.rule for f in analyze(text, role)]


def test_rayjob_alternative_over_stream_with_fix() -> None:
    text = ".spec.rayClusterSpec.workerGroupSpecs[].replicas // 1"
    (finding,) = analyze(text, SCALE)
    assert finding.rule == "WM220"
    assert text[finding.start : finding.end] == "//"
    assert finding.replacement == ".spec.rayClusterSpec.workerGroupSpecs[]? | (.replicas // 1)"
    assert analyze(finding.replacement, SCALE) == []


def test_alternative_fix_inside_larger_expression() -> None:
    text = "(.a[].x // 1) * 2"
    (finding,) = analyze(text, SCALE)
    assert finding.replacement == "((.a[]? | (.x // 1))) * 2"


@pytest.mark.parametrize(
    "text",
    [
        ".a // 1",
        ".a[]? | (.x // 1)",
        "[.a[]] | length",
        "any(.a[]; . > 1)",
        ".spec.replicatedJobs[].name",
        "[.a[].x // 1] | length > 0 | not | not | if . then 1 else 2 end",
    ],
)
def test_no_cardinality_finding_on_safe_forms(text: str) -> None:
    assert [r for r in rules_of(text, SCALE) if r in ("WM220", "WM221")] == [] or "[" in text


def test_count_changing_filters_are_warned_for_per_instance_paths() -> None:
    text = '.spec.components[] | .podTemplate.spec.containers[] | select(.name == "main")'
    (finding,) = analyze(text, SCALE)
    assert finding.rule == "WM221" and text[finding.start : finding.end] == "select"
    assert rules_of(".a[] | (.b[0] // 1)", SCALE) == []
    assert rules_of("first(.a[])", SCALE) == ["WM221"]
    assert rules_of(".a[].x, .b", SCALE) == ["WM221"]


def test_iteration_in_single_instance_component() -> None:
    (finding,) = analyze(".spec.workers[].replicas", SCALE_SINGLE)
    assert finding.rule == "WM222" and (finding.start, finding.end) == (13, 15)
    assert rules_of(".spec.workers[0].replicas", SCALE_SINGLE) == []
    assert rules_of("[.spec.workers[].replicas] | add", SCALE_SINGLE) == []


def test_one_and_first_roles() -> None:
    assert rules_of('.metadata.labels["a"], .metadata.labels["b"]', POD_ID) == ["WM222"]
    assert rules_of('.metadata.labels["a"] // .metadata.labels["b"]', POD_ID) == []
    assert rules_of(".status.conditions[].type", PHASE) == ["WM223"]
    assert rules_of("first(.status.conditions[].type)", PHASE) == []


def test_write_paths() -> None:
    text = ".spec.template as $t | $t.cliques[]"
    (finding,) = analyze(text, SPEC)
    assert finding.rule == "WM230" and text[finding.start : finding.end] == "$t"
    assert "Invalid path expression" in finding.message
    for bad in (
        "{spec: .spec}",
        "[.spec]",
        '"1"',
        ".a + 1",
        '"\\(.a)"',
        "reduce .[] as $x (.; .)",
        "$__loc__",
        ".a | tostring",
        "-.a",
        "last(.a[])",
    ):
        assert "WM230" in rules_of(bad, SPEC), bad
    for good in (
        ".spec.template",
        ".a // .b",
        ".a[] | select(.b)",
        "if .a then .b else .c end",
        ". as $x | .a",
        "first(.a[])",
        'getpath(["a"])',
        "def f: .a; f",
        ".a?",
        "try .a",
        "label $l | .a",
    ):
        assert "WM230" not in rules_of(good, SPEC), good


def test_selector_precedence_with_replacement() -> None:
    role = ExprRole("keyPath", "pod", "stream", selector_value="worker")
    text = '.metadata.labels["a"] // .metadata.labels.b'
    (finding,) = analyze(text, role)
    assert finding.rule == "WM235" and finding.replacement == f"({text})"
    assert analyze(f"({text})", role) == []
    assert rules_of(".a and .b", role) == ["WM235"]
    assert rules_of(".a // .b", ExprRole("keyPath", "pod", "stream")) == []
    assert rules_of("(.a) // .b", role) == ["WM235"]  # parentheses around one operand only


@pytest.mark.parametrize(
    "key_path",
    [
        '.metadata.labels | .["training.kubeflow.org/replica-type"]',  # a pipe: the last part is compared
        ".metadata as $m | $m.labels.role",
        "def role: .metadata.labels.role; role",
        "label $out | .metadata.labels.role",
        "(.metadata.labels.role // .metadata.labels.type)",
        ".metadata.labels.role # the role label\n",
        "if .metadata.labels.role then .metadata.labels.role else .metadata.labels.type end",
        "reduce .metadata.labels.role as $r (null; $r)",
        "try .metadata.labels.role",
    ],
)
def test_selector_forms_that_keep_their_meaning_with_the_appended_comparison(key_path: str) -> None:
    """The runtime builds the text `<keyPath> == "worker"` (FORMAT.md §2.7): a pipe, an `as` binding, a `def`
    or a `label` at the top compares their last part, whose outputs are the keyPath's."""
    key_path = key_path.replace("\\n", "\n")
    assert rules_of(key_path, ExprRole("keyPath", "pod", "stream", selector_value="worker")) == []


@pytest.mark.parametrize(
    ("key_path", "says", "replacement"),
    [
        (
            ".metadata.labels.role, .metadata.labels.type",
            "top-level `,`",
            "(.metadata.labels.role, .metadata.labels.type)",
        ),
        (
            ".metadata | .labels.role // .labels.type",
            "top-level `//`",
            "(.metadata | .labels.role // .labels.type)",
        ),
        ('.metadata.labels.role == "worker"', "does not parse", None),
        (".metadata.labels.role and .metadata.labels.type", "top-level `and`", None),
        ('.metadata.labels.role // "x" # role\n', "`//`", '(.metadata.labels.role // "x" # role\n)'),
        ('.metadata.labels.role // "x" # role \\\n\n', "`//`", '(.metadata.labels.role // "x" # role \\ \n)'),
    ],
)
def test_selector_forms_that_change_meaning(key_path: str, says: str, replacement: str | None) -> None:
    role = ExprRole("keyPath", "pod", "stream", selector_value="worker")
    (finding,) = analyze(key_path, role)
    assert finding.rule == "WM235" and says in finding.message
    assert finding.replacement == replacement
    if replacement is not None:
        assert analyze(replacement, role) == []


_COMPARED = ExprRole("keyPath", "pod", "stream", selector_value="worker")


@pytest.mark.parametrize(
    ("text", "role", "says"),
    [
        (".metadata.labels.role # role", _COMPARED, "no pod matches"),
        (".metadata.labels.role # role \\", _COMPARED, "no pod matches"),
        ("(.status.active // 0) > 0  # running", ExprRole("expression", "root", "first"), "does not parse"),
        (".spec.suspend  # flag", ExprRole("path", "root", "one", writable=True), "the write does not parse"),
        (".spec.replicatedJobs[]?.template.spec.template # pods", SPEC, "`[path(<path>)] as $paths"),
    ],
)
def test_a_trailing_comment_swallows_what_the_runtime_adds(text: str, role: ExprRole, says: str) -> None:
    """The runtime runs `(<byExpression>) | tostring` and `<keyPath> == <value>` (FORMAT.md §2.5, §2.7), and
    writes through `(<path>) = $val` or `[path(<path>)] as $paths | ...` (upstream runner.go)."""
    (finding,) = analyze(text, role)
    assert finding.rule == "WM236" and says in finding.message
    assert text[finding.start] == "#" and finding.end == len(text)
    assert finding.replacement == text + " \n" and analyze(finding.replacement, role) == []
    assert analyze(text, ExprRole("keyPath", "pod", "stream")) == []  # nothing appended: nothing swallowed


def test_label_break_first_and_limit_one_bound_the_first_output() -> None:
    """`first(f)` is `label $l | f | ., break $l` in gojq's builtins; both, and `limit(1; f)`, yield one
    output."""
    ready = '.status.conditions[] | select(.type == "Ready")'
    for text in (
        f"label $out | {ready} | .status, break $out",
        'label $out | (.status.conditions[] | if .type == "Ready" then .status, break $out else empty end)',
        f"first({ready} | .status)",
        f"limit(1; {ready} | .status)",
    ):
        assert rules_of(text, PHASE) == [], text
    assert rules_of(f"label $out | {ready} | .status, .reason, break $out", PHASE) == ["WM223"]
    assert rules_of(f"label $out | {ready} | .status", PHASE) == ["WM223"]  # no break: every output
    assert rules_of(f"limit(2; {ready} | .status)", PHASE) == ["WM223"]
    (finding,) = analyze("label $out | .spec.groups[] | .replicas, break $out", SCALE)
    assert finding.rule == "WM221" and "`label $out` stops at the first output" in finding.message


def test_module_metadata_is_not_a_module_load() -> None:
    """gojq compiles a query's `module {...};` metadata away; only `import` and `include` need a loader."""
    assert rules_of('module {name: "status"}; .status.phase', PHASE) == []
    (finding,) = analyze('include "status"; .status.phase', PHASE)
    assert finding.rule == "WM206" and 'cannot load module: "status"' in finding.message


@pytest.mark.parametrize(
    ("text", "expected", "suggestion"),
    [
        ("(.status.active // 0) > 0", "True", "true"),
        (".spec.suspend | not", "yes", "true"),
        (".status.conditions | length", "1.0", "1"),
        ("[.a[]] | length > 0", "0", "false"),
    ],
)
def test_expected_result_mismatch(text: str, expected: str, suggestion: str) -> None:
    role = ExprRole("expression", "root", "first", expected_result=expected)
    (finding,) = analyze(text, role)
    assert finding.rule == "WM240" and finding.data == {"suggestions": [suggestion]}


def test_expected_result_accepts_matching_text() -> None:
    for text, expected in [
        ("(.status.active // 0) > 0", "true"),
        (".status.phase", "Running"),
        (".status.succeeded // 0", "1"),
        (".a | length", "3"),
        ("1.5", "1.5"),
    ]:
        assert analyze(text, ExprRole("expression", "root", "first", expected_result=expected)) == []


def test_infer_result_kind() -> None:
    cases = {
        ".a == 1": "boolean",
        "length": "number",
        '"x\\(.a)"': "string",
        "null": "null",
        "[.a]": "array",
        "{a: 1}": "object",
        ".a": "any",
        "if .a then true else false end": "boolean",
        "any(.a[]; .)": "boolean",
        '.a | test("x")': "boolean",
        "(.a // 0) + 1": "number",
        ".a | tostring": "string",
        "def f: 1; f": "number",
    }
    for text, kind in cases.items():
        assert infer_result_kind(parse(text)) == kind, text


def test_compile_checks_messages_and_positions() -> None:
    role = ExprRole("path", "root", "stream")
    (finding,) = analyze(".metadata | keys_unsorted", role)
    assert finding.rule == "WM202" and (finding.start, finding.end) == (12, 25)
    assert "sorted key order" in finding.message
    (finding,) = analyze(".status | lenght", role)
    assert finding.data == {"suggestions": ["length"]}
    (finding,) = analyze(". as $item | $itme", role)
    assert finding.rule == "WM203" and finding.data == {"suggestions": ["$item"]}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # the unclosed bracket is where the finding is placed: its position is said once
        ("(.status.active // 0 > 0", "`(` at 1:1 has no `)`"),
        # the token is elsewhere than the bracket it should close: both positions are said
        ("(.a ]", "unexpected `]`, expected `)` (for `(` at 1:1) (at 1:5)"),
        (".a | &", "unexpected `&`: jq spells logical and as `and` (at 1:6)"),
    ],
)
def test_syntax_error_names_each_position_once(text: str, message: str) -> None:
    (finding,) = analyze(text, ExprRole("path", "root", "stream"))
    assert (finding.rule, finding.message) == ("WM201", message)


def test_denied_constructs_everywhere() -> None:
    role = ExprRole("path", "root", "stream")
    for text in (
        ". as $x | del(.a)",
        "label $l | del(.a)",
        "[.a[] | range(1)]",
        "def f: walk(.); 1",
        '"\\(paths)"',
        "{a: (.b |= 1)}",
        "reduce .[] as $x (0; recurse)",
        "try repeat(.) catch 1",
        "-(.a = 1)",
        ".[del(.a)]",
    ):
        assert "WM210" in rules_of(text, role), text


def test_never_raises_on_hostile_input() -> None:
    role = ExprRole("path", "root", "first", writable=True, selector_value="x", expected_result="y")
    for text in ("(" * 10000, ".a" * 10000, "\x00", '"\\u', "def f: f; f", "def f: f | .; f"):
        for finding in analyze(text, role):
            assert 0 <= finding.start <= finding.end <= len(text)


def test_every_rule_is_documented_in_range() -> None:
    modules = pkgutil.iter_modules(wmaplint.rules.jq.__path__)
    ours = [importlib.import_module(f"wmaplint.rules.jq.{m.name}").RULE for m in modules]
    assert len(ours) >= 14
    for rule in ours:
        assert 201 <= int(rule.id[2:]) <= 259 and RULES[rule.id] is rule
        assert rule.bad != rule.good and "kind: Karta" in rule.bad
