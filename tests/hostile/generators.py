"""Generators of hostile inputs, one family each: definitions, jq, CEL, CRDs, manifests, suites, paths,
configuration, output targets (LSP sessions and frames live in ``frames.py``). A generator takes a seeded
``random.Random`` and returns a ``Case``: the files to write into an empty directory and the command to run
there. The same seed gives the same cases, so a failure is reproduced from its family, seed and index."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from wmaplint.rules.examples import JOB, POD

from .frames import framing_session, lsp_session
from .helpers import WIDGET_DEFINITION, widget_crd

REPO = Path(__file__).resolve().parents[2]
CATALOG = REPO / "catalog"


@dataclass
class Link:
    """A symbolic link to write instead of a file's content."""

    target: str


@dataclass
class Hardlink:
    """A second name of a file written before it (``target``: its name in the case)."""

    target: str


@dataclass
class Special:
    """A FIFO (``"fifo"``) or, where the runner may make one (root), a character device like /dev/null
    (``"device"``; a FIFO otherwise)."""

    kind: str


@dataclass
class Sparse:
    """A file of ``size`` bytes that takes no disk (a hole): a huge cache record, a cache past its cap."""

    size: int


Content = str | bytes | Link | Hardlink | Special | Sparse


@dataclass
class Case:
    family: str
    name: str
    files: dict[str, Content]
    args: list[str]
    stdin: bytes | None = None
    # "{home}" in a value is the case's home (its directory's parent): a cache of the case's own
    env: dict[str, str] = field(default_factory=dict)
    # after the files are written: modes to set, and owners (uids) to give where the runner may (root)
    modes: dict[str, int] = field(default_factory=dict)
    owners: dict[str, int] = field(default_factory=dict)
    # Names (relative to the case's directory, "../x" for beside it) a run may write, each with what lies
    # below it; None: not watched. Any other change in the case's home is a write outside its place.
    writable: set[str] | None = None
    # Request ids the server must answer exactly once (LSP families); every other id at most once.
    answers: list[int | str] | None = None

    def describe(self) -> str:
        return f"{self.family}/{self.name}: wmaplint {' '.join(self.args)}"


def _texts(pattern: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in sorted(CATALOG.glob(pattern))]


DEFINITIONS = [JOB, POD, *_texts("*.yaml")]
MANIFESTS = _texts("examples/*/*.yaml")

# Scalars that have broken parsers before: numbers past every limit, YAML 1.1 surprises, line separators,
# tags, anchors, control characters and sheer size.
SCALARS = [
    "", "~", "null", "0", "-0", "-1", "1e309", "-.inf", ".nan", "0x" + "f" * 40, "9" * 4400, "1" + "0" * 400,
    "yes", "No", "on", "2001-12-14t21:59:43.10-05:00", "'\u2028'", "'a\u0085b'", '"\\ud800"', '"\\u0000"',
    "!!python/object/apply:os.system ['true']", "!!binary AAAA", "!!float x", "!custom x", "&anchor value",
    "*undefined", "[" * 60 + "]" * 60, "{a: " * 60 + "1" + "}" * 60, "'" + "x" * 200_000 + "'",
    "'" + "é" * 3000 + "'", "|\n  block\n  text", ">-\n  folded", "'\t'", "\"\\t\\b\\f\"", "- [a, b]",
    "{? [a]: b}", "<<: {a: 1}", "'$(touch pwned)'", "'${HOME}'", "'\\x00'",
]


_INSERTS = ["\u2028", "\u2029", "\x85", "\ufeff", "\t", "\\", "'", '"', "#", "&a ", "*a", "!!str ", "{", "[",
            "\x7f"]
_LINES = ["---", "...", "%YAML 1.1", "? complex", "- stray", "<<: *a", "a: &a"]


def _mutate_lines(rng: random.Random, text: str, rounds: int = 3) -> str:
    lines = text.split("\n")
    for _ in range(rounds):
        if not lines:
            break
        i = rng.randrange(len(lines))
        action = rng.randrange(9)
        if action == 0 and ":" in lines[i]:
            key = lines[i].split(":", 1)[0]
            lines[i] = f"{key}: {rng.choice(SCALARS)}"
        elif action == 1:
            del lines[i]
        elif action == 2:
            lines.insert(i, lines[i])
        elif action == 3:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif action == 4:
            lines[i] = " " * rng.randrange(12) + lines[i].lstrip()
        elif action == 5:
            cut = rng.randrange(len(lines[i]) + 1)
            lines[i] = lines[i][:cut] + rng.choice(_INSERTS) + lines[i][cut:]
        elif action == 6:
            lines = lines[: rng.randrange(len(lines) + 1)]
        elif action == 7:
            lines.insert(i, rng.choice(_LINES))
        else:
            lines[i] = lines[i].replace(" ", "  ", 1)
    return "\n".join(lines)


