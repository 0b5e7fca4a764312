"""Every structured file besides definitions (configuration, pod label files, the schema lock, the bundle) is
read under the limits definitions are read with: an alias bomb, a million keys or a hundred thousand levels
is one line and exit 2, fast and in bounded memory, never a traceback."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB
from wmaplint.schema.bundle import Bundle, BundleError
from wmaplint.schema.store import SchemaStore
from wmaplint.source.data import DataError, check_value, yaml_data

from .helpers import assert_clean, wmaplint

# 432 bytes: nine levels of ten aliases each, 10^9 values once expanded
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9)
)
DEEP = "a: " + "[" * 100_000 + "]" * 100_000 + "\n"
BOUND = 20.0  # seconds: each of these ran for minutes or ran out of memory


def _run(tmp_path: Path, *args: str):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    run = wmaplint(*args, cwd=tmp_path, env={"WMAPLINT_CACHE_DIR": str(tmp_path / "cache")},
                   limit_memory=True)
    assert time.perf_counter() - start < BOUND, str(run)
    return assert_clean(run, 2)


def _repository(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "def.yaml").write_text(JOB)
    return tmp_path


def test_an_alias_bomb_in_a_pod_labels_file(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    (repo / "labels.yaml").write_text(BOMB + "kinds: *a8\n")
    assert len((repo / "labels.yaml").read_bytes()) < 600
    (repo / ".wmaplint.yaml").write_text("pod-labels: [labels.yaml]\n")
    run = _run(repo, "new", "--kind", "batch/v1/Job")
    assert re.search(r"labels\.yaml:\d+:\d+: ", run.stderr), str(run)
    assert "more than 30000 values (aliases expanded)" in run.stderr, str(run)
    records = [p for p in (repo / "cache").rglob("*") if p.is_file()]
    assert all(p.stat().st_size < 1 << 20 for p in records)  # it wrote a 39 MB record


@pytest.mark.parametrize("name", [".wmaplint.yaml", "pyproject.toml"])
def test_a_configuration_with_a_million_keys(tmp_path: Path, name: str) -> None:
    repo = _repository(tmp_path)
    if name == "pyproject.toml":
        keys = "".join(f'"WM{i}" = "off"\n' for i in range(1_000_000))
        (repo / name).write_text("[tool.wmaplint.severity]\n" + keys)
    else:
        (repo / name).write_text("severity:\n" + "".join(f"  k{i}: off\n" for i in range(1_000_000)))
    run = _run(repo, "check", "def.yaml")
    assert f"{name}: cannot read configuration: file is" in run.stderr, str(run)


INDENTED_BOMB = "severity:\n" + BOMB.replace("a", "  a", 1).replace("\na", "\n  a")


@pytest.mark.parametrize("text", [INDENTED_BOMB, DEEP, "select: [" * 5000 + "]" * 5000, "{" * 200 + "}" * 200,
                                  "a: " + "- " * 500 + "x\n"])
def test_a_configuration_of_aliases_or_depth(tmp_path: Path, text: str) -> None:
    repo = _repository(tmp_path)
    (repo / ".wmaplint.yaml").write_text(text)
    run = _run(repo, "check", "def.yaml")
    assert ".wmaplint.yaml" in run.stderr, str(run)
    said = ("more than", "not valid YAML", "levels deep", "must be a plain value")
    assert any(words in run.stderr for words in said), str(run)


def test_a_deep_toml_configuration(tmp_path: Path) -> None:
    repo = _repository(tmp_path)
    (repo / "pyproject.toml").write_text("[tool.wmaplint]\nselect = " + "[" * 100_000 + "]" * 100_000 + "\n")
    run = _run(repo, "check", "def.yaml")
    assert "pyproject.toml" in run.stderr, str(run)


def test_a_lock_nested_a_hundred_thousand_levels(tmp_path: Path) -> None:
    (tmp_path / "lock.yaml").write_text("schemas: " + "[" * 100_000 + "]" * 100_000 + "\n")
    (tmp_path / "from").mkdir()
    run = _run(tmp_path, "schemas", "pull", "--lock", "lock.yaml", "--from", "from")
    assert "lock.yaml" in run.stderr and "RecursionError" not in run.stderr, str(run)


def test_an_alias_bomb_lock(tmp_path: Path) -> None:
    (tmp_path / "lock.yaml").write_text(BOMB + "schemas: *a8\n")
    (tmp_path / "from").mkdir()
    run = _run(tmp_path, "schemas", "pull", "--lock", "lock.yaml", "--from", "from")
    said = "lock.yaml:1: cannot read lock file: more than 100000 values (aliases expanded)"
    assert said in run.stderr, str(run)


def test_the_reader_keeps_what_safe_load_gives() -> None:
    text = "a: &x {b: 1, c: [yes, null, 1.5, '2']}\nd: *x\ne:\n  <<: *x\n  b: 2\nf: 2001-12-14\n"
    import yaml

    assert yaml_data(text, "t.yaml") == yaml.safe_load(text)
    assert yaml_data("", "t.yaml") is None


def test_the_reader_says_where(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"^t.yaml:3:1: not valid YAML \(did not find expected node"):
        yaml_data("a: 1\nb: [\n", "t.yaml")
    with pytest.raises(DataError, match=r"^t.yaml: more than 30000 values; it is not read$"):
        check_value({str(i): i for i in range(40_000)}, "t.yaml")


@pytest.mark.parametrize("damage", ["truncated", "garbage", "empty", "header only"])
def test_a_damaged_bundle_is_one_line(tmp_path: Path, damage: str) -> None:
    from wmaplint.shipped_data import shipped

    data = (shipped("schemas") / "bundle.bin").read_bytes()
    bad = {"truncated": data[: len(data) // 2], "garbage": b"\x00\xff" * 5000, "empty": b"",
           "header only": data[: data.index(b"\n", 30) + 1]}[damage]
    path = tmp_path / "bundle.bin"
    path.write_bytes(bad)
    store = SchemaStore([], cache_dir=None, bundle=Bundle(path))
    assert store.lookup("batch", "v1", "Job") == [] and store.rows() == []
    [error] = store.errors
    assert isinstance(error, BundleError) and "reinstall wmaplint" in str(error) and "\n" not in str(error)


def test_a_rule_pack_of_a_million_keys(tmp_path: Path) -> None:
    # read as a definition is (20 MB, positioned): 16 MB of keys took 21 s; a pack is read as a document is
    repo = _repository(tmp_path)
    (repo / "pack.yaml").write_text("".join(f"k{i}: {i}\n" for i in range(1_000_000)))
    (repo / ".wmaplint.yaml").write_text("rule-packs: [pack.yaml]\n")
    start = time.perf_counter()
    run = assert_clean(wmaplint("check", "def.yaml", cwd=repo, limit_memory=True,
                                env={"WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}), 1, 2)
    assert time.perf_counter() - start < 5.0, str(run)
    assert "cannot read rule pack: file is 15 MB, over the 1 MB limit" in run.stdout + run.stderr, str(run)


def test_a_configuration_key_of_fifty_thousand_parts(tmp_path: Path) -> None:
    # 100 kB of `a.a.a...b = 1`: the TOML parser's work grows with the square of a dotted key's parts (3 GB)
    repo = _repository(tmp_path)
    (repo / "pyproject.toml").write_text("[tool.wmaplint]\n" + "a." * 50_000 + "b = 1\n")
    run = _run(repo, "check", "def.yaml")
    assert "pyproject.toml: a dotted key of more than 100 parts; it is not read" in run.stderr, str(run)


def test_a_suite_of_a_million_keys(tmp_path: Path) -> None:
    # read without the document limits, 16 MB of keys took 13 s and 1.6 GB before `test` said what was wrong
    repo = _repository(tmp_path)
    (repo / "s.test.yaml").write_text("".join(f"k{i}: {i}\n" for i in range(1_000_000)))
    start = time.perf_counter()
    run = assert_clean(wmaplint("test", "--update", "s.test.yaml", cwd=repo, limit_memory=True,
                                env={"WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}), 2)
    assert time.perf_counter() - start < 5.0, str(run)
    said = run.stdout.splitlines()[0]
    assert said == "ERROR s.test.yaml: the suite is 15.0 MiB, over the 1 MiB a suite may be; not run", said


def test_a_suite_of_too_many_values_says_suite(tmp_path: Path) -> None:
    # 160 kB, 40,000 values: over a suite's 30,000, and the line says so (it said "manifest document")
    repo = _repository(tmp_path)
    (repo / "s.test.yaml").write_text("definition: def.yaml\ncases: [{manifest: m.yaml}]\n"
                                      "padding: [" + "x, " * 40_000 + "]\n")
    run = assert_clean(wmaplint("test", "s.test.yaml", cwd=repo, limit_memory=True,
                                env={"WMAPLINT_CACHE_DIR": str(tmp_path / "cache")}), 2)
    said = run.stdout.splitlines()[0]
    assert said == "ERROR s.test.yaml: the suite holds more than 30,000 values; not run", str(run)
    (repo / "s.test.yaml").write_text("a: 1\n" + "---\na: 1\n" * 6_000)  # 50 kB, 6,001 documents
    run = assert_clean(wmaplint("test", "s.test.yaml", cwd=repo), 2)
    said = run.stdout.splitlines()[0]
    assert said == ("ERROR s.test.yaml: a suite is one YAML mapping with `definition` and `cases`, found "
                    "more than 5,000 documents"), str(run)
