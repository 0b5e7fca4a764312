"""`wmaplint tree` and `wmaplint test` on hostile manifests, definitions and suites."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB, job_with

from .helpers import JOB_MANIFEST, assert_clean, wmaplint


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def _definition(tmp_path: Path, replicas: str) -> Path:
    return _write(
        tmp_path / "def.yaml", job_with("'.spec.parallelism // 1'", "'" + replicas.replace("'", "''") + "'")
    )


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", 0),  # no workload: an empty result
        ("apiVersion: example.com/v1\nkind: Gadget\n", 2),
        ("", 0),
        ("[1, 2]\n", 2),
        ("kind: [Job]\napiVersion: {a: b}\n", 2),
    ],
    ids=["configmap", "unknown-kind", "empty", "list", "odd-kind"],
)
def test_manifests_without_a_definition(tmp_path, text: str, code: int) -> None:
    run = assert_clean(wmaplint("tree", _write(tmp_path / "m.yaml", text)), code)
    assert run.stdout == "" or "nothing" not in run.stdout


@pytest.mark.parametrize(
    "content", [b"\x00\x01\x02", b"kind: caf\xe9\n", None], ids=["binary", "latin-1", "missing"]
)
def test_unreadable_manifests(tmp_path, content: bytes | None) -> None:
    path = tmp_path / "m.yaml"
    if content is not None:
        path.write_bytes(content)
    assert_clean(wmaplint("tree", path), 2)


def test_huge_array_in_a_manifest(tmp_path) -> None:
    args = "".join(f"        - --flag-{i}\n" for i in range(200_000))
    containers = "      containers:\n      - name: main\n        image: busybox\n        args:\n" + args
    text = JOB_MANIFEST.replace("      containers: [{name: main, image: busybox}]\n", containers)
    run = assert_clean(wmaplint("tree", _write(tmp_path / "m.yaml", text), limit_memory=True), 1)
    assert "1:1: error WM718 manifest document of 4.5 MiB is larger than the 1 MiB" in run.stderr


def test_huge_json_manifest_over_the_size_limit(tmp_path) -> None:
    doc = {
        "apiVersion": "batch/v1",
        "kind": "Job",
        "metadata": {"name": "j"},
        "spec": {"template": {"spec": {"containers": [{"name": "c", "image": "x"}] * 800_000}}},
    }
    assert_clean(wmaplint("tree", _write(tmp_path / "m.json", json.dumps(doc)), limit_memory=True), 2)


@pytest.mark.parametrize(
    "extra",
    ["[" * 10_000 + "]" * 10_000, "[" * 990 + "]" * 990, "{a: " * 10_000 + "1" + "}" * 10_000],
    ids=["ten-thousand", "just-under-the-yaml-limit", "mappings"],
)
def test_deep_nesting_in_a_manifest(tmp_path, extra: str) -> None:
    text = JOB_MANIFEST.replace("  parallelism: 2\n", f"  parallelism: 2\n  extra: {extra}\n")
    assert_clean(wmaplint("tree", _write(tmp_path / "m.yaml", text)), 0, 1, 2)


def test_alias_bomb_manifest(tmp_path) -> None:
    bomb = "x-a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"x-a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9)
    )
    text = bomb + JOB_MANIFEST.replace("  parallelism: 2\n", "  parallelism: 2\n  extra: *a8\n")
    assert_clean(wmaplint("tree", _write(tmp_path / "m.yaml", text), limit_memory=True), 0, 1, 2)


@pytest.mark.parametrize(
    "expression",
    [
        "until(false; .)",
        "def f: f; f",
        "[repeat(1)] | length",
        "[range(1e9)] | length",
        "range(1e9)",
        '"x" * 10000000000 | length',
        "input",
        "$ENV.HOME | length",
        "[paths] | length",
        ".spec.parallelism / 0",
        'error("boom")',
        '"\\u12"',
    ],
    ids=[
        "until",
        "recursion",
        "repeat",
        "big-range",
        "many-outputs",
        "huge-string",
        "input",
        "env",
        "paths",
        "division-by-zero",
        "error",
        "broken-escape",
    ],
)
def test_hostile_jq_during_resolution(tmp_path, expression: str) -> None:
    manifest = _write(tmp_path / "m.yaml", JOB_MANIFEST)
    run = wmaplint("tree", manifest, "--definition", _definition(tmp_path, expression), limit_memory=True)
    assert_clean(run, 0, 1)


def test_exponential_jq_is_time_bounded(tmp_path) -> None:
    expression = " | ".join(["[.,.,.,.,.,.,.,.]"] * 8) + " | tojson | length"
    manifest = _write(tmp_path / "m.yaml", JOB_MANIFEST)
    run = wmaplint(
        "tree", manifest, "--definition", _definition(tmp_path, expression), limit_memory=True, timeout=10
    )
    assert_clean(run, 1)


@pytest.mark.parametrize("replicas", ["infinite", "-5", "nan"])
def test_impossible_replica_counts_are_findings(tmp_path, replicas: str) -> None:
    manifest = _write(tmp_path / "m.yaml", JOB_MANIFEST)
    assert_clean(wmaplint("tree", manifest, "--definition", _definition(tmp_path, replicas)), 1)


def test_broken_definition_passed_to_tree(tmp_path) -> None:
    manifest = _write(tmp_path / "m.yaml", JOB_MANIFEST)
    for content in (b"\x00\xff", b"kind: Karta\nspec: [\n", b"", ("[" * 10_000).encode()):
        definition = _write(tmp_path / "def.yaml", content)
        assert_clean(wmaplint("tree", manifest, "--definition", definition), 1, 2)


def test_pods_file_garbage(tmp_path) -> None:
    manifest = _write(tmp_path / "m.yaml", JOB_MANIFEST)
    for content in (b"\x00\xff", b"kind: PodList\nitems: 7\n", b"items: [1, {kind: Pod, metadata: 3}]\n"):
        pods = _write(tmp_path / "pods.yaml", content)
        assert_clean(wmaplint("tree", manifest, "--pods", pods), 0, 1, 2)


# -- wmaplint test ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "suite",
    [
        "definition: nope.yaml\ncases: []\n",
        ": : [\n",
        "cases: 7\n",
        "- 1\n- 2\n",
        b"\x00\xff",
        b"definition: caf\xe9\n",
        "",
        "[" * 10_000 + "]" * 10_000,
        "definition: {file: /nonexistent}\ncases: [{name: x, manifest: {file: /nonexistent}}]\n",
    ],
    ids=["no-cases", "broken", "cases-number", "list", "binary", "latin-1", "empty", "deep", "missing-files"],
)
def test_broken_suites(tmp_path, suite: str | bytes) -> None:
    path = _write(tmp_path / "x.test.yaml", suite)
    run = assert_clean(wmaplint("test", path), 1, 2)
    assert path.name in run.stdout + run.stderr


def test_suite_with_garbage_cases(tmp_path) -> None:
    _write(tmp_path / "def.yaml", JOB)
    _write(tmp_path / "bin.yaml", b"\x00\xff")
    _write(tmp_path / "deep.yaml", "[" * 10_000 + "]" * 10_000)
    suite = _write(
        tmp_path / "x.test.yaml",
        """\
