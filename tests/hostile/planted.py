"""Generators of what a CI cache or a repository plants beside the definitions: the user cache
(``caches``) and the structured files other than definitions (``configfiles``). Each case has a cache of its
own, in its home (``../cache`` from its directory), so what one case plants no other case reads.

``caches`` starts from the records a clean run writes for the Widget CRD (made here with the package's own
cache writer, so their names and frames are the real ones) and plants, in their places: pickles, JSON of the
wrong shape under a valid checksum, bad checksums, foreign headers, huge and deep records, FIFOs, links to
/dev/zero and out of the cache, directories; ``.tmp`` links beside them; linked entries for eviction in a
cache past its cap; cache directories that are links, owned by another user or writable by others; records
of the shipped controller model of the wrong shape. The bundle is part of the installed package, which no
environment variable replaces: it is trusted and not planted.

``configfiles`` gives every structured file the tool reads besides definitions (``.wmaplint.yaml``,
``pyproject.toml``, ``controllers:`` and ``pod-labels:`` files, the lock of ``schemas pull --lock``, rule
packs, suites) sizes and shapes: alias bombs, a million keys, 100,000 levels, the wrong top-level shape, bytes
that are no text, FIFOs and links out of the repository (to the secret beside it)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from wmaplint import __version__, cachefiles
from wmaplint.schema.cache import FORMAT_VERSION, ParsedCache
from wmaplint.schema.loader import parse_bytes

from .generators import REPO, Case, Content, Link, Sparse, Special, _definition, _mutate_lines
from .helpers import WIDGET_DEFINITION, widget_crd
from .test_schema_inputs import WIDGET_SCHEMA

CACHE = "../cache"  # the case's cache directory, from its directory
CACHE_ENV = {"WMAPLINT_CACHE_DIR": "{home}/cache", "WMAPLINT_SCHEMA_PATH": "", "XDG_CACHE_HOME": "{home}/xdg"}
PARSED = f"{CACHE}/parsed-{FORMAT_VERSION}"
WIDGET_CRD = widget_crd(WIDGET_SCHEMA)
SHA = hashlib.sha256(WIDGET_CRD.encode()).hexdigest()
_POD = {"spec": {"containers": [{"name": "c", "image": "x"}]}}
WIDGET = json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                     "spec": {"replicas": 2, "template": _POD}})


class _Plant:
    """Unpickled, it makes ``../pwned`` beside the case: code run from the cache writes outside its place."""

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, ("touch ../pwned",))


@functools.lru_cache(maxsize=1)
def _warm() -> dict[str, bytes]:
    """The records a clean run writes for the Widget CRD: name below the parsed cache -> framed bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "parsed"
        cache = ParsedCache(root)
        parsed = parse_bytes(WIDGET_CRD.encode(), "crd.yaml")
        cache.store_types(SHA, parsed)
        cache.store_raw(SHA, parsed.raws, parsed.components)
        cache.store_index({"crd.yaml": [0, len(WIDGET_CRD), SHA, [list(g) for g in parsed.types], {}]})
        cachefiles.forget()
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _kind(name: str) -> str:
    return "index" if name == "index.json" else "raw" if name.startswith("raw/") else \
        "types" if name.endswith(".types") else "meta"


# Values that have broken readers of data: the wrong type in every position, huge and negative numbers, names
# that would be paths, deep nesting.
_WRONG: list[Any] = [None, 7, -1, 2**70, 1.5, "x", "", "../../../../outside.txt", "/dev/zero", [], {}, [[1]],
                     [None], {"a": [1]}, True, ["example.com", "v1"], [["a", "b", "c"], 7], "\x00",
                     {"$ref": "#/components/schemas/loop"}, {"type": ["object"], "properties": []}]


def _mutate_json(rng: random.Random, value: Any, depth: int = 0) -> Any:
    """``value`` with one node somewhere in it replaced by a value of the wrong shape."""
    if depth > 12 or rng.random() < 0.15 or not isinstance(value, (dict, list)) or not value:
        return rng.choice(_WRONG)
    if isinstance(value, dict):
        key = rng.choice(sorted(value, key=str))
        return {**value, key: _mutate_json(rng, value[key], depth + 1)}
    i = rng.randrange(len(value))
    return [*value[:i], _mutate_json(rng, value[i], depth + 1), *value[i + 1:]]


