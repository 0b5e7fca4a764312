"""Every fix, on every way of writing the value it changes, yields a file that parses, holds exactly the
intended value, keeps every other byte and is fixed for good.

Each case is a definition with one value (or key) written by the test in a style hypothesis picks: plain,
single- or double-quoted (also folded over two lines), literal or folded block scalars with every chomping and
indentation indicator, in a block or a flow collection, with or without an anchor and a tag, with LF or CR LF
line ends. The case names what the fix must make of it.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from wmaplint.config import Overrides
from wmaplint.diagnostics import RULES
from wmaplint.engine import Options, lint_text
from wmaplint.fixes import apply_edits
from wmaplint.rules import examples
from wmaplint.rules.examples import JOB, POD
from wmaplint.source import MappingNode, ScalarNode, find_node, load_text, to_python
from wmaplint.source.scalars import skip_properties

MARK = "@@"

FAN_OUT = ".spec.replicatedJobs[].template.spec.parallelism"
FAN_OUT_FIXED = ".spec.replicatedJobs[]? | (.template.spec.parallelism // 1)"
SELECTOR = '.metadata.labels["training.kubeflow.org/replica-type"] // .metadata.labels.role'

# The jq rules' examples, with a replicas path that fans out, a gang, and a keyPath with a fallback.
JOBSET = examples.JOBSET.replace(
    "'.spec.replicatedJobs[]? | (.template.spec.parallelism // 1)'", f"'{FAN_OUT}'", 1
) + """\
  optimizationInstructions:
    gangScheduling:
      podGroups:
      - name: jobset
        members:
        - componentName: replicatedjob
          groupByKeyPaths: ['.metadata.labels["jobset.sigs.k8s.io/jobset-name"]']
"""
MPIJOB = examples.MPIJOB.replace(f"'{SELECTOR.split(' //')[0]}'", f"'{SELECTOR}'", 1)
assert FAN_OUT in JOBSET and SELECTOR in MPIJOB, "the jq rules' examples changed"

# A small CRD of our own, so a schema-path fix is tested without any schema beside the repository.
WIDGET_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              template: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
"""

JOB_RUNNING = ("          running: [{byExpression: {expression: '(.status.active // 0) > 0', "
               'expectedResult: "true"}}]\n')

WIDGET = JOB.replace("metadata: {name: batch-job-v1}", "metadata: {name: example-com-widget-v1}").replace(
    "kind: {group: batch, version: v1, kind: Job}", "kind: {group: example.com, version: v1, kind: Widget}"
).replace(JOB_RUNNING, "")

FLOW_ROOT = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: batch-job-v1}
spec:
  structureDefinition:
    rootComponent: {name: job, ownerRef: @@, kind: {group: batch, version: v1, kind: Job},
      specDefinition: {podTemplateSpecPath: .spec.template},
      scaleDefinition: {replicasPath: '.spec.parallelism // 1'},
      statusDefinition: {
        conditionsDefinition: {path: .status.conditions, typeFieldName: type, statusFieldName: status},
        statusMappings: {completed: [{byConditions: [{type: Complete, status: "True"}]}],
          failed: [{byConditions: [{type: Failed, status: "True"}]}]}}}
"""

WITH_REASONS = JOB.replace("statusFieldName: status}", "statusFieldName: status, reasonFieldName: reason}")


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def _block_conditions(text: str, status: str, entry: str, new_entry: str) -> str:
    """A statusMappings entry's one byConditions entry, as block collections and with other contents."""
    old = f"          {status}: [{{byConditions: [{{{entry}}}]}}]\n"
    items = [item.strip() for item in new_entry.split(",")]
    lines = [f"          {status}:\n", "          - byConditions:\n", f"            - {items[0]}\n"]
    lines += [f"              {item}\n" for item in items[1:]]
    return _swap(text, old, "".join(lines))


@dataclass(frozen=True)
class Case:
    """A definition with ``MARK`` where the written value goes, the value, and what the fix makes of it."""

    rule: str
    template: str
    old: str
    new: str
    target: tuple[str | int, ...]  # key path of the value, or of the mapping whose key is renamed
    key: bool = False  # the target is a key (renamed) rather than a value
    margins: bool = False  # the value may carry a block scalar's final line breaks (jq: whitespace is free)
    typed: bool = False  # the old value is not a string (a boolean to quote): plain only, no tag
    also: dict[tuple[str | int, ...], str] = field(default_factory=dict)  # other values the fix sets
    expected_text: Callable[[str, str, str], str] | None = None  # for fixes that add or remove pairs
    crds: bool = False


