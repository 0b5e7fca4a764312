"""The schema bundle shipped in the package: it holds exactly the lock's sources, loads every kind they serve,
stays small, and its build is deterministic and faithful to the parsed sources."""

import hashlib
import json
from pathlib import Path

import pytest
from test_compact import assert_same_graph

from wmaplint.diagnostics import BUNDLED_SCHEMAS
from wmaplint.schema import bundle_build
from wmaplint.schema.bundle import MAGIC, Bundle, shipped_bundle
from wmaplint.schema.bundle_build import FOLD_MIN_SIZE, build, folded, main, mismatches
from wmaplint.schema.loader import opened, parse_bytes
from wmaplint.schema.lock import DEFAULT_LOCK, read_lock
from wmaplint.schema.store import SchemaStore
from wmaplint.schema.types import OBJECT

BUNDLE = DEFAULT_LOCK.parent / "bundle.bin"


def test_the_committed_bundle_holds_exactly_the_lock():
    bundle = shipped_bundle()
    assert bundle is not None and bundle.path == BUNDLE
    assert mismatches(bundle) == []
    lock = read_lock()
    assert [(s.file, s.sha256, s.gvks) for s in bundle.sources] == [(e.file, e.sha256, e.gvks) for e in lock]
    assert ("agents.x-k8s.io", "v1beta1", "Sandbox") in {g for s in bundle.sources for g in s.gvks}


def test_the_bundle_is_well_under_a_megabyte():
    assert BUNDLE.stat().st_size < 640 * 1024  # zlib: lzma made it 430 KB, and decompressed a third as fast


def test_every_bundled_kind_has_a_type_and_its_raw_schema(bundle_store):
    bundle = shipped_bundle()
    assert bundle is not None
    for source in bundle.sources:
        for gvk in source.gvks:
            found = [s for s in bundle_store.lookup(*gvk) if s.source == source.file]
            assert len(found) == 1, (source.file, gvk)
            schema = found[0]
            assert schema.base == BUNDLED_SCHEMAS and schema.file is None and schema.sha256 == source.sha256
            assert isinstance(schema.raw, dict) and schema.raw, gvk
            if source.format == "crd":
                assert schema.type.kind == OBJECT and schema.raw.get("type") == "object", gvk


def test_core_kinds_resolve_their_refs_from_the_bundle(bundle_store):
    (pod,) = bundle_store.lookup("", "v1", "Pod")
    assert pod.raw["properties"]["spec"]["allOf"][0]["$ref"].endswith("PodSpec")
    spec = pod.resolve_ref("#/components/schemas/io.k8s.api.core.v1.PodSpec")
    assert "containers" in spec["properties"]
    assert pod.type.member("spec").member("containers").items.member("image").kind == "string"


def test_bundled_properties_keep_their_line_in_the_original_file(bundle_store):
    (jobset,) = bundle_store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    prop = jobset.type.member("spec").properties["replicatedJobs"]
    # line 223 of the pinned file is "              replicatedJobs:", its spec mapping starts at 60:13
    assert (prop.line, prop.column) == (223, 15) and "group of jobs" in (prop.description or "")
    assert (jobset.type.member("spec").line, jobset.type.member("spec").column) == (60, 13)


def test_a_lookup_decompresses_only_its_source_and_the_pool_chunks_it_reaches():
    bundle = Bundle(BUNDLE)
    bundle.type(next(s for s in bundle.sources if s.file.endswith("jobset_v1alpha2.yaml")),
                ("jobset.x-k8s.io", "v1alpha2", "JobSet"))
    assert len(bundle._payloads) == 1
    assert 0 < len(bundle._pool) <= len(bundle._pool_spans) // 2


# -- building --------------------------------------------------------------------------------------

WIDGET = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {{name: {plural}.example.com}}
spec:
  group: example.com
  names: {{kind: {kind}, plural: {plural}}}
  versions:
  - name: v1
    served: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              {field}: {{type: integer, description: how many}}
              template:
                type: object
                description: A pod template, long enough to be worth sharing between the two CRDs of the lock.
                properties:
                  containers:
                    type: array
                    items:
                      type: object
                      required: [name]
                      properties:
                        name: {{type: string, description: the container name, unique within the pod}}
                        image: {{type: string, description: the container image to run, with its tag}}
  - name: v0
    served: false
