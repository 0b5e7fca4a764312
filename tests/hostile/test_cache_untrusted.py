"""The user cache is untrusted (a CI cache restored from elsewhere, a directory someone else can write): what
is read from it is data, framed and checked; a record that is damaged, foreign, of the wrong shape, a link, a
FIFO or a device is ignored and rebuilt; a cache directory the user does not own alone is not used; writes and
eviction never follow a link planted in it."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import stat
from pathlib import Path

import pytest

from wmaplint import cache_records, cachefiles
from wmaplint.schema.cache import ParsedCache
from wmaplint.schema.loader import ParsedFile
from wmaplint.schema.types import OBJECT, SchemaType
from wmaplint.shipped_data import shipped

from .fuzz import environment, run_case  # before planted: its cases build on the generators'
from .generators import Case
from .helpers import WIDGET_DEFINITION, assert_clean, widget_crd, wmaplint
from .planted import GROWING, RULED_CRD, SUSPECT
from .test_schema_inputs import WIDGET_SCHEMA

GVK = ("example.com", "v1", "Widget")


class _Plant:
    """A pickle that, unpickled, creates the marker file: code run from the cache."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture
def widget(tmp_path: Path) -> dict[str, Path]:
    crd = tmp_path / "crd.yaml"
    crd.write_text(widget_crd(WIDGET_SCHEMA))
    definition = tmp_path / "def.yaml"
    definition.write_text(WIDGET_DEFINITION.replace(".spec.replicas", ".spec.replicaz"))
    cache = tmp_path / "cache"
    return {"crd": crd, "def": definition, "cache": cache, "home": tmp_path}


def _check(w: dict[str, Path], *extra: str):  # type: ignore[no-untyped-def]
    return wmaplint("check", "--format", "json", "--crds", w["crd"], w["def"], *extra, cwd=w["home"],
                    env={"WMAPLINT_CACHE_DIR": str(w["cache"]), "WMAPLINT_SCHEMA_PATH": ""},
                    limit_memory=True, timeout=30)


def _findings(run) -> list[tuple[str, int, str]]:  # type: ignore[no-untyped-def]
    found = json.loads(run.stdout)["diagnostics"]
    return [(d["rule"], d["span"]["start"]["line"], d["message"]) for d in found]


def _record_paths(w: dict[str, Path]) -> dict[str, Path]:
    sha = hashlib.sha256(w["crd"].read_bytes()).hexdigest()
    name = hashlib.sha256("\0".join(GVK).encode()).hexdigest()[:24]
    old, new = w["cache"] / "parsed", w["cache"] / "parsed-6"
    return {
        "old meta": old / "types" / sha / "meta.pickle", "old type": old / "types" / sha / f"{name}.pickle",
        "meta": new / "types" / sha / "meta.json", "type": new / "types" / sha / f"{name}.types",
        "raw": new / "raw" / f"{sha}.json", "index": new / "index.json",
    }


def _clean(w: dict[str, Path]) -> list[tuple[str, int, str]]:
    run = assert_clean(_check(w), 1)
    found = _findings(run)
    assert any("replicaz" in message for _, _, message in found), found
    return found


@pytest.mark.parametrize("where", ["old meta", "old type", "meta", "type", "index"])
def test_a_planted_pickle_runs_no_code(widget: dict[str, Path], where: str) -> None:
    expected = _clean(widget)
    marker = widget["home"] / "pwned"
    for path in _record_paths(widget).values():  # a cold cache: the attacker's records only
        path.unlink(missing_ok=True)
    target = _record_paths(widget)[where]
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    target.write_bytes(pickle.dumps({"version": 5, "parsed": _Plant(marker), "type": _Plant(marker)}))
    run = assert_clean(_check(widget), 1)
    assert not marker.exists(), "a cache record ran code"
    assert _findings(run) == expected


def _framed(kind: str, payload: bytes, version: int = 6) -> bytes:
    return cachefiles.frame(kind, version, payload)


WRONG = {
    "garbage": lambda kind: os.urandom(4096),
    "truncated": lambda kind: _framed(kind, b'{"path": "x", "format": "crd", "gv')[:-5],
    "bad checksum": lambda kind: _framed(kind, b"{}").replace(b"{}", b"[]"),
    "json of another shape": lambda kind: _framed(kind, b'{"path": 7, "gvks": [[1]], "files": {"a": [1]}}'),
    "rows of another shape": lambda kind: _framed(kind, b'{"rows": 2, "kinds": ["object", "object"]}\n'
                                                  b'[1,2,3]\n{"a": 1}'),
    "deep json": lambda kind: _framed(kind, b"[" * 100_000 + b"]" * 100_000),
    "empty": lambda kind: b"",
}


