"""`check`, `tree` and `test` over the same schema sources read one store: one object, the same answers."""

from pathlib import Path

import pytest

from wmaplint.config import Overrides
from wmaplint.engine import Options, lint_text
from wmaplint.resolve.run import resolve_files
from wmaplint.schema.store import SchemaStore, forget_shared_stores, shared_store
from wmaplint.suites.runner import run_suites

WIDGET = ("example.com", "v1", "Widget")

CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
              template: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              active: {type: integer}
"""

DEFINITION = """\
apiVersion: run.ai/v1alpha1
kind: Karta
metadata: {name: widget}
spec:
  structureDefinition:
    rootComponent:
      name: widget
      kind: {group: example.com, version: v1, kind: Widget}
      specDefinition: {podTemplateSpecPath: .spec.template}
      scaleDefinition: {replicasPath: '.spec.size // 1'}
      statusDefinition:
        statusMappings:
          running: [{byExpression: {expression: '(.status.active // 0) > 0', expectedResult: "true"}}]
"""

MANIFEST = """\
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
  sise: 2
  template: {spec: {containers: [{name: c, image: busybox}]}}
"""

SUITE = """\
definition: widget.karta.yaml
cases:
- name: one widget
  manifest: widget.yaml
  expect:
    totals: {pods: 1}
"""


@pytest.fixture()
def lookups(monkeypatch):
    """Every lookup of a Widget: the store that answered and what it answered (source, content digest)."""
    seen: list[tuple[SchemaStore, list[tuple[str, str]]]] = []
    original = SchemaStore.lookup

    def recording(self, group, version, kind):
        found = original(self, group, version, kind)
        if (group, version, kind) == WIDGET:
            seen.append((self, [(s.source, s.sha256) for s in found]))
        return found

    monkeypatch.setattr(SchemaStore, "lookup", recording)
    forget_shared_stores()
    yield seen
    forget_shared_stores()


def test_check_tree_and_test_read_the_same_store(tmp_path: Path, lookups):
    crd = tmp_path / "widget-crd.yaml"
    crd.write_text(CRD)
    definition = tmp_path / "widget.karta.yaml"
    definition.write_text(DEFINITION)
    (tmp_path / "widget.yaml").write_text(MANIFEST)
    suite = tmp_path / "widget.test.yaml"
    suite.write_text(SUITE)

    lint_text(DEFINITION, str(definition), Options(overrides=Overrides(extra_crds=(str(crd),))))
    checked = list(lookups)
    lookups.clear()
    manifest = str(tmp_path / "widget.yaml")
    tree = resolve_files([manifest], [str(definition)], use_catalog=False, crds=[str(crd)])
    resolved = list(lookups)
    lookups.clear()
    [result] = run_suites([suite], crds=(str(crd),))
    tested = list(lookups)

    store = shared_store([str(crd)])
    answer = [(str(crd), checked[0][1][0][1])]
    for seen in (checked, resolved, tested):
        assert seen, "each command looks the Widget up"
        assert all(s is store for s, _ in seen)
        assert all(found == answer for _, found in seen)
    # and the one store's answer is what each command acts on: the misspelled field is found by both
    assert [d.rule for d in tree.diagnostics] == ["WM607"]
    assert result.cases[0].differences == ["findings: expected [], got ['WM607']"]


def test_a_new_user_schema_dir_is_a_new_store(tmp_path: Path, monkeypatch):
    forget_shared_stores()
    before = shared_store()
    assert shared_store() is before
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path / "other"))
    assert shared_store() is not before