def _payload(record: bytes) -> bytes:
    return record.partition(b"\n")[2]


def _damaged(rng: random.Random, name: str, record: bytes) -> Content:
    """One damaged or hostile version of the record ``name`` (its framed bytes ``record``)."""
    kind, payload = _kind(name), _payload(record)
    depth = name.count("/") + 2  # from the record's directory up to the case's home
    up = "../" * depth
    choice = rng.randrange(15)
    if choice == 0:
        return pickle.dumps({"version": 5, "parsed": _Plant(), "type": _Plant()})
    if choice == 1:
        return cachefiles.frame(kind, FORMAT_VERSION, pickle.dumps(_Plant()))
    if choice in (2, 3, 4):  # a valid frame around data of the wrong shape: only the shape checks stand
        lines = payload.split(b"\n")
        i = rng.randrange(len(lines))
        try:
            lines[i] = json.dumps(_mutate_json(rng, json.loads(lines[i]))).encode()
        except ValueError:
            lines[i] = json.dumps(rng.choice(_WRONG)).encode()
        return cachefiles.frame(kind, FORMAT_VERSION, b"\n".join(lines))
    if choice == 5:  # the payload changed, its checksum not
        i = rng.randrange(len(record))
        return record[:i] + bytes([record[i] ^ 0x20]) + record[i + 1:]
    if choice == 6:
        return rng.choice([cachefiles.frame(kind, FORMAT_VERSION - 1, payload),
                           cachefiles.frame("other", FORMAT_VERSION, payload), b"wmaplint-cache\n" + payload,
                           b"wmaplint-cache " + b"x " * 100_000 + b"\n", b"", os.urandom(2048)])
    if choice == 7:
        return Sparse(rng.choice([cachefiles.MAX_RECORD_BYTES + 1, 1 << 34]))
    if choice == 8:  # under the size cap, but of many values or many levels
        make = rng.choice([lambda: b"[" + b"{}," * 3_000_000 + b"{}]",
                           lambda: b"[" + b"{}," * 9_000_000 + b"{}]",
                           lambda: b"[" + b"0.5," * 7_000_000 + b"1]",
                           lambda: b"[" * 200_000 + b"]" * 200_000,
                           lambda: b'{"rows": 1000000000, "kinds": []}\n',
                           lambda: b'"' + b"\\u0000" * 1_000_000 + b'"'])
        body = make()
        return cachefiles.frame(kind, FORMAT_VERSION, body)
    if choice == 9:
        return Special("fifo")
    if choice == 10:
        return Link("/dev/zero")
    if choice == 11:
        return Link(up + rng.choice(["secret.yaml", "outside.txt", "case/crd.yaml"]))
    if choice == 12:
        return Link(rng.choice([os.path.basename(name), "."]))  # a loop, or its own directory
    if choice == 13:
        return json.dumps(_mutate_json(rng, json.loads(payload.split(b"\n")[0] or b"{}"))).encode()
    return record  # left whole: another record is the damaged one


# A CRD whose spec has a validation rule, for the records of its compiled CEL.
_SPEC = {"replicas": {"type": "integer"},
         "template": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}
_RULE = {"rule": "self.replicas >= 0", "message": "replicas must not be negative"}
RULED_SCHEMA = {"type": "object", "properties": {"spec": {
    "type": "object", "properties": _SPEC, "x-kubernetes-validations": [_RULE]}}}
RULED_CRD = widget_crd(RULED_SCHEMA)
SUSPECT = json.dumps({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"},
                       "spec": {"replicas": -1, "template": _POD}})
# Plans a forged record may hold, each costed at almost nothing: a string doubled at each of 36 steps
# (137 GB), a list doubled likewise, 10,000 steps of a growing join, a plan of no known form, none at all.
GROWING = ["comp", "x", "", ["list", [["const", 1]] * 36], "a", ["const", "ab"], ["const", True],
            ["call", "_+_", None, [["ident", "a"], ["ident", "a"]]],
            ["call", "_==_", None, [["call", "size", None, [["ident", "a"]]], ["const", 0]]]]