@pytest.mark.parametrize("damage", sorted(WRONG))
def test_a_damaged_or_foreign_record_is_ignored_and_rebuilt(widget: dict[str, Path], damage: str) -> None:
    expected = _clean(widget)
    paths = _record_paths(widget)
    for name in ("meta", "type", "raw", "index"):
        kind = "types" if name == "type" else name
        paths[name].write_bytes(WRONG[damage](kind))
    run = assert_clean(_check(widget, "-v"), 1)
    if damage != "rows of another shape":  # a table of the right frame: its nodes are read one by one
        assert _findings(run) == expected
    assert len([line for line in run.stderr.splitlines() if "cache record" in line]) <= 4, run.stderr
    assert _findings(assert_clean(_check(widget), 1)) == expected  # rebuilt: the next run reads it
    assert paths["meta"].read_bytes().startswith(b"wmaplint-cache meta 6 ")


@pytest.mark.parametrize("special", ["fifo", "dev-zero", "link-out", "directory"])
def test_a_record_that_is_no_regular_file_is_never_read(widget: dict[str, Path], special: str) -> None:
    expected = _clean(widget)
    outside = widget["home"] / "outside.json"
    outside.write_bytes(_framed("meta", b"{}"))
    for name in ("meta", "type", "index"):
        path = _record_paths(widget)[name]
        path.unlink()
        if special == "fifo":
            os.mkfifo(path)
        elif special == "dev-zero":
            path.symlink_to("/dev/zero")
        elif special == "link-out":
            path.symlink_to(outside)
        else:
            path.mkdir()
    run = assert_clean(_check(widget), 1)  # a FIFO hung the run, /dev/zero filled its memory
    assert _findings(run) == expected
    assert outside.read_bytes() == _framed("meta", b"{}")


def test_a_cache_directory_others_can_write_is_not_used(widget: dict[str, Path]) -> None:
    expected = _clean(widget)
    parsed = widget["cache"] / "parsed-6"
    for path in _record_paths(widget).values():
        path.unlink(missing_ok=True)
    os.chmod(parsed, 0o777)
    run = assert_clean(_check(widget), 1)
    assert _findings(run) == expected
    refusals = [line for line in run.stderr.splitlines() if "is writable by others" in line]
    assert refusals == [f"wmaplint: cache directory {parsed} is writable by others (mode 0777; `chmod go-w "
                        f"{parsed}` fixes it); the cache is not used"], run.stderr
    assert not list(parsed.rglob("*.json")) and not list(parsed.rglob("*.types"))  # nothing written there


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_a_cache_directory_of_another_user_is_not_used(widget: dict[str, Path]) -> None:
    expected = _clean(widget)
    os.chown(widget["cache"], 65534, 65534)
    run = assert_clean(_check(widget), 1)
    assert _findings(run) == expected
    said = f"wmaplint: cache directory {widget['cache']} is owned by another user (uid 65534); the cache is "
    assert said + "not used" in run.stderr.splitlines()


def test_a_linked_cache_subdirectory_is_not_used(widget: dict[str, Path]) -> None:
    expected = _clean(widget)
    elsewhere = widget["home"] / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    parsed = widget["cache"] / "parsed-6"
    parsed.rename(elsewhere / "parsed-6")
    parsed.symlink_to(elsewhere / "parsed-6")
    run = assert_clean(_check(widget), 1)
    assert _findings(run) == expected
    assert f"wmaplint: cache directory {parsed} is a link or not a directory; the cache is not used" in \
        run.stderr.splitlines()


def test_the_cache_directories_are_made_private(widget: dict[str, Path]) -> None:
    _clean(widget)
    for directory in [widget["cache"], *[p for p in widget["cache"].rglob("*") if p.is_dir()]]:
        assert stat.S_IMODE(directory.stat().st_mode) & 0o077 == 0, directory


def test_a_record_write_never_follows_a_planted_temporary_link(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path / "cache"))
    cachefiles.forget()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    path = cache_records.record_path("packs", b"x")
    assert path is not None
    path.parent.mkdir(parents=True, mode=0o700)
    for name in (f"{path.name}.{os.getpid()}.tmp", ".tmp-", f"{path.name}.tmp"):
        (path.parent / name).symlink_to(victim)
    cache_records.write(path, {"rules": {}})
    assert victim.read_text() == "precious\n"
    assert cache_records.read(path) == {"rules": {}}


