"""The schema store: its lookup order (files, then the bundle), caching, bad input, and (with ../shared) every
real schema loaded from its YAML."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import wmaplint
from wmaplint.diagnostics import BUNDLED_SCHEMAS
from wmaplint.rules.environment import bad_schema_source
from wmaplint.rules.environment.missing_schema import missing_schema
from wmaplint.rules.examples import JOB
from wmaplint.schema import ANY, SchemaStore, default_store
from wmaplint.schema.loader import MAX_DEPTH, parse_bytes, parse_file
from wmaplint.schema.store import forget_parsed
from wmaplint.schema.types import ARRAY, INTEGER, OBJECT, STRING, UNION


@pytest.mark.xdist_group("shared-crds")  # the CRDs parsed once for the tests reading them all
def test_every_real_crd_loads_with_every_served_version(shared_crds):
    assert len(shared_crds) == 32  # 31 framework CRDs + the Karta CRD
    for f, parsed in shared_crds.items():
        assert parsed.errors == [], f
        assert parsed.types, f
        for gvk, t in parsed.types.items():
            assert t.kind == OBJECT, (f, gvk)
            assert "spec" in t.properties or gvk[2] == "PodGang" or t.properties, (f, gvk)


def test_core_openapi_documents_give_the_workload_kinds(shared):
    kinds = {}
    for f in sorted((shared / "k8s-openapi").glob("*.json")):
        parsed = parse_file(f)
        assert parsed.errors == []
        kinds.update(parsed.types)
    for gvk in [("", "v1", "Pod"), ("batch", "v1", "Job"), ("apps", "v1", "Deployment"),
                ("apps", "v1", "StatefulSet"), ("apps", "v1", "ReplicaSet"), ("batch", "v1", "CronJob")]:
        assert gvk in kinds, gvk


def test_pod_type_follows_refs_and_keeps_int_or_string(store):
    (pod,) = store.lookup("", "v1", "Pod")
    spec = pod.type.member("spec")
    container = spec.member("containers").items
    assert container.member("image").kind == STRING
    port = container.member("ports").items.member("containerPort")
    assert port.kind == INTEGER
    assert pod.type.member("metadata").member("labels").additional.kind == STRING
    probe_port = container.member("livenessProbe").member("httpGet").member("port")
    assert probe_port.kind == UNION and probe_port.kinds() == {"integer", "string"}
    assert spec.member("containers").list_map_keys == ("name",)
    assert pod.raw["properties"]["spec"]["allOf"][0]["$ref"].endswith("PodSpec")
    assert "containers" in pod.resolve_ref("#/components/schemas/io.k8s.api.core.v1.PodSpec")["properties"]


def test_crd_properties_remember_their_line(store, shared):
    (jobset,) = store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    prop = jobset.type.member("spec").properties["replicatedJobs"]
    line = (shared / "crds/jobset.x-k8s.io/jobset_v1alpha2.yaml").read_text().splitlines()[prop.line - 1]
    assert line.strip() == "replicatedJobs:"
    assert prop.type.kind == ARRAY and prop.type.list_type == "map"
    assert jobset.raw["type"] == "object"


def test_two_operator_releases_both_answer_in_source_order(store):
    found = store.lookup("serving.kserve.io", "v1alpha1", "LLMInferenceService")
    assert [r.source for r in found] == [  # the lock's order
        "crds/serving.kserve.io/llminferenceservice_v1alpha2.yaml",
        "crds/serving.kserve.io/llminferenceservice_v1alpha1.yaml"]


def test_preserve_unknown_fields_make_open_objects(store):
    minimal = [r for r in store.lookup("serving.kserve.io", "v1beta1", "InferenceService")
               if r.source.endswith("minimal.yaml")][0]
    assert minimal.type.member("spec").member("predictor") is ANY or minimal.type.member("spec").member(
        "predictor").is_any


def test_warm_load_comes_from_cache_and_equals_cold(bundled_crd, tmp_path):
    crd = tmp_path / "rayjob.yaml"
    crd.write_text(bundled_crd("crds/ray.io/rayjob_v1.yaml"))
    forget_parsed()
    cold = SchemaStore([crd], cache_dir=tmp_path / "cache")
    t1 = cold.lookup("ray.io", "v1", "RayJob")[0].type
    assert list((tmp_path / "cache" / "types").iterdir())
    forget_parsed()
    warm = SchemaStore([crd], cache_dir=tmp_path / "cache")
    t2 = warm.lookup("ray.io", "v1", "RayJob")[0].type
    assert t1 is not t2
    assert sorted(t2.member("spec").properties) == sorted(t1.member("spec").properties)


def test_corrupt_cache_entries_are_rebuilt(bundled_crd, tmp_path):
    crd = tmp_path / "jobset_v1alpha2.yaml"
    crd.write_text(bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml"))
    cache = tmp_path / "cache"
    forget_parsed()
    SchemaStore([crd], cache_dir=cache).lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    entries = [*(cache / "types").rglob("*.json"), *(cache / "types").rglob("*.types")]
    assert any(p.suffix == ".types" for p in entries)
    for p in [*entries, *(cache / "raw").iterdir()]:
        p.write_bytes(b"not a record")
    (cache / "index.json").write_text("{broken")
    forget_parsed()
    again = SchemaStore([crd], cache_dir=cache).lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    assert again and "replicatedJobs" in again[0].type.member("spec").properties
    assert again[0].raw["properties"]["spec"]["type"] == "object"
    meta = next((cache / "types").rglob("meta.json")).read_bytes()
    assert meta.startswith(b"wmaplint-cache meta 6 ")
    assert json.loads(meta.split(b"\n", 1)[1])["path"].endswith("jobset_v1alpha2.yaml")


def test_lazy_lookup_parses_only_files_that_mention_the_kind(bundled_crd, tmp_path):
    for name in ("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml", "crds/ray.io/rayjob_v1.yaml",
                 "crds/milvus.io/milvus_v1beta1.yaml"):
        (tmp_path / "crds").mkdir(exist_ok=True)
        (tmp_path / "crds" / Path(name).name).write_text(bundled_crd(name))
    forget_parsed()
    s = SchemaStore([tmp_path / "crds"], cache_dir=tmp_path / "cache")
    assert s.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    metas = list((tmp_path / "cache" / "types").rglob("meta.json"))
    assert len(metas) == 1


def test_a_file_found_not_to_name_a_kind_is_not_looked_at_again(bundled_crd, tmp_path, monkeypatch):
    # The language server asks for the same kinds on every change: a file that cannot serve one is not even
    # stat'ed again for it (a file that serves some kinds is not either: a store's answers hold for its life).
    (tmp_path / "crds").mkdir()
    for name in ("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml", "crds/ray.io/rayjob_v1.yaml"):
        (tmp_path / "crds" / Path(name).name).write_text(bundled_crd(name))
    forget_parsed()
    s = SchemaStore([tmp_path / "crds"], cache_dir=tmp_path / "cache", bundle=None)
    assert [r.gvk for r in s.lookup("ray.io", "v1", "RayJob")] == [("ray.io", "v1", "RayJob")]
    looked: list[str] = []
    real_stat = os.stat
    monkeypatch.setattr(os, "stat", lambda p, *a, **k: looked.append(str(p)) or real_stat(p, *a, **k))
    again = s.lookup("ray.io", "v1", "RayJob")
    again.clear()  # a caller's list: the store's answer stays whole
    assert [r.gvk for r in s.lookup("ray.io", "v1", "RayJob")] == [("ray.io", "v1", "RayJob")]
    assert s.lookup("example.com", "v1", "Nothing") == [] and s.lookup("example.com", "v2", "Nothing") == []
    assert looked == [str(tmp_path / "crds" / "jobset_v1alpha2.yaml")]


def test_source_order_explicit_then_env_then_user_cache_then_bundle(tmp_path, monkeypatch, bundled_crd):
    user = tmp_path / "user"
    (user / "schemas").mkdir(parents=True)
    for directory, name in (("a", "crds/jobset.x-k8s.io/jobset_v1alpha2.yaml"),
                            ("b", "crds/ray.io/rayjob_v1.yaml"), ("c", "crds/milvus.io/milvus_v1beta1.yaml")):
        (tmp_path / directory).mkdir()
        (tmp_path / directory / "crd.yaml").write_text(bundled_crd(name))
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(user))
    monkeypatch.setenv("WMAPLINT_SCHEMA_PATH", f"{tmp_path / 'b'}:{tmp_path / 'c'}")
    store = default_store([str(tmp_path / "a")])
    assert store.sources == [str(tmp_path / d) for d in ("a", "b", "c")] + [str(user / "schemas")]
    (milvus,) = store.lookup("milvus.io", "v1beta1", "Milvus")
    assert milvus.source == str(tmp_path / "c" / "crd.yaml") and milvus.base is None
    (pod,) = store.lookup("", "v1", "Pod")  # no file serves it: the bundle does
    assert (pod.source, pod.base, pod.file) == ("k8s-openapi/api__v1_openapi.json", BUNDLED_SCHEMAS, None)


def test_the_bundle_serves_a_kind_only_when_no_file_does(tmp_path, bundled_crd_doc):
    import marshal

    import yaml

    doc = marshal.loads(marshal.dumps(bundled_crd_doc("crds/ray.io/rayjob_v1.yaml"), 2))  # a copy to change
    for version in doc["spec"]["versions"]:  # another release: without `entrypoint`
        del version["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["entrypoint"]
    path = tmp_path / "rayjob.yaml"
    path.write_text(yaml.dump(doc, Dumper=yaml.CSafeDumper))
    store = SchemaStore([path], cache_dir=None)
    (rayjob,) = store.lookup("ray.io", "v1", "RayJob")
    assert (rayjob.source, rayjob.base) == (str(path), None)
    assert "entrypoint" not in rayjob.type.member("spec").properties
    assert store.lookup("ray.io", "v1", "RayCluster")[0].base == BUNDLED_SCHEMAS
    rows = {(gvk, source) for gvk, _, source, _ in store.rows()}
    assert (("ray.io", "v1", "RayJob"), str(path)) in rows
    assert (("ray.io", "v1", "RayJob"), "crds/ray.io/rayjob_v1.yaml") not in rows
    assert (("ray.io", "v1", "RayCluster"), "crds/ray.io/raycluster_v1.yaml") in rows


def test_a_file_with_the_content_of_a_bundled_source_is_read_pre_parsed(tmp_path, shared, monkeypatch):
    copy = tmp_path / "rayjob.yaml"
    copy.write_bytes((shared / "crds/ray.io/rayjob_v1.yaml").read_bytes())
    forget_parsed()
    monkeypatch.setattr("wmaplint.schema.store.parse_bytes", lambda data, path: pytest.fail("parsed"))
    (rayjob,) = SchemaStore([copy], cache_dir=tmp_path / "cache").lookup("ray.io", "v1", "RayJob")
    assert (rayjob.source, rayjob.base) == (str(copy), None)
    assert "rayClusterSpec" in rayjob.type.member("spec").properties and rayjob.raw["type"] == "object"


def test_missing_version_and_kind_give_wm901_with_the_fix(store):
    assert store.lookup("ray.io", "v1", "RayJob")
    assert not store.lookup("ray.io", "v2", "RayJob")
    message, data = missing_schema(store, "ray.io", "v2", "RayJob")
    assert "ray.io/v2 RayJob" in message and "v1" in message
    assert "--crds" in message and "WMAPLINT_SCHEMA_PATH" in message
    assert "schemas add" in message
    assert data["versions"] == ["v1", "v1alpha1"]
    assert missing_schema(store, "example.com", "v1", "Widget")[1]["versions"] == []


@pytest.mark.parametrize("text", [
    b"apiVersion: [unclosed\n",
    b"kind: CustomResourceDefinition\nspec: 3\n",
    b"kind: CustomResourceDefinition\nspec: {group: g, names: {kind: K}, versions: [{name: v1}]}\n",
    b"- just\n- a list\n",
    b"\xff\xfe\x00garbage",
    b"{\"components\": {\"schemas\": {\"A\": {\"$ref\": \"#/components/schemas/Missing\"}}}}",
    b"[" * 5000 + b"]" * 5000,
])
def test_broken_sources_become_schema_errors(text):
    parsed = parse_bytes(text, "bad.yaml")
    assert parsed.errors or all(t.is_any for t in parsed.types.values())
    for err in parsed.errors:
        assert err.message and err.file == "bad.yaml"


def test_broken_yaml_error_has_a_line():
    parsed = parse_bytes(b"a: 1\nb: [\n", "x.yaml")
    assert parsed.errors[0].line == 3


def _crd(schema_yaml: str) -> bytes:
    return (
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
        "spec:\n  group: example.com\n  names: {kind: Widget}\n  versions:\n"
        "  - name: v1\n    served: true\n    schema:\n      openAPIV3Schema:\n" + schema_yaml
    ).encode()


def test_very_deep_schema_is_cut_at_the_depth_limit():
    depth = 400  # libyaml itself refuses more than 1000 nesting levels
    lines = []
    for i in range(depth):
        pad = "        " + "    " * i
        lines.append(f"{pad}type: object\n{pad}properties:\n{pad}  a:\n")
    lines.append("        " + "    " * depth + "type: string\n")
    parsed = parse_bytes(_crd("".join(lines)), "deep.yaml")
    t = parsed.types[("example.com", "v1", "Widget")]
    for _ in range(MAX_DEPTH // 2):
        t = t.member("a")
    assert t is not None
    assert any("deeper" in e.message for e in parsed.errors)


def test_cyclic_refs_terminate():
    doc = b"""{"components": {"schemas": {
      "Node": {"type": "object",
               "x-kubernetes-group-version-kind": [{"group": "g", "version": "v1", "kind": "Node"}],
               "properties": {"next": {"$ref": "#/components/schemas/Node"},
                              "name": {"type": "string"}}}}}}"""
    parsed = parse_bytes(doc, "cycle.json")
    t = parsed.types[("g", "v1", "Node")]
    assert t.member("next").member("next").member("name").kind == STRING


def test_served_false_versions_are_skipped_and_unstructured_become_any():
    text = (
        b"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
        b"spec:\n  group: example.com\n  names: {kind: Widget}\n  versions:\n"
        b"  - {name: v1, served: false, schema: {openAPIV3Schema: {type: object}}}\n"
        b"  - {name: v2, served: true}\n"
    )
    parsed = parse_bytes(text, "w.yaml")
    assert list(parsed.types) == [("example.com", "v2", "Widget")]
    assert parsed.types[("example.com", "v2", "Widget")].is_any
    assert parsed.declared_versions[("example.com", "Widget")] == ["v1", "v2"]


def test_list_kind_and_multi_document_streams(bundled_crd):
    a = bundled_crd("crds/grove.io/podclique_v1alpha1.yaml")
    b = bundled_crd("crds/grove.io/podcliqueset_v1alpha1.yaml")
    stream = a + "\n---\n" + b
    kinds = {g[2] for g in parse_bytes(stream.encode(), "s.yaml").types}
    assert kinds == {"PodClique", "PodCliqueSet"}
    import yaml
    lst = {"apiVersion": "v1", "kind": "List", "items": [yaml.safe_load(a)]}
    assert {g[2] for g in parse_bytes(yaml.safe_dump(lst).encode(), "l.yaml").types} == {"PodClique"}


def test_nonexistent_source_is_reported_not_raised(tmp_path):
    s = SchemaStore([tmp_path / "nope"], cache_dir=tmp_path / "c")
    assert s.lookup("a", "v1", "B") == []
    assert "does not exist" in s.errors[0].message


def test_a_crd_written_as_json_is_read_as_a_crd(tmp_path):
    import json as _json

    from wmaplint.schema.loader import parse_bytes

    crd = {
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "scope": "Namespaced",
            "versions": [
                {"name": "v1", "served": True, "schema": {"openAPIV3Schema": {"type": "object"}}}
            ],
        },
    }
    for name, data in (
        ("crd.json", _json.dumps(crd)),
        ("crd.yaml", _json.dumps(crd)),
        ("list.json", _json.dumps({"apiVersion": "v1", "kind": "List", "items": [crd]})),
    ):
        parsed = parse_bytes(data.encode(), str(tmp_path / name))
        assert list(parsed.types) == [("example.com", "v1", "Widget")] and not parsed.errors, name


def test_a_file_another_store_parsed_is_kept_in_this_stores_cache(bundled_crd, tmp_path, monkeypatch):
    # the parse results are the process's, each store's disk cache its own: the second store's cache must
    # get the file even though the process parsed it already (it used to stay empty, so the next run parsed
    # the file again)
    crd = tmp_path / "jobset.yaml"
    crd.write_text(bundled_crd("crds/jobset.x-k8s.io/jobset_v1alpha2.yaml"))
    forget_parsed()
    assert SchemaStore([crd], cache_dir=None).lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    assert SchemaStore([crd], cache_dir=tmp_path / "cache").lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    forget_parsed()

    def no_parse(data, path):
        raise AssertionError(f"{path} was parsed again")

    monkeypatch.setattr("wmaplint.schema.store.parse_bytes", no_parse)
    warm = SchemaStore([crd], cache_dir=tmp_path / "cache")
    (jobset,) = warm.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")
    assert "replicatedJobs" in jobset.type.member("spec").properties
    assert jobset.raw["properties"]["spec"]["type"] == "object"


def _broken_source(folder: Path) -> Path:
    """WM902's failing example as its reference runs it: a CRD file whose YAML is cut off (``input.yaml``) and
    the Job definition of the examples checked with it (``job.yaml``)."""
    folder.mkdir()
    (folder / "input.yaml").write_text(bad_schema_source.RULE.bad, encoding="utf-8")
    (folder / "job.yaml").write_text(JOB, encoding="utf-8")
    return folder


def test_a_broken_schema_source_is_reported_by_every_run(tmp_path):
    # the rule's own case: a CRD file whose YAML is cut off; the second run used to find the file in the
    # index of the user cache as serving nothing, read nothing and say nothing
    env = {**os.environ, "WMAPLINT_CACHE_DIR": str(tmp_path / "cache"), "WMAPLINT_SCHEMA_PATH": "",
           "PYTHONPATH": os.pathsep.join([str(Path(wmaplint.__file__).parents[1]),
                                          os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, "-m", "wmaplint", "check", "--format", "json", "--crds", "input.yaml",
               "job.yaml"]
    wm902 = _broken_source(tmp_path / "wm902")
    runs = [subprocess.run(command, cwd=wm902, env=env, capture_output=True, text=True, check=False)
            for _ in range(2)]
    for run in runs:
        assert run.returncode == 1, run.stderr
        (found,) = json.loads(run.stdout)["diagnostics"]
        assert (found["rule"], found["span"]["start"]["line"]) == ("WM902", 8)
        assert found["message"] == ("a schema source was skipped, its kinds are not checked: input.yaml:8: "
                                    "broken YAML: did not find expected node content")
    assert (tmp_path / "cache").is_dir()  # the runs did use the cache


def test_a_broken_schema_source_is_reported_by_a_store_reading_a_warm_cache(tmp_path):
    wm902 = _broken_source(tmp_path / "wm902")
    for _ in range(2):
        forget_parsed()
        store = SchemaStore([wm902 / "input.yaml"], cache_dir=tmp_path / "cache")
        assert store.lookup("example.com", "v1", "Job") == []
        broken = [(e.line, e.message) for e in store.errors]
        assert broken == [(8, "broken YAML: did not find expected node content")]
