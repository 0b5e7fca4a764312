"""The schema lock, `schemas pull/add/list` and their one-line errors."""

import hashlib

import pytest
from click.testing import CliRunner

from wmaplint.diagnostics import CACHED_SCHEMAS
from wmaplint.schema.commands import schemas
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.lock import DEFAULT_LOCK, LockEntry, add, list_schemas, pull, read_lock
from wmaplint.schema.store import SchemaStore, forget_parsed


def test_lock_pins_every_schema_in_sources_md(shared):
    entries = read_lock(DEFAULT_LOCK)
    sources = (shared / "SOURCES.md").read_text()
    assert len(entries) == 35
    for e in entries:
        assert f"`{e.file}`" in sources and e.sha256 in sources and e.url in sources
        assert hashlib.sha256((shared / e.file).read_bytes()).hexdigest() == e.sha256
        assert e.gvks
    by_file = {e.file: e for e in entries}
    assert ("", "v1", "Pod") in by_file["k8s-openapi/api__v1_openapi.json"].gvks
    assert ("ray.io", "v1", "RayJob") in by_file["crds/ray.io/rayjob_v1.yaml"].gvks


def test_pull_from_a_local_directory_needs_no_network_and_no_parse(shared, tmp_path, monkeypatch):
    cache, parsed = tmp_path / "schemas", tmp_path / "parsed"
    store = SchemaStore([], cache_dir=parsed)
    written = pull(DEFAULT_LOCK, cache, from_dir=shared, fetch=_no_network, store=store)
    assert len(written) == 35
    forget_parsed()
    monkeypatch.setattr("wmaplint.schema.store.parse_bytes", _no_parse)  # the bundle holds every pulled file
    store = SchemaStore([cache], cache_dir=parsed, cached_root=cache)
    (jobset,) = store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    assert (jobset.source, jobset.base) == ("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml", CACHED_SCHEMAS)
    assert store.lookup("", "v1", "Pod")[0].resolve_ref("#/components/schemas/io.k8s.api.core.v1.PodSpec")
    assert not (parsed / "types").exists()  # nothing to keep: the bundle is the pre-parsed form
    # second run: everything already valid
    assert len(pull(DEFAULT_LOCK, cache, from_dir=shared, fetch=_no_network)) == 35


def test_pull_downloads_and_rejects_a_digest_mismatch(tmp_path):
    good = b"kind: CustomResourceDefinition\n"
    entry = LockEntry("crds/x.yaml", "https://example.invalid/x.yaml", hashlib.sha256(good).hexdigest(), ())
    assert pull([entry], tmp_path, fetch=lambda url: good) == [tmp_path / "crds/x.yaml"]
    with pytest.raises(SchemaError, match="sha256 mismatch"):
        pull([entry], tmp_path / "other", fetch=lambda url: b"tampered")


def test_add_copies_a_crd_from_text_and_reports_its_gvks(bundled_crd, tmp_path):
    text = bundled_crd("crds/ray.io/rayjob_v1.yaml")
    assert add(text, tmp_path, is_text=True) == [("ray.io", "v1", "RayJob"), ("ray.io", "v1alpha1", "RayJob")]
    store = SchemaStore([tmp_path], cache_dir=tmp_path / "parsed", bundle=None, cached_root=tmp_path)
    rows = list_schemas(store)
    assert rows[0][:2] == ("ray.io/v1 RayJob", "v1,v1alpha1")
    assert rows[0][2].startswith("cached: added/ray.io_rayjob_") and str(tmp_path) not in rows[0][2]
    with pytest.raises(SchemaError):
        add("not: a crd\n", tmp_path, is_text=True)


def test_add_keeps_the_pre_parsed_form_so_no_run_parses_again(bundled_crd, tmp_path, monkeypatch):
    parsed = tmp_path / "parsed"
    add(bundled_crd("crds/ray.io/rayjob_v1.yaml"), tmp_path / "schemas", is_text=True,
        store=SchemaStore([], cache_dir=parsed))
    forget_parsed()
    monkeypatch.setattr("wmaplint.schema.store.parse_bytes", _no_parse)
    store = SchemaStore([tmp_path / "schemas"], cache_dir=parsed, bundle=None)
    (rayjob,) = store.lookup("ray.io", "v1", "RayJob")
    assert "rayClusterSpec" in rayjob.type.member("spec").properties
    assert rayjob.raw["properties"]["spec"]["type"] == "object"  # `tree` and `test` read the raw dicts


def test_pull_keeps_the_pre_parsed_form(bundled_crd, tmp_path, monkeypatch):
    crd = bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml").encode()
    jobset = _pulled_then_served_unparsed(crd, tmp_path, monkeypatch)
    assert (jobset.source, jobset.base, jobset.file) == (
        "crds/jobset.yaml", CACHED_SCHEMAS, str(tmp_path / "cache" / "crds/jobset.yaml"))
    assert "replicatedJobs" in jobset.type.member("spec").properties