definition: def.yaml
cases:
- name: odd expectations
  manifest: {kind: Job, apiVersion: batch/v1, metadata: {name: a}}
  expect: {totals: 7, status: [1], instances: 5, pods: x, findings: 3, gangs: [], matches: {}}
- 7
- {name: missing manifest, manifest: missing.yaml}
- {name: binary manifest, manifest: bin.yaml}
- {name: deep manifest, manifest: deep.yaml}
- {name: no manifest}
- {name: pods garbage, manifest: {kind: Job, apiVersion: batch/v1, metadata: {name: a}}, pods: 7}
""",
    )
    run = assert_clean(wmaplint("test", suite), 1)
    assert "odd expectations" in run.stdout


def test_suite_with_a_hanging_definition(tmp_path) -> None:
    _definition(tmp_path, "def f: f; f")
    _write(tmp_path / "m.yaml", JOB_MANIFEST)
    suite = _write(
        tmp_path / "x.test.yaml", "definition: def.yaml\ncases:\n- {name: loops, manifest: m.yaml}\n"
    )
    assert_clean(wmaplint("test", suite), 1)


def test_no_suites_and_unwritable_junit(tmp_path) -> None:
    assert_clean(wmaplint("test", tmp_path), 2)
    _write(tmp_path / "def.yaml", JOB)
    suite = _write(
        tmp_path / "x.test.yaml",
        "definition: def.yaml\ncases:\n- {name: a, manifest: "
        "{kind: Job, apiVersion: batch/v1, metadata: {name: a}}}\n",
    )
    assert_clean(wmaplint("test", suite, "--junit", tmp_path / "no" / "such" / "dir" / "j.xml"), 1, 2)