ROOT = ("spec", "structureDefinition", "rootComponent")
CHILD = ("spec", "structureDefinition", "childComponents", 0)
RAY_WORKER = ("spec", "structureDefinition", "childComponents", 1)
RAY_WORKERS = ".spec.rayClusterSpec.workerGroupSpecs"
MAPPINGS = (*ROOT, "statusDefinition", "statusMappings")
MEMBER = ("spec", "optimizationInstructions", "gangScheduling", "podGroups", 0, "members", 0, "componentName")
REPLICAS = (*ROOT, "scaleDefinition", "replicasPath")
CHILD_REPLICAS = (*CHILD, "scaleDefinition", "replicasPath")
SELECTOR_PATH = (*CHILD, "podSelector", "componentTypeSelector", "keyPath")
CONDITION = (*MAPPINGS, "failed", 0, "byConditions", 0)
RUNNING = (*MAPPINGS, "running", 0, "byExpression", "expression")
COMMENTED = "(.status.active // 0) > 0  # pods are running"
def _remove_line(text: str, written: str, nl: str) -> str:
    # the lines of the pair go; a blank line a kept block scalar ends with stays
    return _swap(text, f"      ownerRef: {written.rstrip(nl)}{nl}", "")


def _remove_flow_pair(text: str, written: str, nl: str) -> str:
    return _swap(text, f", ownerRef: {written}", "")


def _add_field_names(text: str, written: str, nl: str) -> str:
    added = "typeFieldName: type, statusFieldName: status"
    return _swap(text, f"{{path: {written}}}", f"{{path: {written}, {added}}}")