@pytest.mark.parametrize("first", ["added", "served from another cache"])
def test_pull_keeps_the_pre_parsed_form_after_the_process_met_the_file(bundled_crd, tmp_path, monkeypatch,
                                                                       first):
    # The orders the suite once ran in: the content was added to, or served from, another store's cache
    # first, leaving the process's parse memo without its raw dicts; pull must still fill its own cache.
    forget_parsed()
    crd = bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml").encode()
    (tmp_path / "elsewhere.yaml").write_bytes(crd)
    if first == "added":
        other = SchemaStore([], cache_dir=tmp_path / "other")
        add(str(tmp_path / "elsewhere.yaml"), tmp_path / "user", store=other)
    else:
        for _ in range(2):  # parsed, then read back from that store's cache alone
            forget_parsed()
            SchemaStore([tmp_path / "elsewhere.yaml"], cache_dir=tmp_path / "other").lookup(
                "jobset.x-k8s.io", "v1alpha2", "JobSet")
    jobset = _pulled_then_served_unparsed(crd, tmp_path, monkeypatch)
    assert "replicatedJobs" in jobset.type.member("spec").properties
    assert "replicatedJobs" in jobset.raw["properties"]["spec"]["properties"]


def _pulled_then_served_unparsed(crd: bytes, tmp_path, monkeypatch):
    """The JobSet that `schemas pull` of ``crd`` into a cache serves in a new run, with parsing forbidden."""
    (tmp_path / "mirror").mkdir()
    (tmp_path / "mirror" / "jobset.yaml").write_bytes(crd)
    entry = LockEntry("crds/jobset.yaml", "https://example.invalid/j", hashlib.sha256(crd).hexdigest(), ())
    pull([entry], tmp_path / "cache", from_dir=tmp_path / "mirror", fetch=_no_network,
         store=SchemaStore([], cache_dir=tmp_path / "parsed"))
    forget_parsed()
    monkeypatch.setattr("wmaplint.schema.store.parse_bytes", _no_parse)
    store = SchemaStore([tmp_path / "cache"], cache_dir=tmp_path / "parsed", cached_root=tmp_path / "cache")
    (jobset,) = store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    return jobset


def _no_parse(data, path):
    raise AssertionError(f"{path} was parsed again")


def _no_network(url):
    raise AssertionError(f"network used for {url}")


def test_commands_have_one_line_errors_and_exit_2(tmp_path, monkeypatch, bundled_crd):
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path))
    runner = CliRunner()
    bad = runner.invoke(schemas, ["add", "-"], input="{{{ not yaml")
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and bad.output.startswith("error:")
    missing = runner.invoke(schemas, ["pull", "--lock", str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2
    assert f"--lock {tmp_path / 'nope.yaml'}: no such file or directory" in missing.output
    (tmp_path / "jobset.yaml").write_text(bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml"))
    ok = runner.invoke(schemas, ["add", str(tmp_path / "jobset.yaml")])
    assert ok.exit_code == 0 and "jobset.x-k8s.io/v1alpha2 JobSet" in ok.output
    listed = runner.invoke(schemas, ["list"])
    assert listed.exit_code == 0 and "JobSet" in listed.output
    rows = {line.split("  [")[0].strip(): line for line in listed.output.splitlines()}
    assert "cached: added/jobset.x-k8s.io_jobset_" in rows["jobset.x-k8s.io/v1alpha2 JobSet"]
    assert rows["v1 Pod"].endswith("bundled: k8s-openapi/api__v1_openapi.json")


def test_pull_command_takes_the_pinned_files_from_a_directory(tmp_path, monkeypatch, shared):
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path))
    pulled = CliRunner().invoke(schemas, ["pull", "--from", str(shared)])
    assert pulled.exit_code == 0, pulled.output
    assert (tmp_path / "schemas/crds/ray.io/rayjob_v1.yaml").is_file()


def test_pull_from_a_directory_never_downloads_and_names_both_digests(tmp_path):
    good, bad = b"kind: A\n", b"kind: B\n"
    (tmp_path / "mirror" / "crds").mkdir(parents=True)
    (tmp_path / "mirror" / "crds" / "a.yaml").write_bytes(bad)
    entry = LockEntry("crds/a.yaml", "https://example.invalid/a.yaml", hashlib.sha256(good).hexdigest(), ())

    def fetch(url: str) -> bytes:
        raise AssertionError("the network was used")

    with pytest.raises(SchemaError) as raised:
        pull([entry], tmp_path / "cache", from_dir=tmp_path / "mirror", fetch=fetch)
    message = str(raised.value)
    assert "crds/a.yaml" in message and entry.sha256 in message and hashlib.sha256(bad).hexdigest() in message


def test_schema_errors_are_one_line():
    assert str(SchemaError("while scanning\n  in x, line 1\nfound junk", "f.yaml")) == (
        "f.yaml: while scanning; in x, line 1; found junk"
    )
