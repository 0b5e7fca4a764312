"""Hostile schema sources given with --crds, hostile CEL in CRDs, and `schemas add` / `schemas pull`."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from .helpers import WIDGET_DEFINITION, assert_clean, rules_of, widget_crd, wmaplint

DEPTH = 10_000
GVK = [{"group": "example.com", "version": "v1", "kind": "Widget"}]
WIDGET_SCHEMA = {
    "type": "object",
    "properties": {
        "spec": {
            "type": "object",
            "properties": {
                "replicas": {"type": "integer"},
                "template": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
            },
        },
        "status": {
            "type": "object",
            "properties": {
                "active": {"type": "integer"},
                "conditions": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"type": {"type": "string"}, "status": {"type": "string"}},
                    },
                },
            },
        },
    },
}


def _deep_schema_text() -> str:
    return '{"type": "object", "properties": {"x": ' * DEPTH + '{"type": "string"}' + "}}" * DEPTH


def _check_widget(tmp_path: Path, *crds: Path, extra: tuple[str, ...] = ()):
    definition = tmp_path / "widget.yaml"
    definition.write_text(WIDGET_DEFINITION)
    args: list[str | Path] = ["check", definition, "--format", "json", *extra]
    for crd in crds:
        args += ["--crds", crd]
    return wmaplint(*args, env={"WMAPLINT_SCHEMA_PATH": "", "WMAPLINT_CACHE_DIR": str(tmp_path / "cache")})


def _write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_the_widget_fixture_is_sound(tmp_path) -> None:
    crd = _write(tmp_path / "crds/crd.yaml", widget_crd(WIDGET_SCHEMA))
    run = assert_clean(_check_widget(tmp_path, crd, extra=("--select", "WM3,WM9")), 0)
    assert json.loads(run.stdout)["diagnostics"] == []


def test_crd_without_the_named_version(tmp_path) -> None:
    run = assert_clean(
        _check_widget(tmp_path, _write(tmp_path / "crds/crd.yaml", widget_crd(WIDGET_SCHEMA, "v9"))), 1
    )
    assert "WM901" in run.stdout and "v9" in run.stdout


def test_ten_thousand_deep_crd_schema(tmp_path) -> None:
    text = widget_crd(WIDGET_SCHEMA).replace('{"type": "integer"}', _deep_schema_text(), 1)
    run = assert_clean(
        _check_widget(tmp_path, _write(tmp_path / "crds/crd.yaml", text), extra=("--strict",)), 1
    )
    assert "WM901" in run.stdout  # libyaml refuses the depth, so the kind has no schema


def test_ten_thousand_deep_openapi_schema(tmp_path) -> None:
    doc = json.dumps(
        {
            "openapi": "3.0.0",
            "components": {
                "schemas": {
                    "com.example.v1.Widget": {
                        "type": "object",
                        "x-kubernetes-group-version-kind": GVK,
                        "properties": {"spec": "DEEP"},
                    }
                }
            },
        }
    )
    text = doc.replace('"DEEP"', _deep_schema_text())
    run = assert_clean(_check_widget(tmp_path, _write(tmp_path / "oa/openapi.json", text)), 1)
    assert {"WM901", "WM902"} <= set(d["rule"] for d in json.loads(run.stdout)["diagnostics"])


def test_cyclic_refs_in_openapi(tmp_path) -> None:
    ref = "#/components/schemas/"
    doc = {
        "openapi": "3.0.0",
        "components": {
            "schemas": {
                "com.example.v1.Widget": {
                    "type": "object",
                    "x-kubernetes-group-version-kind": GVK,
                    "properties": {"spec": {"$ref": ref + "A"}, "status": {"$ref": ref + "Self"}},
                },
                "A": {
                    "type": "object",
                    "properties": {
                        "b": {"$ref": ref + "B"},
                        "replicas": {"type": "integer"},
                        "template": {"$ref": ref + "A"},
                    },
                },
                "B": {"allOf": [{"$ref": ref + "A"}, {"$ref": ref + "B"}]},
                "Self": {"$ref": ref + "Self"},
            }
        },
    }
    run = _check_widget(tmp_path, _write(tmp_path / "oa/openapi.json", json.dumps(doc)))
    assert_clean(run, 0, 1)


def test_ten_thousand_long_ref_chain(tmp_path) -> None:
    ref = "#/components/schemas/"
    schemas: dict[str, object] = {
        "com.example.v1.Widget": {
            "type": "object",
            "x-kubernetes-group-version-kind": GVK,
            "properties": {"spec": {"$ref": ref + "S0"}},
        }
    }
    for i in range(DEPTH):
        schemas[f"S{i}"] = {"type": "object", "properties": {"n": {"$ref": f"{ref}S{i + 1}"}}}
    schemas[f"S{DEPTH}"] = {"type": "string"}
    text = json.dumps({"openapi": "3.0.0", "components": {"schemas": schemas}})
    run = assert_clean(_check_widget(tmp_path, _write(tmp_path / "oa/openapi.json", text)), 1)
    assert "WM902" in run.stdout


@pytest.mark.parametrize(
    "text",
    [
        '{"openapi": "3.0.0", "components": {',
        "[1, 2, 3]",
        '{"openapi": "3"}',
        '{"components": {"schemas": [1, 2]}}',
        '{"components": {"schemas": {"A": 5, "B": {"type": 7, "properties": [1]}, "C": {'
        '"x-kubernetes-group-version-kind": "Widget"}, "D": {"x-kubernetes-group-version-kind": '
        '[{"group": "example.com", "version": "v1", "kind": "Widget"}], "properties": {"spec": {"$ref": 7}, '
        '"x": {"allOf": 5}, "y": {"items": [1]}, "z": {"$ref": "#/nowhere"}}}}}}',
        b"\x00\xff" * 100,
        b'{"kind": "Widget", "x": "caf\xe9"}',
    ],
    ids=["truncated", "array", "no-components", "schemas-list", "garbage-schemas", "binary", "latin-1"],
)
def test_broken_openapi_documents(tmp_path, text: str | bytes) -> None:
    assert_clean(_check_widget(tmp_path, _write(tmp_path / "oa/openapi.json", text)), 1)


@pytest.mark.parametrize(
    "text",
    [
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: [\n",
        "kind: CustomResourceDefinition\nmetadata: {name: x}\n",
        "kind: CustomResourceDefinition\nspec: {group: example.com, names: {kind: Widget}, versions: 7}\n",
        "kind: CustomResourceDefinition\nspec: {group: example.com, names: {kind: Widget}, versions: [1, "
        "{name: v1, schema: {openAPIV3Schema: [1]}}, {name: [x]}]}\n",
        "kind: CustomResourceDefinition\nspec: {group: example.com, names: {kind: Widget}, "
        "versions: [{name: v1, schema: {openAPIV3Schema: {type: object, "
        "properties: {spec: {type: [1], properties: 7, items: 3, "
        "additionalProperties: [1], required: 5, allOf: {a: 1}, x-kubernetes-validations: 5}}}}}]}\n",
        b"kind: CustomResourceDefinition\nspec: {names: {kind: caf\xe9 Widget}}\n",
        "kind: List\nitems: [1, {kind: CustomResourceDefinition}]\n",
    ],
    ids=["broken-yaml", "no-spec", "versions-number", "odd-versions", "odd-schema", "latin-1", "list"],
)
def test_broken_crds(tmp_path, text: str | bytes) -> None:
    assert_clean(_check_widget(tmp_path, _write(tmp_path / "crds/crd.yaml", text)), 0, 1)


def test_alias_bombwidget_crd(tmp_path) -> None:
    bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9)
    )
    crd_doc = json.loads(widget_crd(WIDGET_SCHEMA).split("\n", 1)[1])
    spec = json.dumps(crd_doc["spec"]).replace(
        '"replicas": {"type": "integer"}', '"replicas": {"type": "integer", "x": *a8}'
    )
    text = bomb + f"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: {spec}\n"
    crd = _write(tmp_path / "crds/crd.yaml", text)
    assert_clean(_check_widget(tmp_path, crd), 0, 1)
    assert "WM103" in rules_of(assert_clean(wmaplint("check", crd, limit_memory=True), 1))


def test_missing_and_odd_crds_paths(tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    # a --crds path that cannot be read is one line and exit 2; an empty directory is no error
    run = assert_clean(_check_widget(tmp_path, tmp_path / "nope", tmp_path / "empty"), 2)
    assert "--crds" in run.stderr and "nope" in run.stderr
    assert_clean(_check_widget(tmp_path, tmp_path / "empty"), 1)


HOSTILE_RULES = [
    "self.template.all(a, self.template.all(b, self.template.all(c, true)))",
    "["
    + ",".join(["1"] * 10)
    + "]"
    + "".join(f".all(x{i}, [1,2,3,4,5,6,7,8,9,10]" for i in range(8))
    + ".all(z, true"
    + ")" * 9,
    "'" + "a" * 100 + "'.matches('" + "(a*)*" * 20 + "b')",
    "(" * 5_000 + "true" + ")" * 5_000,
    "1 + " * 5_000 + "1 == 1",
    "self.replicas ++ garbage",
    "\"\\u12\" == 'x'",
    "'\\xZZ' == 'x'",
    "[" * 3_000 + "]" * 3_000 + " == []",
    "self.replicas == " + "9" * 5_000,
]


def test_hostile_cel_rules_in_awidget_crd(tmp_path) -> None:
    schema = copy.deepcopy(WIDGET_SCHEMA)
    schema["properties"]["spec"]["x-kubernetes-validations"] = [  # type: ignore[index]
        {"rule": rule, "messageExpression": rule} for rule in HOSTILE_RULES
    ]
    crd = _write(tmp_path / "crds/crd.yaml", widget_crd(schema))
    run = assert_clean(wmaplint("check", crd, limit_memory=True), 1)
    assert {"WM601", "WM603"} <= rules_of(run)
    assert_clean(_check_widget(tmp_path, crd), 0, 1)


def test_hostile_cel_rules_during_resolution(tmp_path) -> None:
    schema = copy.deepcopy(WIDGET_SCHEMA)
    schema["properties"]["spec"]["x-kubernetes-validations"] = [  # type: ignore[index]
        {"rule": rule} for rule in HOSTILE_RULES
    ]
    crd = _write(tmp_path / "crds/crd.yaml", widget_crd(schema))
    definition = _write(tmp_path / "widget.yaml", WIDGET_DEFINITION)
    manifest = _write(
        tmp_path / "w.yaml",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
        "spec: {replicas: 2, template: {a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], b: {c: d}}}\n",
    )
    run = wmaplint(
        "tree",
        manifest,
        "--definition",
        definition,
        limit_memory=True,
        env={"WMAPLINT_SCHEMA_PATH": str(crd.parent), "WMAPLINT_CACHE_DIR": str(tmp_path / "cache")},
    )
    assert_clean(run, 0, 1)


# -- schemas add / pull --------------------------------------------------------------------------------


def _schemas(tmp_path: Path, *args: str | Path, stdin: bytes | None = None):
    env = {"WMAPLINT_CACHE_DIR": str(tmp_path / "cache"), "WMAPLINT_SCHEMA_PATH": ""}
    return wmaplint("schemas", *args, stdin=stdin, env=env)


@pytest.mark.parametrize(
    "data",
    [
        b"garbage: [\n",
        b"",
        b"just text\n",
        b"[1, 2]\n",
        b"kind: CustomResourceDefinition\n",
        ("[" * 10_000 + "]" * 10_000).encode(),
    ],
    ids=["broken", "empty", "text", "list", "crd-without-spec", "deep"],
)
def test_schemas_add_garbage_from_stdin(tmp_path, data: bytes) -> None:
    assert_clean(_schemas(tmp_path, "add", "-", stdin=data), 2)
    assert not (tmp_path / "cache" / "schemas").exists() or not any(
        (tmp_path / "cache" / "schemas").rglob("*.*")
    )


def test_schemas_add_missing_file_and_directory(tmp_path) -> None:
    assert_clean(_schemas(tmp_path, "add", tmp_path / "nope.yaml"), 2)
    assert_clean(_schemas(tmp_path, "add", tmp_path), 2)


def test_schemas_add_deep_crd_file(tmp_path) -> None:
    text = widget_crd(WIDGET_SCHEMA).replace('{"type": "integer"}', _deep_schema_text(), 1)
    assert_clean(_schemas(tmp_path, "add", _write(tmp_path / "crd.yaml", text)), 2)


def test_schemas_add_then_list_survives(tmp_path) -> None:
    assert_clean(_schemas(tmp_path, "add", _write(tmp_path / "crd.yaml", widget_crd(WIDGET_SCHEMA))), 0)
    _write(tmp_path / "cache" / "schemas" / "added" / "junk.yaml", b"\x00\xff junk")
    run = assert_clean(_schemas(tmp_path, "list"), 0)
    assert "example.com/v1" in run.stdout


def test_schemas_add_non_utf8_stdin(tmp_path) -> None:
    assert_clean(_schemas(tmp_path, "add", "-", stdin=b"kind: caf\xe9\n"), 2)


def test_schemas_add_binary_file_is_one_line(tmp_path) -> None:
    assert_clean(_schemas(tmp_path, "add", _write(tmp_path / "bin.yaml", b"\x00\xff" * 50)), 2)


def _lock(tmp_path: Path, data: bytes) -> Path:
    import hashlib

    text = (
        f"schemas:\n- file: crds/example.com/widget.yaml\n  url: https://127.0.0.1:9/widget.yaml\n"
        f"  sha256: {hashlib.sha256(data).hexdigest()}\n"
        "  gvks: [{group: example.com, version: v1, kind: Widget}]\n"
    )
    return _write(tmp_path / "lock.yaml", text)


def test_schemas_pull_from_directory_with_wrong_digests(tmp_path) -> None:
    good = widget_crd(WIDGET_SCHEMA).encode()
    lock = _lock(tmp_path, good)
    _write(tmp_path / "mirror" / "crds" / "example.com" / "widget.yaml", good + b"\n# tampered\n")
    run = assert_clean(_schemas(tmp_path, "pull", "--lock", lock, "--from", tmp_path / "mirror"), 2)
    assert not (tmp_path / "cache" / "schemas" / "crds" / "example.com" / "widget.yaml").exists(), run.stderr
    _write(tmp_path / "mirror" / "other.yaml", good)  # the right bytes anywhere below --from are used
    assert_clean(_schemas(tmp_path, "pull", "--lock", lock, "--from", tmp_path / "mirror"), 0)


def test_schemas_pull_from_never_downloads(tmp_path) -> None:
    good = widget_crd(WIDGET_SCHEMA).encode()
    _write(tmp_path / "mirror" / "crds" / "example.com" / "widget.yaml", good + b"\n# tampered\n")
    run = _schemas(tmp_path, "pull", "--lock", _lock(tmp_path, good), "--from", tmp_path / "mirror")
    assert_clean(run, 2)
    assert "download" not in run.stderr and "sha256" in run.stderr


@pytest.mark.parametrize(
    "lock",
    [
        "schemas: 7\n",
        "garbage: [\n",
        "schemas: [{file: /etc/passwd, url: x, sha256: y}]\n",
        "schemas: [{file: ../../x, url: x, sha256: y}]\n",
        "schemas: [1]\n",
    ],
    ids=["not-a-list", "broken", "absolute", "escaping", "entry-number"],
)
def test_schemas_pull_with_a_bad_lock(tmp_path, lock: str) -> None:
    (tmp_path / "mirror").mkdir()
    assert_clean(
        _schemas(
            tmp_path, "pull", "--lock", _write(tmp_path / "lock.yaml", lock), "--from", tmp_path / "mirror"
        ),
        2,
    )


def test_schemas_pull_from_a_missing_directory(tmp_path) -> None:
    assert_clean(_schemas(tmp_path, "pull", "--lock", _lock(tmp_path, b"x"), "--from", tmp_path / "nope"), 2)