CASES = {
    "WM104-legacy-kind": Case(
        "WM104", _swap(_swap(JOB, "kind: Karta", f"kind: {MARK}"), "run.ai/v1alpha1",
                       "optimization.nvidia.com/v1alpha1"),
        "ResourceInterface", "Karta", ("kind",), also={("apiVersion",): "run.ai/v1alpha1"}),
    "WM105-api-version": Case("WM105", _swap(JOB, "apiVersion: run.ai/v1alpha1", f"apiVersion: {MARK}"),
                              "run.ai/v1", "run.ai/v1alpha1", ("apiVersion",)),
    "WM110-quote-flow": Case(
        "WM110", _swap(JOB, 'expectedResult: "true"', f"expectedResult: {MARK}"), "true", "true",
        (*MAPPINGS, "running", 0, "byExpression", "expectedResult"), typed=True),
    "WM110-quote-block": Case(
        "WM110", _swap(JOB, JOB_RUNNING, "          running:\n          - byExpression:\n"
                       "              expression: '(.status.active // 0) > 0'\n"
                       f"              expectedResult: {MARK}\n"),
        "true", "true", (*MAPPINGS, "running", 0, "byExpression", "expectedResult"), typed=True),
    "WM112-rename-block-key": Case(
        "WM112", _swap(JOB, "      specDefinition:", f"      {MARK}:"), "specDefiniton", "specDefinition",
        ROOT, key=True),
    "WM112-rename-flow-key": Case(
        "WM112", _swap(JOB, "typeFieldName: type", f"{MARK}: type"), "typeFieldNam", "typeFieldName",
        (*ROOT, "statusDefinition", "conditionsDefinition"), key=True),
    "WM220-alternative-block": Case(
        "WM220", _swap(JOBSET, f"scaleDefinition: {{replicasPath: '{FAN_OUT}'}}",
                       f"scaleDefinition:\n        replicasPath: {MARK}"),
        f"{FAN_OUT} // 1", FAN_OUT_FIXED, CHILD_REPLICAS, margins=True),
    "WM220-alternative-flow": Case(
        "WM220", _swap(JOBSET, f"'{FAN_OUT}'", MARK), f"{FAN_OUT} // 1", FAN_OUT_FIXED, CHILD_REPLICAS,
        margins=True),
    "WM235-precedence-block": Case(
        "WM235", _swap(MPIJOB, f"'{SELECTOR}'", MARK), SELECTOR, f"({SELECTOR})", SELECTOR_PATH,
        margins=True),
    "WM235-precedence-flow": Case(
        "WM235", _swap(MPIJOB, f"        componentTypeSelector:\n          keyPath: '{SELECTOR}'\n"
                       "          value: worker\n",
                       f"        componentTypeSelector: {{keyPath: {MARK}, value: worker}}\n"),
        SELECTOR, f"({SELECTOR})", SELECTOR_PATH, margins=True),
    "WM236-trailing-comment-flow": Case(
        "WM236", _swap(JOB, "expression: '(.status.active // 0) > 0'", f"expression: {MARK}"), COMMENTED,
        COMMENTED + " \n", RUNNING),
    "WM236-trailing-comment-block": Case(
        "WM236", _swap(JOB, JOB_RUNNING, "          running:\n          - byExpression:\n"
                       f"              expression: {MARK}\n"
                       '              expectedResult: "true"\n'),
        COMMENTED, COMMENTED + " \n", RUNNING),
    "WM301-schema-path-flow": Case(
        "WM301", _swap(WIDGET, "'.spec.parallelism // 1'", MARK), ".spec.replicaz // 1",
        ".spec.replicas // 1", REPLICAS, margins=True, crds=True),
    "WM301-schema-path-block": Case(
        "WM301", _swap(WIDGET, "{replicasPath: '.spec.parallelism // 1'}", f"\n        replicasPath: {MARK}"),
        ".spec.replicaz // 1", ".spec.replicas // 1", REPLICAS, margins=True, crds=True),
    "WM305-replicas-default": Case(
        "WM305", _swap(WIDGET, "{replicasPath: '.spec.parallelism // 1'}", f"\n        replicasPath: {MARK}"),
        ".spec.replicas", ".spec.replicas // 1", REPLICAS, margins=True, crds=True),
    "WM309-iteration-block": Case(
        "WM309", _swap(examples.RAYJOB, "'.spec.rayClusterSpec.workerGroupSpecs[]?.groupName'", MARK),
        f"{RAY_WORKERS}[].groupName", f"{RAY_WORKERS}[]?.groupName", (*RAY_WORKER, "instanceIdPath"),
        margins=True),
    "WM309-iteration-flow": Case(
        "WM309", _swap(examples.RAYJOB, "'.spec.rayClusterSpec.workerGroupSpecs[]?.template'", MARK),
        f"{RAY_WORKERS}[].template", f"{RAY_WORKERS}[]?.template",
        (*RAY_WORKER, "specDefinition", "podTemplateSpecPath"), margins=True),
    "WM406-add-field-names": Case(
        "WM406", _swap(JOB, "{path: .status.conditions, typeFieldName: type, statusFieldName: status}",
                       f"{{path: {MARK}}}"),
        ".status.conditions", ".status.conditions",
        (*ROOT, "statusDefinition", "conditionsDefinition", "path"),
        expected_text=_add_field_names),
    "WM420-condition-type-flow": Case(
        "WM420", _swap(JOB, "{type: Complete,", f"{{type: {MARK},"), "Complet", "Complete",
        (*MAPPINGS, "completed", 0, "byConditions", 0, "type")),
    "WM420-condition-type-block": Case(
        "WM420", _block_conditions(JOB, "completed", 'type: Complete, status: "True"',
                                   f'type: {MARK}, status: "True"'),
        "Complet", "Complete", (*MAPPINGS, "completed", 0, "byConditions", 0, "type")),
    "WM421-phase-flow": Case(
        "WM421", _swap(POD, "initializing: [{byPhase: Pending}]", f"initializing: [{{byPhase: {MARK}}}]"),
        "Pendin", "Pending", (*MAPPINGS, "initializing", 0, "byPhase")),
    "WM421-phase-block": Case(
        "WM421", _swap(POD, "initializing: [{byPhase: Pending}]",
                       f"initializing:\n          - byPhase: {MARK}"),
        "Pendin", "Pending", (*MAPPINGS, "initializing", 0, "byPhase")),
    "WM422-status-string": Case(
        "WM422", _block_conditions(JOB, "failed", 'type: Failed, status: "True"',
                                   f"type: Failed, status: {MARK}"),
        "true", "True", (*CONDITION, "status")),
    "WM422-status-boolean": Case(
        "WM422", _swap(JOB, '{type: Failed, status: "True"}', f"{{type: Failed, status: {MARK}}}"),
        "true", "True", (*CONDITION, "status"), typed=True),
    "WM423-reason-block": Case(
        "WM423", _block_conditions(WITH_REASONS, "failed", 'type: Failed, status: "True"',
                                   f'type: Failed, status: "True", reason: {MARK}'),
        "BackoffLimitExeeded", "BackoffLimitExceeded", (*CONDITION, "reason")),
    "WM423-reason-flow": Case(
        "WM423", _swap(WITH_REASONS, '{type: Failed, status: "True"}',
                       f'{{type: Failed, status: "True", reason: {MARK}}}'),
        "BackoffLimitExeeded", "BackoffLimitExceeded", (*CONDITION, "reason")),
    "WM504-remove-owner-block": Case(
        "WM504", _swap(JOB, "      name: job\n", f"      name: job\n      ownerRef: {MARK}\n"), "job", "job",
        (*ROOT, "ownerRef"), margins=True, expected_text=_remove_line),
    "WM504-remove-owner-flow": Case(
        "WM504", FLOW_ROOT, "job", "job", (*ROOT, "ownerRef"), expected_text=_remove_flow_pair),
    "WM507-owner-ref": Case("WM507", _swap(JOBSET, "      ownerRef: jobset\n", f"      ownerRef: {MARK}\n"),
                            "jobst", "jobset", (*CHILD, "ownerRef")),
    "WM513-gang-member-block": Case(
        "WM513", _swap(JOBSET, "- componentName: replicatedjob\n", f"- componentName: {MARK}\n"),
        "replicatedjb", "replicatedjob", MEMBER),
    "WM513-gang-member-flow": Case(
        "WM513", _swap(JOBSET, "        - componentName: replicatedjob\n          groupByKeyPaths: [",
                       f"        - {{componentName: {MARK},\n          groupByKeyPaths: [")
        .replace("']\n", "']}\n"),
        "replicatedjb", "replicatedjob", MEMBER),
}