_FORGED_PLANS: list[Any] = [
    GROWING,
    [*GROWING[:5], ["list", [["const", "x"]]], *GROWING[6:]],
    ["comp", "x", "", ["call", "split", ["const", "a" * 10_000], [["const", ""]]], "a", ["const", "ab"],
     ["const", True], ["call", "join", ["list", [["ident", "a"], ["ident", "a"]]], []], ["const", True]],
    ["nope", 1], None,
]


@functools.lru_cache(maxsize=1)
def _clean_records() -> dict[str, bytes]:
    """The CEL records a clean run writes (a CRD rule's, the shipped pack's): name below the cache's records
    directory -> framed bytes. Made by the real command line, so their names and frames are the real ones."""
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        for name, text in (("crd.yaml", RULED_CRD), ("def.yaml", WIDGET_DEFINITION), ("w.json", SUSPECT)):
            (home / name).write_text(text)
        env = {**os.environ, "WMAPLINT_CACHE_DIR": str(home / "cache"), "WMAPLINT_SCHEMA_PATH": ""}
        for args in (_COMMANDS[1], ["check", "def.yaml"]):
            subprocess.run([sys.executable, "-m", "wmaplint", *args], cwd=home, env=env, capture_output=True,
                           check=False, timeout=120)
        records = home / "cache" / "records"
        return {str(p.relative_to(records)): p.read_bytes() for kind in ("cel", "packs")
                for p in sorted((records / kind).glob("*.json"))}


def _forged_plans(rng: random.Random) -> dict[str, Content]:
    """The clean CEL records with plans that grow without end (or are no plans) and costs of almost
    nothing, under valid checksums."""
    files: dict[str, Content] = {}
    for name, record in _clean_records().items():
        kind = name.split("/")[0]
        value = json.loads(_payload(record))
        programs = [value] if kind == "cel" else [
            entry for pair in value["rules"].values() for entry in pair if entry is not None]
        for program in programs:
            program["plan"] = rng.choice(_FORGED_PLANS)
            program["costs"] = [[16, 1], [256, 1], [4096, rng.choice([1, 10_000])]]
        files[f"{CACHE}/records/{name}"] = cachefiles.frame(kind, 1, json.dumps(value).encode())
    return files


def _controller_records(rng: random.Random) -> dict[str, Content]:
    """Records of the shipped controller model, framed and checked, holding data of the wrong shape."""
    files: dict[str, Content] = {}
    for path in rng.sample(sorted((REPO / "schemas" / "controllers").glob("*.yaml")), 3):
        text = path.read_text(encoding="utf-8")
        digest = hashlib.sha256(__version__.encode())
        digest.update(b"\0" + text.encode("utf-8", "surrogatepass"))
        value = rng.choice([{"value": rng.choice(_WRONG)}, {"value": {"kinds": rng.choice(_WRONG)}},
                            {"value": {"framework": "x", "kinds": [rng.choice(_WRONG)]}}, [], 7])
        files[f"{CACHE}/records/controllers/{digest.hexdigest()}.json"] = cachefiles.frame(
            "controllers", 1, json.dumps(value).encode())
    return files


# What a cache directory holds at each level: a refused directory is never written, its siblings may be.
_LEVELS = {CACHE: ("records", "schemas", f"parsed-{FORMAT_VERSION}"), PARSED: ("index.json", "raw", "types"),
           f"{PARSED}/types": (SHA,), f"{PARSED}/types/{SHA}": ()}


def _beside(refused: str) -> set[str]:
    """The places of the cache a run may write when ``refused`` (a directory of it) is not used."""
    places: set[str] = set()
    for level, names in _LEVELS.items():
        if refused.startswith(level + "/"):
            places |= {f"{level}/{name}" for name in names if not refused.startswith(f"{level}/{name}")}
    return places


_COMMANDS = [
    ["check", "--format", "json", "--crds", "crd.yaml", "def.yaml"],
    ["tree", "--crds", "crd.yaml", "--definition", "def.yaml", "w.json"],
    ["new", "--crd", "crd.yaml"],
    ["new", "--crd", "crd.yaml", "--output", "draft.yaml"],
    ["schemas", "add", "crd.yaml"],
    ["schemas", "list"],
]


