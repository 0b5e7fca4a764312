"""Names a CRD declares become file names only when they are the DNS-shaped names the API server accepts: a
group, version or kind that could leave the directory is refused with one line, exit 2, and nothing is
written anywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wmaplint.schema.names import gvk_name_problem

from .helpers import JOB_MANIFEST, assert_clean, wmaplint

SCHEMA = {"type": "object", "properties": {"spec": {"type": "object", "properties": {
    "replicas": {"type": "integer"},
    "template": {"type": "object", "properties": {
        "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        "spec": {"type": "object", "properties": {"containers": {"type": "array", "items": {
            "type": "object", "x-kubernetes-preserve-unknown-fields": True}}}}}}}}}}


def _crd(group: str, kind: str = "Widget", version: str = "v1") -> str:
    crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
           "metadata": {"name": f"widgets.{group}"},
           "spec": {"group": group, "scope": "Namespaced",
                    "names": {"kind": kind, "plural": "widgets", "singular": "widget"},
                    "versions": [{"name": version, "served": True, "storage": True,
                                  "schema": {"openAPIV3Schema": SCHEMA}}]}}
    return json.dumps(crd)


def _tree_of(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("group", ["VICTIM", "../../victim", "a/b.example.com", "..", "x" * 300])
def test_new_refuses_a_group_that_is_no_dns_name(tmp_path: Path, group: str) -> None:
    victim = tmp_path / "victim-widget-v1.yaml"
    victim.write_text("precious\n")
    absolute = str(tmp_path / "victim") if group == "VICTIM" else group
    (tmp_path / "crd.json").write_text(_crd(absolute))
    (tmp_path / "w.yaml").write_text("apiVersion: x/v1\nkind: Widget\nmetadata: {name: w}\nspec: {}\n")
    before = _tree_of(tmp_path)
    run = assert_clean(wmaplint("new", "--crd", "crd.json", "--manifest", "w.yaml", cwd=tmp_path), 2)
    assert "is not a DNS subdomain" in run.stderr and run.stdout == "", str(run)
    assert victim.read_text() == "precious\n"
    assert _tree_of(tmp_path) == before


@pytest.mark.parametrize(("version", "kind", "said"), [
    ("../v1", "Widget", "version '../v1' is not a DNS label"),
    ("v1", "../../Widget", "kind '../../Widget' is not a kind name"),
    ("v1", "/Widget", "kind '/Widget' is not a kind name"),
])
def test_new_refuses_a_version_or_kind_that_is_no_name(tmp_path: Path, version: str, kind: str,
                                                       said: str) -> None:
    (tmp_path / "crd.json").write_text(_crd("example.com", kind, version))
    run = assert_clean(wmaplint("new", "--crd", "crd.json", cwd=tmp_path), 2)
    assert said in run.stderr and run.stdout == "", str(run)


@pytest.mark.parametrize("group", ["../../../outside", "/abs/olute", "a\nb", "Example.COM"])
def test_schemas_add_refuses_a_group_that_is_no_dns_name(tmp_path: Path, group: str) -> None:
    cache = tmp_path / "home" / "cache"
    (tmp_path / "crd.json").write_text(_crd(group))
    run = assert_clean(wmaplint("schemas", "add", "crd.json", cwd=tmp_path,
                                env={"WMAPLINT_CACHE_DIR": str(cache)}), 2)
    assert "is not a DNS subdomain" in run.stderr, str(run)
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["crd.json"]


def test_schemas_add_and_new_keep_real_names(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    (tmp_path / "crd.json").write_text(_crd("ray.io", "RayJob", "v1alpha1"))
    run = assert_clean(wmaplint("schemas", "add", "crd.json", cwd=tmp_path,
                                env={"WMAPLINT_CACHE_DIR": str(cache)}), 0)
    assert run.stdout == "added ray.io/v1alpha1 RayJob\n"
    assert [p.name for p in (cache / "schemas" / "added").iterdir()][0].startswith("ray.io_rayjob_")


@pytest.mark.parametrize(("gvk", "problem"), [
    (("", "v1", "Pod"), None),
    (("jobset.x-k8s.io", "v1alpha2", "JobSet"), None),
    (("serving.kserve.io", "v1beta1", "Inference-Service"), None),
    (("a..b", "v1", "X"), "group 'a..b' is not a DNS subdomain (lower-case letters, digits, '-' and '.')"),
    (("-a.io", "v1", "X"), "group '-a.io' is not a DNS subdomain (lower-case letters, digits, '-' and '.')"),
    (("a.io", "V1", "X"), "version 'V1' is not a DNS label such as v1 or v1beta1"),
    (("a.io", "1", "X"), "version '1' is not a DNS label such as v1 or v1beta1"),
    (("a.io", "v1", "9X"), "kind '9X' is not a kind name (a letter, then letters, digits or '-')"),
    (("a.io", "v1", "X."), "kind 'X.' is not a kind name (a letter, then letters, digits or '-')"),
    (("a.io", "v1", ""), "kind '' is not a kind name (a letter, then letters, digits or '-')"),
])
def test_the_one_name_check(gvk: tuple[str, str, str], problem: str | None) -> None:
    assert gvk_name_problem(*gvk) == problem


def test_job_manifest_is_still_drafted_against(tmp_path: Path) -> None:
    (tmp_path / "job.yaml").write_text(JOB_MANIFEST)
    run = wmaplint("new", "--kind", "batch/v1/Job", "--manifest", "job.yaml", cwd=tmp_path)
    assert_clean(run, 0, 1)
    assert "name: batch-job-v1" in run.stdout