@dataclass(frozen=True)
class Style:
    kind: str  # plain, single, double, literal, folded
    chomp: str = ""  # clip, "-" strip, "+" keep
    indent: int = 0  # indentation indicator (0: none)
    split: bool = False  # folded over two lines at a space
    anchor: bool = False
    tag: bool = False
    newline: str = "\n"  # the file's line ends: LF, CR LF or CR


def _styles(case: Case) -> st.SearchStrategy[Style]:
    if case.typed:
        kinds = st.just("plain")
    elif case.key or case.expected_text is not None and case.rule == "WM406":
        kinds = st.sampled_from(["plain", "single", "double"])
    else:
        kinds = st.sampled_from(["plain", "single", "double", "literal", "folded"])
    chomps = st.sampled_from(["", "-", "+"]) if case.margins else st.just("-")
    tags = st.just(False) if case.typed else st.booleans()
    return st.builds(Style, kind=kinds, chomp=chomps, indent=st.sampled_from([0, 0, 1, 2, 3]),
                     split=st.booleans(), anchor=st.booleans(), tag=tags,
                     newline=st.sampled_from(["\n", "\r\n", "\r"]))


def _split_at(value: str) -> int | None:
    """A space in the middle of the value with no blank beside it, where a line can be folded."""
    spaces = [i for i, ch in enumerate(value) if ch == " " and value[i - 1] != " " and value[i + 1] != " "]
    return spaces[len(spaces) // 2] if spaces else None


def render(value: str, style: Style, column: int) -> str:
    """``value`` written as a YAML node in ``style`` for a key at ``column`` (the text after ``key: ``,
    without the line break that ends it)."""
    props = ("&written " if style.anchor else "") + ("!!str " if style.tag else "")
    cut = _split_at(value) if style.split else None
    if style.kind in ("literal", "folded"):
        indent = column + (style.indent or 2)
        lines = [value]
        if style.kind == "folded" and cut is not None:
            lines = [value[:cut], value[cut + 1:]]
        header = "|>"[style.kind == "folded"] + (str(style.indent) if style.indent else "") + style.chomp
        body = "\n".join(" " * indent + line for line in lines)
        return props + header + "\n" + body + ("\n" if style.chomp == "+" else "")
    quote, encode = {
        "single": ("'", lambda s: s.replace("'", "''")),
        "double": ('"', lambda s: json.dumps(s)[1:-1]),
        "plain": ("", lambda s: s),
    }[style.kind]
    if cut is None:
        return props + quote + encode(value) + quote
    fold = "\n" + " " * (column + 2)
    return props + quote + encode(value[:cut]) + fold + encode(value[cut + 1:]) + quote


def _column(template: str) -> int:
    line = next(line for line in template.splitlines() if MARK in line)
    before = line[:line.index(MARK)]
    stripped = before.lstrip(" -")
    if stripped.endswith(": ") and "{" not in stripped:
        return len(before) - len(stripped)  # the key the value belongs to
    return len(before) - len(before.lstrip(" -"))


def _options(case: Case, tmp: Path) -> Options:
    if not case.crds:
        return Options()
    crd = tmp / "widget-crd.yaml"
    if not crd.exists():
        crd.write_text(WIDGET_CRD)
    return Options(overrides=Overrides(extra_crds=(str(crd),)))


def _node(text: str, case: Case) -> tuple[Any, ScalarNode]:
    source = load_text(text, "definition.yaml")
    assume(not source.problems and len(source.documents) == 1)
    root = source.documents[0].root
    found = find_node(root, case.target)
    if case.key:
        assert isinstance(found, MappingNode)
        key = next((k for k, _ in found.pairs if k.value == case.old), None)
        assert key is not None
        return root, key
    assert isinstance(found, ScalarNode), case.target
    return root, found


def _expected_value(written_value: Any, case: Case) -> str:
    if not case.margins:
        return case.new
    stripped = written_value.strip()
    start = written_value.index(stripped)
    return written_value[:start] + case.new + written_value[start + len(stripped):]


def _set(data: Any, pointer: tuple[str | int, ...], value: Any, *, rename: str | None = None) -> None:
    *parents, last = pointer
    for part in parents:
        data = data[part]
    if rename is None:
        data[last] = value
        return
    mapping = data[last]
    items = [(rename if k == value else k, v) for k, v in mapping.items()]
    mapping.clear()
    mapping.update(items)


def _changed_ranges(before: str, after: str) -> list[tuple[int, int]]:
    return [(i1, i2) for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, before, after, autojunk=False)
            .get_opcodes() if tag != "equal"]