def test_eviction_never_follows_a_linked_entry(tmp_path: Path) -> None:
    victims = tmp_path / "victims"
    victims.mkdir()
    for i in range(3):
        (victims / f"keep{i}.txt").write_text("precious\n" * 1000)
    cache = ParsedCache(tmp_path / "cache", max_bytes=10**9)
    gvk = ("example.com", "v1", "Kind")
    sha = "a" * 64
    cache.store_types(sha, ParsedFile("k.yaml", "crd", {gvk: SchemaType(OBJECT)}))
    (tmp_path / "cache" / "types" / ("b" * 64)).symlink_to(victims)
    (tmp_path / "cache" / "raw").mkdir(mode=0o700)
    (tmp_path / "cache" / "raw" / f"{'c' * 64}.json").symlink_to(victims / "keep0.txt")
    cache.max_bytes = 1
    cache.evict(keep=sha)
    assert sorted(p.name for p in victims.iterdir()) == ["keep0.txt", "keep1.txt", "keep2.txt"]
    assert all(p.read_text() == "precious\n" * 1000 for p in victims.iterdir())
    assert not (tmp_path / "cache" / "types" / ("b" * 64)).is_symlink()  # the link itself is gone


def test_eviction_never_reaches_through_a_linked_cache_directory(tmp_path: Path) -> None:
    # the parsed cache a link to a directory elsewhere: refused for reads and writes, and so for eviction
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "types" / ("b" * 64)).mkdir(parents=True)
    (elsewhere / "types" / ("b" * 64) / "meta.json").write_text("precious\n" * 1000)
    (elsewhere / "raw").mkdir()
    (elsewhere / "raw" / f"{'c' * 64}.json").write_text("precious\n")
    (tmp_path / "cache").mkdir(mode=0o700)
    (tmp_path / "cache" / "parsed-6").symlink_to(elsewhere)
    cachefiles.forget()
    cache = ParsedCache(tmp_path / "cache" / "parsed-6", max_bytes=1, base=tmp_path / "cache")
    cache.store_types("a" * 64, ParsedFile("k.yaml", "crd", {GVK: SchemaType(OBJECT)}))
    assert cache.evict() == []
    assert (elsewhere / "types" / ("b" * 64) / "meta.json").read_text() == "precious\n" * 1000
    assert (elsewhere / "raw" / f"{'c' * 64}.json").read_text() == "precious\n"


FORGED_MODELS = [{"value": {"kinds": [["not", "a", "kind"]]}}, {"value": {"kinds": {"a": 7}}},
                 {"value": {"kinds": [{"group": 7}]}}, {"value": 7}]


@pytest.mark.parametrize("value", FORGED_MODELS)
def test_a_record_of_a_controller_model_file_of_another_shape_is_rebuilt(widget: dict[str, Path], monkeypatch,
                                                                         value: object) -> None:
    # a valid frame and checksum around data no model file gives: read as damaged, the file parsed again. The
    # shipped model is read from its compiled form (controllers/compiled.py, which checks its own sha256);
    # a project's model files go through the cache: here a copy of a shipped one, named by the project
    model = widget["home"] / "kueue.yaml"
    model.write_bytes((shipped("schemas") / "controllers" / "kueue.yaml").read_bytes())
    (widget["home"] / ".wmaplint.yaml").write_text("controllers: [kueue.yaml]\n", encoding="utf-8")

    def draft():  # type: ignore[no-untyped-def]
        return assert_clean(wmaplint("new", "--crd", widget["crd"], cwd=widget["home"],
                                     env={"WMAPLINT_CACHE_DIR": str(widget["cache"])}, timeout=60), 0, 1, 2)

    expected = draft()
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(widget["cache"]))
    record = cache_records.record_path("controllers", model.read_bytes())
    assert record is not None and record.is_file(), record  # written by the first run
    forged = cachefiles.frame("controllers", cache_records.RECORD_VERSION, json.dumps(value).encode())
    record.write_bytes(forged)
    run = draft()
    assert (run.returncode, run.stdout) == (expected.returncode, expected.stdout)
    assert (run.returncode, run.stdout) == (draft().returncode, expected.stdout)  # and rebuilt
    assert record.read_bytes() != forged


