"""The schema lock, `schemas pull/add/list` and their one-line errors."""

import hashlib

import pytest
from click.testing import CliRunner

from wmaplint.schema.commands import schemas
from wmaplint.schema.errors import SchemaError
from wmaplint.schema.lock import DEFAULT_LOCK, LockEntry, add, list_schemas, pull, read_lock
from wmaplint.schema.store import SchemaStore


def test_lock_pins_every_schema_in_sources_md(shared):
    entries = read_lock(DEFAULT_LOCK)
    sources = (shared / "SOURCES.md").read_text()
    assert len(entries) == 34
    for e in entries:
        assert f"`{e.file}`" in sources and e.sha256 in sources and e.url in sources
        assert hashlib.sha256((shared / e.file).read_bytes()).hexdigest() == e.sha256
        assert e.gvks
    by_file = {e.file: e for e in entries}
    assert ("", "v1", "Pod") in by_file["k8s-openapi/api__v1_openapi.json"].gvks
    assert ("ray.io", "v1", "RayJob") in by_file["crds/ray.io/rayjob_v1.yaml"].gvks


def test_pull_from_a_local_directory_needs_no_network(shared, tmp_path):
    def no_network(url):
        raise AssertionError(f"network used for {url}")
    written = pull(DEFAULT_LOCK, tmp_path, from_dir=shared, fetch=no_network)
    assert len(written) == 34
    store = SchemaStore([tmp_path], cache_dir=tmp_path / "parsed")
    assert store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    # second run: everything already valid
    assert len(pull(DEFAULT_LOCK, tmp_path, from_dir=shared, fetch=no_network)) == 34


def test_pull_downloads_and_rejects_a_digest_mismatch(tmp_path):
    good = b"kind: CustomResourceDefinition\n"
    entry = LockEntry("crds/x.yaml", "https://example.invalid/x.yaml", hashlib.sha256(good).hexdigest(), ())
    assert pull([entry], tmp_path, fetch=lambda url: good) == [tmp_path / "crds/x.yaml"]
    with pytest.raises(SchemaError, match="sha256 mismatch"):
        pull([entry], tmp_path / "other", fetch=lambda url: b"tampered")


def test_add_copies_a_crd_from_text_and_reports_its_gvks(shared, tmp_path):
    text = (shared / "crds/ray.io/rayjob_v1.yaml").read_text()
    assert add(text, tmp_path, is_text=True) == [("ray.io", "v1", "RayJob"), ("ray.io", "v1alpha1", "RayJob")]
    store = SchemaStore([tmp_path], cache_dir=tmp_path / "parsed")
    rows = list_schemas(store)
    assert ("ray.io/v1 RayJob", "v1,v1alpha1", rows[0][2]) == rows[0]
    with pytest.raises(SchemaError):
        add("not: a crd\n", tmp_path, is_text=True)


def test_commands_have_one_line_errors_and_exit_2(tmp_path, monkeypatch, shared):
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path))
    runner = CliRunner()
    bad = runner.invoke(schemas, ["add", "-"], input="{{{ not yaml")
    assert bad.exit_code == 2 and bad.output.count("\n") == 1 and bad.output.startswith("error:")
    missing = runner.invoke(schemas, ["pull", "--lock", str(tmp_path / "nope.yaml")])
    assert missing.exit_code == 2 and "cannot read lock file" in missing.output
    ok = runner.invoke(schemas, ["add", str(shared / "crds/jobset.x-k8s.io/jobset_v1alpha2.yaml")])
    assert ok.exit_code == 0 and "jobset.x-k8s.io/v1alpha2 JobSet" in ok.output
    listed = runner.invoke(schemas, ["list"])
    assert listed.exit_code == 0 and "JobSet" in listed.output
    pulled = runner.invoke(schemas, ["pull", "--from", str(shared)])
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