def check_fix(case: Case, style: Style, tmp: Path) -> None:
    written = render(case.old, style, _column(case.template))
    text = case.template.replace(MARK, written).replace("\n", style.newline)
    written = written.replace("\n", style.newline)
    root, node = _node(text, case)
    assume(node.text.strip() == case.old and (case.margins or node.text == case.old))
    options = _options(case, tmp)
    found = [d for d in lint_text(text, "definition.yaml", options) if d.rule == case.rule]
    assert len(found) == 1 and found[0].fixes, (text, found)
    (fix,) = found[0].fixes[:1]
    assert "\n" not in fix.description and "\r" not in fix.description
    fixed = apply_edits(text, list(fix.edits))

    after = load_text(fixed, "definition.yaml")
    assert not after.problems, (fixed, after.problems)  # parses

    if case.expected_text is not None:
        assert fixed == case.expected_text(text, written, style.newline)  # all else kept
    else:
        # every changed character lies in the content of a target (anchors and tags kept)
        targets = [node] + [find_node(root, p) for p in case.also]
        spans = [(skip_properties(text, n.start, n.end), n.end) for n in targets if isinstance(n, ScalarNode)]
        for start, end in _changed_ranges(text, fixed):
            assert any(s <= start and end <= e for s, e in spans), (text, fixed)
        if style.anchor:
            assert "&written " in fixed
        if style.tag:
            assert "!!str " in fixed
        # the intended value, and nothing else changed in the data
        wanted = to_python(root)
        if case.key:
            _set(wanted, case.target, case.old, rename=case.new)
        else:
            _set(wanted, case.target, _expected_value(node.text, case))
        for pointer, value in case.also.items():
            _set(wanted, pointer, value)
        assert to_python(after.documents[0].root) == wanted, (text, fixed)
        fixed_node = _node(fixed, Case(**{**case.__dict__, "old": case.new}))[1]
        if style.kind == "plain" and _plain_holds(case.new):
            assert fixed_node.style == "plain", fixed  # a plain scalar stays plain

    # fixed for good: the rule has nothing left to fix
    again = [d for d in lint_text(fixed, "definition.yaml", options) if d.rule == case.rule and d.fixes]
    assert again == [], (fixed, again)
    assert set(re.findall(r"\r\n|\r|\n", fixed)) == {style.newline}  # line ends kept


def _plain_holds(value: str) -> bool:
    """Whether ``value`` reads back as the same string when written plain in a block mapping."""
    source = load_text(f"key: {value}\n", "probe.yaml")
    node = find_node(source.documents[0].root, ("key",)) if source.documents else None
    return not source.problems and isinstance(node, ScalarNode) and node.value == value


@pytest.mark.parametrize("name", sorted(CASES))
def test_fix_keeps_the_file_whole(name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    case = CASES[name]
    tmp = tmp_path_factory.mktemp("crd")

    @settings(max_examples=40, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(_styles(case))
    def run(style: Style) -> None:
        check_fix(case, style, tmp)

    run()


def test_every_rule_whose_example_has_a_fix_has_a_case() -> None:
    from wmaplint.cli import _load_rules

    _load_rules()
    fixable = set()
    for rule in RULES.values():
        if rule.example_mode != "check":
            continue
        if any(d.rule == rule.id and d.fixes for d in lint_text(rule.bad, rule.example_filename)):
            fixable.add(rule.id)
    assert fixable <= {case.rule for case in CASES.values()}