@pytest.mark.parametrize("body", [b"[" + b"{}," * 9_000_000 + b"{}]", b"[" + b"0.5," * 7_000_000 + b"1]"])
def test_a_record_of_many_small_values_is_not_read(tmp_path: Path, body: bytes) -> None:
    # under the size cap, but each byte or two a value: read, 28 MB became 800 MB of objects
    from .fuzz import MEMORY_BOUND, environment, run_case
    from .generators import Case, Content
    from .planted import CACHE_ENV, PARSED, WIDGET_CRD, _warm

    files: dict[str, Content] = {"crd.yaml": WIDGET_CRD, "def.yaml": WIDGET_DEFINITION}
    for name in _warm():
        kind = "index" if name == "index.json" else "raw" if name.startswith("raw/") else \
            "types" if name.endswith(".types") else "meta"
        files[f"{PARSED}/{name}"] = cachefiles.frame(kind, 6, body)
    case = Case("t", "many", files, ["check", "--crds", "crd.yaml", "def.yaml"], env=dict(CACHE_ENV))
    outcome = run_case(case, tmp_path, environment(tmp_path))
    assert outcome.ok and outcome.returncode == 1, str(outcome)
    assert outcome.peak_bytes < MEMORY_BOUND // 2, outcome.peak_bytes


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
@pytest.mark.parametrize("owned", ["uid", "mode"])
def test_schemas_add_never_writes_into_a_cache_not_used(widget: dict[str, Path], owned: str) -> None:
    # the whole cache another user's (or writable by all): `schemas add` wrote its copy there all the same
    widget["cache"].mkdir()
    if owned == "uid":
        os.chown(widget["cache"], 65534, 65534)
    else:
        os.chmod(widget["cache"], 0o777)
    run = assert_clean(wmaplint("schemas", "add", widget["crd"], cwd=widget["home"],
                                env={"WMAPLINT_CACHE_DIR": str(widget["cache"])}), 2, bad_inputs=2)
    assert "the cache is not used" in run.stderr and "nothing was added" in run.stderr, str(run)
    assert not list(widget["cache"].rglob("*"))


# -- forged plans -----------------------------------------------------------------------------------------

TINY_COSTS = [[16, 1], [256, 1], [4096, 1]]


def _forge(records: Path, kind: str, change) -> int:  # type: ignore[no-untyped-def]
    """Rewrite every record of ``kind`` with ``change`` applied to its JSON, under a valid checksum."""
    forged = 0
    for path in sorted((records / kind).glob("*.json")):
        payload = cachefiles.unframe(path.read_bytes(), kind, cache_records.RECORD_VERSION)
        assert payload is not None
        value = json.loads(payload)
        change(value)
        path.write_bytes(cachefiles.frame(kind, cache_records.RECORD_VERSION, json.dumps(value).encode()))
        forged += 1
    return forged


def _forged_run(tmp_path: Path, files: dict[str, str], args: list[str], kind: str,
                change):  # type: ignore[no-untyped-def]
    env = environment(tmp_path)
    clean = run_case(Case("forged", "clean", files, args), tmp_path, env)
    assert clean.ok, str(clean)
    assert _forge(tmp_path / "cache" / "records", kind, change), "no record was written"
    forged = run_case(Case("forged", "forged", files, args), tmp_path, env)
    assert forged.ok, str(forged)  # 20 s, 500 MB, exit 0/1/2, no traceback
    return clean, forged


def test_a_forged_plan_of_a_crd_rule_is_held_to_its_cost(tmp_path: Path) -> None:
    # a record of a CRD rule with a valid checksum, tiny costs and a doubling plan: 1.6 GB, then MemoryError
    def change(value: dict) -> None:  # type: ignore[type-arg]
        value["plan"], value["costs"] = GROWING, TINY_COSTS

    files = {"crd.yaml": RULED_CRD, "def.yaml": WIDGET_DEFINITION, "w.json": SUSPECT}
    clean, forged = _forged_run(tmp_path, files, ["tree", "--crds", "crd.yaml", "--definition", "def.yaml",
                                                  "w.json"], "cel", change)
    assert "replicas must not be negative" in clean.stdout + clean.stderr, str(clean)
    assert (forged.stdout, forged.stderr, forged.returncode) == (clean.stdout, clean.stderr, clean.returncode)
    [record] = (tmp_path / "cache" / "records" / "cel").glob("*.json")
    assert b'"+' not in record.read_bytes() and b"_+_" not in record.read_bytes()  # written again, compiled


def test_a_forged_plan_of_a_pack_rule_is_held_to_its_cost(tmp_path: Path) -> None:
    def change(value: dict) -> None:  # type: ignore[type-arg]
        for assertion, _ in value["rules"].values():
            assertion["plan"], assertion["costs"] = GROWING, TINY_COSTS

    from wmaplint.rules.examples import job_with_children

    files = {"def.yaml": job_with_children(3, scaled=False, selected=True)}
    clean, forged = _forged_run(tmp_path, files, ["check", "--format", "json", "def.yaml"], "packs", change)
    assert "KBP001" in clean.stdout, str(clean)
    assert (forged.stdout, forged.returncode) == (clean.stdout, clean.returncode)


def test_a_forged_plan_stops_in_the_evaluator_with_little_made() -> None:
    import tracemalloc

    from wmaplint.cel.interpret import MADE_FREE, OverBound, program_of

    program = program_of(GROWING, ("self",))
    assert program is not None
    tracemalloc.start()
    try:
        with pytest.raises(OverBound):
            program.evaluate({"self": {}}, admitted=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * MADE_FREE