def caches(rng: random.Random, index: int) -> Case:
    files: dict[str, Content] = {"crd.yaml": WIDGET_CRD, "def.yaml": WIDGET_DEFINITION, "w.json": WIDGET,
                                 "draft.yaml": "# an old draft\n"}
    records = _warm()
    for name in rng.sample(sorted(records), rng.randint(1, len(records))):
        files[f"{PARSED}/{name}"] = _damaged(rng, name, records[name])
    writable = {CACHE, "draft.yaml"}
    modes: dict[str, int] = {}
    owners: dict[str, int] = {}
    extra = rng.randrange(8)
    if extra == 0:  # temporary names a write might use, each a link to a file beside the case
        for name in (f"types/{SHA}/meta.json.tmp", ".tmp-", "index.json.tmp", f"raw/.tmp-{SHA}",
                     f"types/{SHA}/.tmp-x"):
            files[f"{PARSED}/{name}"] = Link("../" * (name.count("/") + 2) + "outside.txt")
    elif extra == 1:  # past the cap: eviction runs, and meets links to a directory and a file beside the case
        files["../victims/keep.txt"] = "precious\n"
        files[f"{PARSED}/raw/{'d' * 64}.json"] = Sparse(200 << 20)
        files[f"{PARSED}/types/{'b' * 64}"] = Link("../../../victims")
        files[f"{PARSED}/raw/{'c' * 64}.json"] = Link("../../../victims/keep.txt")
        files[f"{PARSED}/types/{'e' * 64}/meta.json"] = Link("../../../../victims/keep.txt")
    elif extra in (2, 3):  # a cache directory someone else can write, or owned by someone else: never used
        where = rng.choice([CACHE, PARSED, f"{PARSED}/types", f"{PARSED}/types/{SHA}"])
        files.setdefault(f"{where}/.keep", "")
        if extra == 2:
            modes[where] = rng.choice([0o777, 0o770, 0o702, 0o1777])
        else:
            owners[where] = 65534
        writable = {"draft.yaml", *_beside(where)}
    elif extra == 4:  # a cache directory that is a link to one elsewhere (its records moved there)
        files = {(f"../elsewhere/{k[len(PARSED) + 1:]}" if k.startswith(PARSED + "/") else k): v
                 for k, v in files.items()}
        files["../elsewhere/types/x"] = "x\n"
        files[PARSED] = Link("../elsewhere")
        writable = {CACHE, "draft.yaml"}
    elif extra == 5:
        files.update(_controller_records(rng))
    command = list(rng.choice(_COMMANDS))
    if extra == 6:  # records of compiled CEL whose plans grow without end, costed at almost nothing
        files.update(_forged_plans(rng))
        files.update({"crd.yaml": RULED_CRD, "w.json": SUSPECT})
        command = rng.choice([list(_COMMANDS[1]), ["check", "--format", "json", "def.yaml"]])
    return Case("caches", f"{index}", files, command, env=dict(CACHE_ENV), modes=modes, owners=owners,
                writable=writable)


# --- configuration files ---------------------------------------------------------------------------------