def _definition(rng: random.Random) -> str:
    return rng.choice(DEFINITIONS)


# --- storms: YAML of a node every byte or two ------------------------------------------------------------

DEFINITION_HEAD = "apiVersion: run.ai/v1alpha1\nkind: Karta\nmetadata: {name: storm}\nspec: "
MANIFEST_HEAD = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: storm}\nspec: "


def empty_keys(size: int) -> str:
    """A flow mapping of ``size`` bytes of empty explicit keys (`{?,?,...}`): two nodes every two bytes,
    every key a repeat of the one before."""
    return "{" + "?," * (size // 2 - 1) + "?}\n"


def _storm(rng: random.Random, head: str) -> str:
    """A document (or three) of empty explicit keys, or a mapping of one key repeated, under ``head``."""
    size = rng.choice([64 << 10, 400 << 10, 1 << 20])
    shape = rng.randrange(3)
    if shape == 0:
        return head + empty_keys(size - len(head) - 2)
    if shape == 1:
        return "---\n".join(head + empty_keys(size - len(head) - 2) for _ in range(3))
    return head + "{" + "a: 1, " * (size // 6) + "b: 2}\n"


def _as_kubectl_prints(rng: random.Random, text: str) -> str:
    """A (mutated) definition as kubectl prints several: the items of a List, or a watch of JSON values."""
    count = rng.randint(1, 40)
    if rng.random() < 0.5:
        item = "- " + text.replace("\n", "\n  ") + "\n"
        return "apiVersion: v1\nkind: List\nmetadata: {}\nitems:\n" + item * count
    try:
        value = yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, RecursionError):
        value = text
    events = (json.dumps({"type": rng.choice(["ADDED", "MODIFIED", "DELETED"]), "object": value}, indent=2,
                         default=str)
              for _ in range(count))
    return "\n".join(events) + rng.choice(["", "\n", "\n{", "\n]"])


def definitions(rng: random.Random, index: int) -> Case:
    if rng.random() < 0.08:
        return Case("definitions", f"{index}", {"def.yaml": _storm(rng, DEFINITION_HEAD)},
                    ["check", "--format", rng.choice(["text", "json", "sarif"]), "def.yaml"])
    text = _mutate_lines(rng, _definition(rng), rng.randint(1, 6))
    if rng.random() < 0.2:
        text = "---\n".join([text] * rng.randint(2, 40))
    elif rng.random() < 0.15:
        text = _as_kubectl_prints(rng, text)
    fmt = rng.choice(["text", "json", "sarif", "github"])
    args = ["check", "--format", fmt, "def.yaml"]
    if rng.random() < 0.25:
        args.insert(1, "--fix")
    return Case("definitions", f"{index}", {"def.yaml": text}, args)


# --- jq ---------------------------------------------------------------------------------------------------

_JQ_ATOMS = [
    ".", ".spec", ".spec.parallelism", ".metadata.labels[\"a\"]", "..", ".[]", ".[]?", "$__loc__", "$ENV",
    "env", "input", "inputs", "null", "true", "[]", "{}", "empty", "error", "now", "input_line_number",
    "1", "-1", "0.5", "1e1000", "-1e1000", "nan", "infinite", "9" * 5000, "1" * 4400, '"x"', '"\\(.)"',
    '"\\u00e9\\ud800"', '"' + "y" * 5000 + '"', "@base64d", "@json", "$undefined", "range(1e9)", "repeat(.)",
    "recurse", "paths", "tostream", "ltrimstr(1)", "splits(\"a\")", "test(\"(a+)+$\")", "ascii", "implode",
    "getpath([\"a\",0])", "limit(3; repeat(1))", "input_filename", "halt", "halt_error", "debug", "stderr",
    "$__prog_args", "splits(\"\")", "@sh", "tojson", "fromjson", "keys", "to_entries", "add", "any", "all",
]


def _jq(rng: random.Random, depth: int = 0) -> str:
    if depth > 4 or rng.random() < 0.3:
        return rng.choice(_JQ_ATOMS)
    a, b = _jq(rng, depth + 1), _jq(rng, depth + 1)
    forms = [
        f"{a} | {b}", f"{a}, {b}", f"{a} + {b}", f"{a} * {b}", f"{a} // {b}", f"[{a}]", f"{{a: {a}}}",
        f"if {a} then {b} else {a} end", f"reduce {a} as $x ({b}; . + $x)", f"foreach {a} as $x (0; .+1)",
        f"def f: {a}; f", f"def f: f; {a}", f"try {a} catch {b}", f"{a} as $x | {b}", f"limit({a}; {b})",
        f"({a})[{b}:{a}]", f'"x" * ({a})', f"path({a})", f"label $out | {a}", f"{a} and {b}", f"({a})?",
        f"[{a}] | length", f"{a} | select({b})", f"{a}[{b}]", f"\"\\({a})\"", f"{a} as [$x, {{a: $y}}] | $y",
        f"{a} |= {b}", f"del({a})", f"{a} == {b}", f"-({a})", f"({a}) % ({b})",
    ]
    return rng.choice(forms)


# Expressions judged cheap by their output size whose work grows with the square of their input: an index
# that is an array, index/indices/inside/contains of one, an array minus an array.
COSTLY_JQ = [
    '(.spec.s / "")[(.spec.t / "")] | length',
    '(.spec.t / "") as $t | .spec.s / "" | indices($t) | length',
    '(.spec.t / "") as $t | .spec.s / "" | index($t)',
    '(.spec.s / "") as $s | .spec.t / "" | inside($s)',
    '(.spec.t / "") as $t | .spec.s / "" | contains($t)',
    '(.spec.s / "") - (.spec.t / "") | length',
    '.spec.a - .spec.b | length',
    '.spec.a[.spec.b]',
]


def _costly_jq(rng: random.Random, index: int) -> Case:
    """A costly expression as a replicas path, on a manifest of tens of kilobytes that makes it so."""
    expression = rng.choice(COSTLY_JQ)
    size = rng.choice([8_000, 40_000, 64_000])
    pod = {"spec": {"containers": [{"name": "c", "image": "x"}]}}
    spec = {"s": "a" * (size // 2), "t": "a" * (size // 4) + "b", "a": [1] * (size // 8),
            "b": [1] * (size // 16) + [2], "template": pod}
    manifest = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": spec}
    text = JOB.replace("'.spec.parallelism // 1'", json.dumps(expression), 1)
    return Case("jq", f"{index}", {"def.yaml": text, "job.json": json.dumps(manifest)},
                ["tree", "--definition", "def.yaml", "job.json"])


def jq(rng: random.Random, index: int) -> Case:
    if rng.random() < 0.15:
        return _costly_jq(rng, index)
    expression = _jq(rng)
    if rng.random() < 0.2:
        expression = "(" * rng.choice([10, 300, 3000]) + expression + ")" * rng.choice([10, 300, 3000])
    quoted = "'" + expression.replace("'", "''") + "'"
    slot = rng.choice(["'.spec.parallelism // 1'", ".spec.template", "'(.status.active // 0) > 0'"])
    text = JOB.replace(slot, quoted, 1)
    if rng.random() < 0.5:
        return Case("jq", f"{index}", {"def.yaml": text}, ["check", "--format", "json", "def.yaml"])
    manifest = ("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  parallelism: 3\n"
                "  template:\n    spec:\n      containers: [{name: c, image: x}]\n")
    fmt = rng.choice(["text", "json", "dot"])
    return Case("jq", f"{index}", {"def.yaml": text, "job.yaml": manifest},
                ["tree", "--definition", "def.yaml", "--format", fmt, "job.yaml"])


# --- CEL --------------------------------------------------------------------------------------------------

_CEL_ATOMS = [
    "self", "self.spec", "self.spec.names", "self.spec.count", "self.spec.text", "self.spec.tags", "oldSelf",
    "1", "-9223372036854775808", "9223372036854775807", "18446744073709551615u", "1.5e308", "'x'",
    "'" + "a" * 3000 + "'", "b'\\xff'", "[]", "{}", "null", "true", "'\\u2028'", "duration('1h')",
    "timestamp('2024-01-01T00:00:00Z')", "quantity('1Ki')", "url('https://x')", "ip('10.0.0.1')",
    "cidr('10.0.0.0/8')", "semver('1.2.3')", "format.dns1123Label()", "self.?spec.orValue({})",
    "self.spec.names[0]", "self.spec.tags['k']", "'(a+)+$'", "[1, 'a']", "self.`x-y`",
]


def _cel(rng: random.Random, depth: int = 0) -> str:
    if depth > 4 or rng.random() < 0.3:
        return rng.choice(_CEL_ATOMS)
    a, b = _cel(rng, depth + 1), _cel(rng, depth + 1)
    loop = rng.choice(["all", "exists", "exists_one", "map", "filter"])
    forms = [
        f"{a} == {b}", f"{a} + {b}", f"{a} * {b}", f"{a} / {b}", f"{a} % {b}", f"{a} < {b}", f"!{a}",
        f"{a} && {b}", f"{a} || {b}", f"{a} ? {b} : {a}", f"size({a})", f"{a}.size()", f"has({a}.x)",
        f"{a} in {b}", f"self.spec.names.{loop}(n, {a})",
        f"self.spec.names.all(x, self.spec.names.all(y, {a}))",
        f"string({a}).matches({b})", f"string({a}).contains('{a[:5]}')", f"{a}.split(',')", f"[{a}, {b}]",
        f"{{'k': {a}}}", f"type({a}) == type({b})", f"int({a})", f"double({a})", f"{a}.startsWith({b})",
        f"{a}.join(',')", f"'%s'.format([{a}])", f"{a}.isSorted()", f"{a}.sum()", f"dyn({a})", f"({a})",
        f"{a}.lowerAscii()", f"{a}.replace('a', 'bb')", f"{a}.indexOf({b})", f"{a}.exists_one(z, z == {b})",
    ]
    return rng.choice(forms)


TREE_WIDGET = ["tree", "--crds", "crd.yaml", "--definition", "def.yaml", "w.json"]
_WIDGET_PROPERTIES = {
    "names": {"type": "array", "items": {"type": "string"}},
    "count": {"type": "integer"},
    "text": {"type": "string"},
    "tags": {"type": "object", "additionalProperties": {"type": "string"}},
}


def _widget(rng: random.Random) -> str:
    size = rng.choice([0, 1, 5, 100, 2000, 20_000])
    spec = {
        "names": [rng.choice(["a", "", "x" * 1000, "é"]) for _ in range(size)],
        "count": rng.choice([0, -1, 2**63 - 1, 1.5]),
        "text": "t" * rng.choice([0, 10, 100_000]),
        "tags": {f"k{i}": "v" for i in range(rng.choice([0, 3, 3000]))},
        "template": {"spec": {"containers": [{"name": "c", "image": "x"}]}},
    }
    widget = {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": spec}
    return json.dumps(widget)


def cel(rng: random.Random, index: int) -> Case:
    rules = []
    for _ in range(rng.randint(1, 4)):
        rule: dict[str, object] = {"rule": _cel(rng)}
        if rng.random() < 0.3:
            rule["messageExpression"] = rng.choice(["'m: ' + string(self)", _cel(rng), "'x' * 3"])
        if rng.random() < 0.2:
            rule["reason"] = rng.choice(["FieldValueForbidden", "Nope", 7])
        if rng.random() < 0.2:
            rule["fieldPath"] = rng.choice([".names", ".x[", "..", ""])
        rules.append(rule)
    schema = {"type": "object", "properties": {"spec": {"type": "object", "properties": _WIDGET_PROPERTIES,
                                                        "x-kubernetes-preserve-unknown-fields": True,
                                                        "x-kubernetes-validations": rules}}}
    files: dict[str, str | bytes | Link] = {"crd.yaml": widget_crd(schema)}
    if rng.random() < 0.4:
        return Case("cel", f"{index}", files, ["check", "--format", "sarif", "crd.yaml"])
    files.update({"def.yaml": WIDGET_DEFINITION, "w.json": _widget(rng)})
    return Case("cel", f"{index}", files, TREE_WIDGET)


# --- CRDs -------------------------------------------------------------------------------------------------

def _schema(rng: random.Random, depth: int = 0) -> object:
    if depth > 6 or rng.random() < 0.25:
        return rng.choice([
            {"type": "string"}, {"type": "integer", "format": "int32"},
            {"type": rng.choice(["object", "nope", 7])}, {"x-kubernetes-int-or-string": True},
            {"x-kubernetes-preserve-unknown-fields": rng.choice([True, "x"])},
            {"type": "string", "enum": [str(i) for i in range(rng.choice([1, 5000]))]}, {"$ref": "#/loop"},
            {"type": ["string", "null"]}, {}, [], None, {"type": "array", "items": [{"type": "string"}]},
        ])
    kind = rng.choice(["object", "array", "map", "deep"])
    if kind == "object":
        properties = {f"p{i}": _schema(rng, depth + 1) for i in range(rng.randint(0, 4))}
        required = rng.choice([[], ["p0"], ["zz"], "p0"])
        return {"type": "object", "properties": properties, "required": required}
    if kind == "array":
        return {"type": "array", "items": _schema(rng, depth + 1), "maxItems": rng.choice([1, -1, 2**70])}
    if kind == "map":
        return {"type": "object", "additionalProperties": rng.choice([_schema(rng, depth + 1), True, False])}
    nested: dict[str, object] = {"type": "string"}
    for _ in range(rng.choice([50, 200])):  # deeper: tests/hostile/test_schema_inputs.py
        nested = {"type": "object", "properties": {"x": nested}}
    return nested


def crds(rng: random.Random, index: int) -> Case:
    schema = {"type": "object", "properties": {"spec": _schema(rng), "status": _schema(rng)}}
    text = widget_crd(schema)
    if rng.random() < 0.3:
        document = json.loads(text.split("\n", 1)[1])  # after the comment line
        text = _mutate_lines(rng, json.dumps(document, indent=1), rng.randint(1, 5))
    files: dict[str, str | bytes | Link] = {"crd.yaml": text, "def.yaml": WIDGET_DEFINITION}
    files["w.json"] = _widget(rng)
    if rng.random() < 0.5:
        return Case("crds", f"{index}", files, ["check", "--crds", "crd.yaml", "def.yaml"])
    return Case("crds", f"{index}", files, TREE_WIDGET)


# --- manifests --------------------------------------------------------------------------------------------

def manifests(rng: random.Random, index: int) -> Case:
    if rng.random() < 0.08:
        return Case("manifests", f"{index}", {"m.yaml": _storm(rng, MANIFEST_HEAD)},
                    ["tree", "--format", rng.choice(["text", "json"]), "m.yaml"])
    text = _mutate_lines(rng, rng.choice(MANIFESTS), rng.randint(1, 6))
    if rng.random() < 0.15:
        text = "---\n".join([text] * rng.randint(2, 200))
    files: dict[str, str | bytes | Link] = {"m.yaml": text}
    args = ["tree", "--format", rng.choice(["text", "json", "dot"]), "m.yaml"]
    if rng.random() < 0.2:
        pods = "kind: PodList\napiVersion: v1\nitems:\n- " + POD.replace("\n", "\n  ")
        files["pods.yaml"] = _mutate_lines(rng, pods)
        args[1:1] = ["--pods", "pods.yaml"]
    return Case("manifests", f"{index}", files, args)


# --- suites -----------------------------------------------------------------------------------------------

RECORDING_HEAD = "events:\n- kind: STATE\n  objects: "


def suites(rng: random.Random, index: int) -> Case:
    if rng.random() < 0.08:  # a suite or a recording of a node every byte or two
        name = rng.choice(["s.test.yaml", "r.yaml"])
        head = RECORDING_HEAD if name == "r.yaml" else "definition: def.yaml\ncases: "
        text = head + empty_keys(rng.choice([64 << 10, (1 << 20) - len(head) - 2]))
        return Case("suites", f"{index}", {name: text, "def.yaml": JOB}, ["test", name])
    manifest = rng.choice(MANIFESTS)
    definition = rng.choice(["def.yaml", "missing.yaml", "{file: def.yaml}", "{file: [1]}", "[]", "7", ".",
                             "m.yaml", "suite.test.yaml", "'../../../../etc/hostname'", "/dev/zero"])
    case_items = [
        "{name: a, manifest: m.yaml}", "{name: b, manifest: {file: m.yaml}, expect: {totals: {pods: x}}}",
        "{manifest: m.yaml, expect: {status: [1], instances: 7, gangs: {a: -1}}}", "7", "[]", "{}", "null",
        "{name: c, manifest: {apiVersion: v1, kind: Pod, metadata: {name: p}}, pods: pods.yaml}",
        "{name: d, manifest: m.yaml, expect: {findings: [WM999, 5]}}", "{name: e, manifest: suite.test.yaml}",
    ]
    cases = ", ".join(rng.choice(case_items) for _ in range(rng.randint(0, 5)))
    suite = f"definition: {definition}\ncases: [{cases}]\n"
    if rng.random() < 0.3:
        suite = _mutate_lines(rng, suite, 2)
    files: dict[str, str | bytes | Link] = {
        "suite.test.yaml": suite, "def.yaml": _definition(rng), "m.yaml": manifest, "pods.yaml": "items: 7\n",
    }
    args = ["test", "suite.test.yaml"]
    if rng.random() < 0.2:
        args[1:1] = ["--junit", rng.choice(["out.xml", ".", "/dev/full", "no/such/dir/out.xml"])]
    return Case("suites", f"{index}", files, args)


# --- paths ------------------------------------------------------------------------------------------------

_NAMES = [
    "plain.yaml", "spaces in name.yaml", "tab\tname.yaml", "new\nline.yaml", "ünï©ødé.yaml",
    "\u202eevil.yaml", "-starts-with-dash.yaml", "x" * 250 + ".yaml", "a:b.yaml", "'quote'.yaml", "%s%n.yaml",
    "$(x).yaml", "[brackets].yaml", "*.yaml", "back\\slash.yaml", ".hidden.yaml", "dir.yaml/inner.yaml",
    "deep/" * 40 + "x.yaml",
]


def paths(rng: random.Random, index: int) -> Case:
    files: dict[str, str | bytes | Link] = {}
    for name in rng.sample(_NAMES, rng.randint(1, 4)):
        files[name] = _definition(rng)
    extra = rng.random()
    if extra < 0.2:
        files["loop.yaml"] = Link("loop.yaml")
    elif extra < 0.4:
        files["up.yaml"] = Link("..")
    elif extra < 0.6:
        files["bad-\udcff.yaml"] = _definition(rng)  # a name that is not valid UTF-8
    target = rng.choice([".", *files, "x" * 300 + ".yaml", "", "--", "-"])
    args = ["check", "--format", rng.choice(["text", "json", "sarif", "github"]), target]
    return Case("paths", f"{index}", files, args, stdin=b"" if target == "-" else None)


# --- configuration ----------------------------------------------------------------------------------------

# Values each key accepts, so most configurations get past loading and change what is checked; then values of
# the wrong shape; then YAML-only text (anchors, aliases, odd scalars).
_CONFIG_VALID: dict[str, list[object]] = {
    "select": [["WM1", "WM3"], ["KBP"], ["WM301", "KBP001"]],
    "ignore": [["WM9"], ["KBP"], ["unknown-field"]],
    "severity": [{"WM301": "info"}, {"KBP004": "error", "WM901": "off"}],
    "exclude": [["*.json"], ["drafts"], ["**"]],
    "crds": [["crds"], ["crd.yaml"], ["."]], "fail-level": ["error", "info"], "rule-packs": [["pack.yaml"]],
    "completes": [["Job"], ["batch/v1/Job"], [""]],
}
_CONFIG_WRONG: list[object] = [
    ["WM101"], ["nope"], "WM301", [], {}, 7, [[]], {"WM101": "loud"}, ["["], ["/"], ["../outside"],
    ["/dev/zero"], ["missing.yaml"], "verbose", "x" * 10_000, -1, 1.5, True,
]
_CONFIG_YAML_ONLY = ["null", "&a [1]", "*a", "!!binary AAAA", "[" * 50 + "]" * 50, "'\u2028'"]


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"


def config(rng: random.Random, index: int) -> Case:
    keys = rng.sample(sorted(_CONFIG_VALID), rng.randint(1, 5)) + (["bogus"] if rng.random() < 0.1 else [])
    toml = rng.random() < 0.3
    entries = []
    for key in keys:
        roll = rng.random()
        if roll < 0.7 and key in _CONFIG_VALID:
            value: object = rng.choice(_CONFIG_VALID[key])
        elif roll < 0.9 or toml:
            value = rng.choice(_CONFIG_WRONG)
        else:
            entries.append(f"{key}: {rng.choice(_CONFIG_YAML_ONLY)}")
            continue
        entries.append(f"{key} = {_toml(value)}" if toml else f"{key}: {json.dumps(value)}")
    files: dict[str, str | bytes | Link] = {"def.yaml": _definition(rng), ".git/HEAD": "ref: main\n"}
    files["pack.yaml"] = _mutate_lines(rng, (REPO / "packs" / "karta-best-practices.yaml").read_text(), 2)
    files["crd.yaml"] = widget_crd({"type": "object", "properties": {"spec": _schema(rng)}})
    if toml:
        files["pyproject.toml"] = "[tool.wmaplint]\n" + "\n".join(entries) + "\n"
    else:
        files[".wmaplint.yaml"] = "\n".join(entries) + "\n"
    args = ["check", "def.yaml"]
    if rng.random() < 0.2:
        chosen = rng.choice([".wmaplint.yaml", "pyproject.toml", "def.yaml", ".", "/dev/null"])
        args[1:1] = ["--config", chosen]
    return Case("config", f"{index}", files, args)


# --- output targets ---------------------------------------------------------------------------------------

FINDING = JOB.replace("specDefinition:", "specDefiniton:")
# (the --output name, the files the case holds beside the definition, what the run may write)
_TARGETS: list[tuple[str, dict[str, str | bytes | Link | Hardlink | Special], set[str]]] = [
    ("out.sarif", {}, {"out.sarif"}),
    ("out.sarif", {"out.sarif": "old report\n"}, {"out.sarif"}),
    ("new/dir/out.json", {}, set()),
    ("def.yaml", {}, set()),
    ("./sub/../def.yaml", {"sub/keep.txt": "x\n"}, set()),
    ("same.yaml", {"same.yaml": Hardlink("def.yaml")}, set()),
    ("linked.yaml", {"linked.yaml": Link("def.yaml")}, set()),
    ("away.json", {"away.json": Link("../outside.txt")}, set()),
    ("dangling.json", {"dangling.json": Link("../gone.json")}, set()),
    ("loop.json", {"loop.json": Link("loop.json")}, set()),
    ("sub", {"sub/keep.txt": "x\n"}, set()),
    ("pipe", {"pipe": Special("fifo")}, set()),
    ("null", {"null": Special("device")}, set()),
    ("/dev/fd/1", {}, set()), ("/dev/fd/2", {}, set()), ("/dev/fd/9", {}, set()),
    ("/proc/self/fd/1", {}, set()),
    ("crd.yaml", {"crd.yaml": widget_crd({"type": "object"})}, set()),
    (".wmaplint.yaml", {".wmaplint.yaml": "ignore: [WM9]\n"}, set()),
    ("readonly.json", {"readonly.json": "x\n"}, {"readonly.json"}),
    ("x" * 300 + ".json", {}, set()),
]


# A suite whose definition, manifest and pods are files: each is read by the run, so none is a report's place.
_NAMING_SUITE = """\
definition: def.yaml
cases:
- name: a
  manifest: {file: m.yaml}
  pods: pods.yaml
  expect: {totals: {pods: 9}}
"""
# (the --junit name, the files the case holds beside the suite and the files it names, what the run may write)
_JUNIT_TARGETS: list[tuple[str, dict[str, str | bytes | Link | Hardlink | Special], set[str]]] = [
    ("out.xml", {}, {"out.xml"}),
    ("out.xml", {"out.xml": "old report\n"}, {"out.xml"}),
    ("s.test.yaml", {}, set()), ("def.yaml", {}, set()), ("m.yaml", {}, set()), ("pods.yaml", {}, set()),
    ("./sub/../m.yaml", {"sub/keep.txt": "x\n"}, set()),
    ("same.xml", {"same.xml": Hardlink("m.yaml")}, set()),
    ("linked.xml", {"linked.xml": Link("pods.yaml")}, set()),
    ("away.xml", {"away.xml": Link("../outside.txt")}, set()),
    ("sub", {"sub/keep.txt": "x\n"}, set()),
    ("pipe", {"pipe": Special("fifo")}, set()),
    ("null", {"null": Special("device")}, set()),
    ("/dev/fd/1", {}, set()),
    ("crds/widget.yaml", {"crds/widget.yaml": widget_crd({"type": "object"})}, set()),  # with --crds crds
    ("crds/report.xml", {"crds/widget.yaml": widget_crd({"type": "object"})}, {"crds/report.xml"}),
]


def _junit_output(rng: random.Random, index: int) -> Case:
    """``test --junit TARGET`` on a suite that names its files, the target any of the kinds ``--output`` meets
    or a file the suite names."""
    name, extra, writable = rng.choice(_JUNIT_TARGETS)
    files: dict[str, str | bytes | Link | Hardlink | Special] = {
        "def.yaml": JOB, "m.yaml": rng.choice(MANIFESTS), "pods.yaml": "items: []\n",
        "s.test.yaml": _NAMING_SUITE, **extra}
    args = ["test", "--junit", name, "s.test.yaml"]
    if name.startswith("crds/"):
        args[1:1] = ["--crds", "crds"]
    if rng.random() < 0.3:
        args.insert(1, "--update")
        writable = writable | {"s.test.yaml"}
    return Case("outputs", f"{index}", files, args, writable=writable)


# A suite whose expectation is wrong: `test --update` rewrites it.
_STALE_SUITE = _NAMING_SUITE.replace("{totals: {pods: 9}}", "{totals: {pods: 99}}")


def _default_directory(rng: random.Random, index: int) -> Case:
    """``test --update`` with no paths, where the default catalog/tests/ (or catalog/) is a link out of the
    working directory to suites beside it: none of them may be written."""
    outside = {"def.yaml": JOB, "m.yaml": rng.choice(MANIFESTS), "pods.yaml": "items: []\n",
               "s.test.yaml": _STALE_SUITE}
    files: dict[str, str | bytes | Link | Hardlink | Special] = {
        f"../outside/tests/{name}": text for name, text in outside.items()}
    if rng.random() < 0.5:
        files["catalog"] = Link("../outside")
    else:
        files["catalog/tests"] = Link("../../outside/tests")
    if rng.random() < 0.3:  # and a suite of the working directory's own, linked out
        files["catalog/tests/mine.test.yaml"] = Link("../../../outside/tests/s.test.yaml")
        files.pop("catalog", None)
        files.pop("catalog/tests", None)
    args = ["test", "--update"] + (["--junit", "out.xml"] if rng.random() < 0.3 else [])
    return Case("outputs", f"{index}", files, args, writable={"out.xml"})


def outputs(rng: random.Random, index: int) -> Case:
    """``check --output FORMAT=TARGET`` on a definition, the target a file, a link, a device, a pipe, an input
    of the run; ``test --junit`` (`_junit_output`); and ``test --update`` whose default directory is a link
    out of the working directory (`_default_directory`). The runner holds every name but the writable ones
    to their bytes and kinds."""
    if rng.random() < 0.1:
        return _default_directory(rng, index)
    if rng.random() < 0.3:
        return _junit_output(rng, index)
    name, extra, writable = rng.choice(_TARGETS)
    files: dict[str, str | bytes | Link | Hardlink | Special] = {"def.yaml": FINDING, **extra}
    args = ["check", "--format", rng.choice(["text", "json"])]
    if rng.random() < 0.3:
        args.append("--follow-symlinks")
        if name in ("away.json", "dangling.json"):
            writable = {"../outside.txt"} if name == "away.json" else {"../gone.json"}
    if name == ".wmaplint.yaml":
        args += ["--config", ".wmaplint.yaml"]
    if name == "crd.yaml":
        args += ["--crds", "crd.yaml"]
    for _ in range(rng.choice([1, 1, 2])):
        args += ["--output", f"{rng.choice(['sarif', 'json', 'text', 'github'])}={name}"]
        if rng.random() < 0.3:
            args += ["--output", "json=second.json"]
            writable = writable | {"second.json"}
            break
    args.append(rng.choice(["def.yaml", "."]))
    return Case("outputs", f"{index}", files, args, writable=writable)


# --- language server --------------------------------------------------------------------------------------

def lsp(rng: random.Random, index: int) -> Case:
    return Case("lsp", f"{index}", {}, ["lsp"], stdin=lsp_session(rng, rng.choice(DEFINITIONS)))


def lsp_frames(rng: random.Random, index: int) -> Case:
    """A session of valid requests between frames with a wrong Content-Length, garbage and cancellations: each
    valid request must be answered exactly once."""
    stream, answers = framing_session(rng)
    return Case("lsp-frames", f"{index}", {}, ["lsp"], stdin=stream, answers=answers)


def _planted() -> dict[str, Callable[[random.Random, int], Case]]:
    from .planted import caches, configfiles  # they build on this module's cases

    return {"caches": caches, "configfiles": configfiles}


FAMILIES: dict[str, Callable[[random.Random, int], Case]] = {
    "definitions": definitions,
    "jq": jq,
    "cel": cel,
    "crds": crds,
    "manifests": manifests,
    "suites": suites,
    "paths": paths,
    "config": config,
    "lsp": lsp,
    "outputs": outputs,
    "lsp-frames": lsp_frames,
    **_planted(),
}


def cases(family: str, seed: int, count: int) -> Iterator[Case]:
    """``count`` cases of a family, made one at a time (a huge frame is 126 MB); case i depends only on
    (family, seed, i)."""
    make = FAMILIES[family]
    for i in range(count):
        yield make(random.Random(f"{family}:{seed}:{i}"), i)