"""
OPENAPI = {"components": {"schemas": {
    "io.example.Thing": {"type": "object",
                         "properties": {"size": {"$ref": "#/components/schemas/io.example.Size"}},
                         "x-kubernetes-group-version-kind": [{"group": "example.com", "version": "v1",
                                                              "kind": "Thing"}]},
    "io.example.Size": {"type": "integer", "format": "int32"},
}}}


@pytest.fixture()
def small_lock(tmp_path):
    """A lock of two CRDs that share a subtree (so the pool is used) and an OpenAPI document."""
    files = {
        "crds/widget.yaml": WIDGET.format(kind="Widget", plural="widgets", field="replicas").encode(),
        "crds/gadget.yaml": ("# two lines that move every position\n#\n"
                             + WIDGET.format(kind="Gadget", plural="gadgets", field="count")).encode(),
        "openapi/things.json": json.dumps(OPENAPI).encode(),
    }
    lines = ["schemas:"]
    for name, data in files.items():
        (tmp_path / "mirror" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "mirror" / name).write_bytes(data)
        kind = {"crds/widget.yaml": "Widget", "crds/gadget.yaml": "Gadget"}.get(name, "Thing")
        lines += [f"- file: {name}", f"  url: https://example.invalid/{name}",
                  f"  sha256: {hashlib.sha256(data).hexdigest()}",
                  f"  gvks: [{{group: example.com, version: v1, kind: {kind}}}]"]
    (tmp_path / "lock.yaml").write_text("\n".join(lines) + "\n")
    return tmp_path / "lock.yaml", tmp_path / "mirror", files


@pytest.mark.parametrize("fold_from", [FOLD_MIN_SIZE, 0], ids=["large subtrees folded", "all folded"])
def test_the_build_is_deterministic_and_reads_back_what_parsing_gives(small_lock, tmp_path, monkeypatch,
                                                                      fold_from):
    monkeypatch.setattr(bundle_build, "FOLD_MIN_SIZE", fold_from)
    lock, mirror, files = small_lock
    data = build(lock, from_dir=mirror, fetch=_no_network)
    assert data.startswith(MAGIC) and build(lock, from_dir=mirror, fetch=_no_network) == data
    (tmp_path / "b.bin").write_bytes(data)
    bundle = Bundle(tmp_path / "b.bin")
    assert mismatches(bundle, lock) == []
    assert bundle._pool_spans  # the shared pod template went to the pool
    for source in bundle.sources:
        parsed = parse_bytes(files[source.file], source.file)
        assert source.declared == parsed.declared_versions
        payload = bundle.payload(source)
        assert payload["components"] == parsed.components
        for gvk in source.gvks:
            assert payload["raws"][gvk] == parsed.raws[gvk]
            assert assert_same_graph(parsed.types[gvk], bundle.type(source, gvk)) >= 2
    gadget = bundle.type(bundle.sources[1], ("example.com", "v1", "Gadget"))
    name = gadget.member("spec").member("template").member("containers").items.properties["name"]
    assert (name.line, name.column) == (30, 25)  # in its own file, though the pool holds it once


def _unfolded(tree):
    tree = opened(tree)
    if tree is None:
        return None
    line, column, members, parts = tree
    members = None if members is None else tuple(m and (m[0], m[1], _unfolded(m[2])) for m in members)
    parts = None if parts is None else {
        k: _unfolded(v) if k in ("items", "additionalProperties") else tuple(_unfolded(t) for t in v)
        for k, v in parts.items()}
    return (line, column, members, parts)


def test_a_folded_position_tree_keeps_its_lines_and_unfolds_to_itself(small_lock):
    _, _, files = small_lock
    parsed = parse_bytes(files["crds/gadget.yaml"], "crds/gadget.yaml")
    tree = parsed.positions[("example.com", "v1", "Gadget")]
    small = folded(tree)
    assert small == tree  # nothing in this CRD is large enough to fold
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bundle_build, "FOLD_MIN_SIZE", 0)
        every = folded(tree)
    spec = every[2][0][2]  # the member "spec": its line and column stay readable, the rest is bytes
    assert spec[:2] == tree[2][0][2][:2] and isinstance(spec[2], bytes) and len(spec) == 3
    assert _unfolded(every) == tree


def test_the_build_refuses_a_lock_that_does_not_match_its_files(small_lock, tmp_path):
    lock, mirror, _ = small_lock
    lock.write_text(lock.read_text().replace("kind: Gadget}", "kind: Gizmo}"))
    assert main(["build", "--lock", str(lock), "--from", str(mirror), "--out", str(tmp_path / "b.bin")]) == 2
    assert not (tmp_path / "b.bin").exists()


def test_check_names_what_differs_from_the_lock(small_lock, tmp_path, capsys):
    lock, mirror, _ = small_lock
    out = tmp_path / "b.bin"
    assert main(["build", "--lock", str(lock), "--from", str(mirror), "--out", str(out)]) == 0
    assert main(["check", "--lock", str(lock), "--bundle", str(out)]) == 0
    assert main(["check", "--bundle", str(out)]) == 1  # against the shipped lock
    assert "crds/widget.yaml: in the bundle, not in the lock" in capsys.readouterr().out


def test_a_damaged_bundle_is_one_schema_error_never_a_crash(tmp_path):
    data = BUNDLE.read_bytes()
    for damage in (data[: len(data) // 2], data.replace(b'"sources"', b'"sourcez"'), b"nothing like it"):
        (tmp_path / "b.bin").write_bytes(damage)
        store = SchemaStore([], cache_dir=None, bundle=Bundle(tmp_path / "b.bin"))
        assert store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet") == []
        assert store.lookup("", "v1", "Pod") == []
        (error,) = store.errors
        assert "reinstall wmaplint" in str(error)


def test_the_committed_bundle_is_what_the_pinned_sources_build(shared):
    assert build(DEFAULT_LOCK, from_dir=shared, fetch=_no_network) == BUNDLE.read_bytes()


@pytest.mark.parametrize("file", ["crds/ray.io/rayjob_v1.yaml", "k8s-openapi/api__v1_openapi.json",
                                  "crds/serving.kserve.io/inferenceservice_v1beta1.yaml"])
def test_bundled_types_are_the_parsed_types_node_for_node(shared, file):
    bundle = shipped_bundle()
    assert bundle is not None
    source = next(s for s in bundle.sources if s.file == file)
    parsed = parse_bytes(Path(shared, file).read_bytes(), file)
    for gvk in source.gvks:
        assert_same_graph(parsed.types[gvk], bundle.type(source, gvk))
        assert bundle.payload(source)["raws"][gvk] == parsed.raws[gvk]


def _no_network(url: str) -> bytes:
    raise AssertionError(f"network used for {url}")