def _alias_bomb(rng: random.Random) -> str:
    width, levels = rng.choice([(9, 9), (10, 7), (2, 30)])
    lines = ["a0: &a0 [" + ", ".join(["x"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def _shape(rng: random.Random, toml: bool = False) -> str | bytes | Content:
    """A file of a hostile size or shape (YAML, or TOML for pyproject.toml)."""
    choice = rng.randrange(14)
    if toml:
        return rng.choice([
            "[tool.wmaplint]\n" + "".join(f"k{i} = {i}\n" for i in range(rng.choice([100_000, 1_000_000]))),
            "[tool.wmaplint]\nselect = " + "[" * 100_000 + "]" * 100_000 + "\n",
            "[tool.wmaplint]\nselect = [" + ", ".join(['"WM1"'] * 200_000) + "]\n",
            "[tool]\nwmaplint = 7\n", "[tool.wmaplint]\nignore = {a = 1}\n", "\x00\x01\x02", b"\xff\xfe[\x00",
            "[tool.wmaplint\n", "[tool.wmaplint]\n" + "a." * 50_000 + "b = 1\n",
            Link("../secret.yaml"), Special("fifo"), Link("/dev/zero"),
        ])
    if choice == 0:
        return _alias_bomb(rng)
    if choice == 1:
        return "".join(f"k{i}: {i}\n" for i in range(rng.choice([100_000, 1_000_000])))
    if choice == 2:
        return "{a: " * 100_000 + "1" + "}" * 100_000 + "\n"
    if choice == 3:
        return "a:\n" + "".join(" " * (i + 1) + "- \n" for i in range(rng.choice([200, 5000])))
    if choice == 4:
        return "[" * 100_000 + "]" * 100_000 + "\n"
    if choice == 5:
        return rng.choice(["", "~\n", "7\n", "- a\n- b\n", "'text'\n", "!!binary AAAA\n", "---\n---\n",
                           "a: 1\na: 2\n", "!!python/object/apply:os.system ['touch ../pwned']\n",
                           "? [a, b]\n: c\n", "{[1]: 2}\n", "<<: *undefined\n", "a: !!set {x, y}\n"])
    if choice == 6:
        return rng.choice([b"\xff\xfe\x00\x00a\x00\x00\x00", b"\x00" * 4096, os.urandom(4096),
                           b"a: \xc3\x28\n"])
    if choice == 7:
        return Link("../secret.yaml")  # out of the repository, to the secret beside it
    if choice == 8:
        return Link("/dev/zero")
    if choice == 9:
        return Special("fifo")
    if choice == 10:
        return "x: '" + "y" * (2 << 20) + "'\n"
    if choice == 11:
        return "a: [" + ", ".join(["{b: [1, 2, 3]}"] * 40_000) + "]\n"
    if choice == 12:
        return "".join(f"&a{i} k{i}: *a{max(i - 1, 0)}\n" for i in range(20_000))
    return "\n".join(f"{'  ' * i}k{i}:" for i in range(rng.choice([150, 3000]))) + " 1\n"


_POD_LABELS = "kinds:\n  batch/v1/Job:\n    labels:\n      batch.kubernetes.io/job-name: workload\n"
_LOCK = ("schemas:\n- file: crds/example.com/widget.yaml\n  url: https://example.invalid/w.yaml\n"
         f"  sha256: {SHA}\n  gvks:\n  - {{group: example.com, version: v1, kind: Widget}}\n")


def configfiles(rng: random.Random, index: int) -> Case:
    files: dict[str, Content] = {".git/HEAD": "ref: main\n", "def.yaml": _definition(rng),
                                 "crd.yaml": WIDGET_CRD, "wdef.yaml": WIDGET_DEFINITION}
    which = rng.choice(["config", "pyproject", "controllers", "pod-labels", "lock", "pack", "suite"])
    env = dict(CACHE_ENV)
    if which == "config":
        files[".wmaplint.yaml"] = _shape(rng)
        command = rng.choice([["check", "def.yaml"], ["check", "-v", "."], ["new", "--crd", "crd.yaml"]])
    elif which == "pyproject":
        files["pyproject.toml"] = _shape(rng, toml=True)
        command = ["check", "-v", "def.yaml"]
    elif which in ("controllers", "pod-labels"):
        name = rng.choice(["labels.yaml", "../secret.yaml", "/dev/zero", "labels.yaml"])
        files[".wmaplint.yaml"] = f"{which}: [{json.dumps(name)}]\n"
        files["labels.yaml"] = _shape(rng) if rng.random() < 0.8 else _mutate_lines(rng, _POD_LABELS, 3)
        command = rng.choice([["check", "def.yaml"], ["new", "--crd", "crd.yaml"],
                              ["new", "--crd", "crd.yaml", "--config", ".wmaplint.yaml"]])
    elif which == "lock":
        files["lock.yaml"] = _shape(rng) if rng.random() < 0.8 else _mutate_lines(rng, _LOCK, 3)
        files["from/crds/example.com/widget.yaml"] = WIDGET_CRD
        command = ["schemas", "pull", "--lock", "lock.yaml", "--from", "from"]
    elif which == "pack":
        files["pack.yaml"] = _shape(rng)
        files[".wmaplint.yaml"] = "rule-packs: [pack.yaml]\n"
        command = ["check", "def.yaml"]
    else:
        files["s.test.yaml"] = _shape(rng)
        command = rng.choice([["test", "s.test.yaml"], ["test", "--junit", "out.xml", "s.test.yaml"],
                              ["test", "--update", "s.test.yaml"]])
    writable = {CACHE, "out.xml"} | ({"s.test.yaml"} if "--update" in command else set())
    return Case("configfiles", f"{index}", files, command, env=env, writable=writable)
