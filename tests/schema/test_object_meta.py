"""The object's own metadata: served by the API server as ObjectMeta at the root and in embedded resources,
whatever the CRD declares; pruned under a nested `metadata` declared as an object without properties."""

import pytest
from worded import message_of, rule_of

from wmaplint.jq.inference.queries import members_at, types_at
from wmaplint.schema.loader import parse_bytes
from wmaplint.schema.types import STRING
from wmaplint.typecheck.expectations import Expectation, check_expression

METADATA_PATHS = (
    ".metadata.name",
    '.metadata.labels["app.kubernetes.io/name"]',
    ".metadata.annotations.owner",
    ".metadata.namespace",
    ".metadata.uid",
    ".metadata.ownerReferences[0].kind",
    ".metadata.creationTimestamp",
    ".apiVersion",
    ".kind",
)


@pytest.fixture(scope="module")
def object_meta(store):
    meta = store.lookup("", "v1", "Pod")[0].type.properties["metadata"].type
    assert meta.ref == "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    return meta


def test_the_root_metadata_of_every_kind_is_object_meta(store, object_meta):
    """Every bundled CRD (nearly all declare `metadata: {type: object}`) and every core kind."""
    checked = set()
    for gvk in store.gvks():
        for schema in store.lookup(*gvk):
            for path in METADATA_PATHS:
                found = check_expression(path, Expectation(), schema.type, object_meta=object_meta)
                assert found == [], (gvk, schema.source, path, found)
            checked.add(gvk)
    assert ("jobset.x-k8s.io", "v1alpha2", "JobSet") in checked and ("apps", "v1", "Deployment") in checked
    assert len(checked) > 60


def test_a_misspelled_metadata_field_is_still_an_unknown_field(store, object_meta):
    jobset = store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")[0].type
    (finding,) = check_expression(".metadata.lables.app", Expectation(), jobset, object_meta=object_meta)
    assert rule_of(finding) == "WM301" and "ObjectMeta" in message_of(finding)
    assert finding.data["suggestions"] == ["labels"]


def test_without_core_schemas_the_root_metadata_is_unknown_not_wrong(store):
    jobset = store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")[0].type
    assert check_expression(".metadata.labels.app", Expectation(), jobset) == []


def test_editor_hover_and_completion_see_object_meta(store, object_meta):
    jobset = store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")[0].type
    text = ".metadata.labels"
    info = types_at(text, jobset, text.index("labels"), object_meta=object_meta)
    assert info is not None and info.name == "labels" and info.declared[0][0] is object_meta
    members = members_at(".metadata.", jobset, len(".metadata."), object_meta=object_meta)
    assert "ownerReferences" in [p.name for p in members]


def test_nested_metadata_without_properties_is_pruned_by_the_api_server(store, object_meta):
    """Grove's resource claim templates carry `metadata: {type: object}` (controller-gen without
    generateEmbeddedObjectMeta): the API server prunes its fields on write, so reading them yields null."""
    pcs = store.lookup("grove.io", "v1alpha1", "PodCliqueSet")[0].type
    text = ".spec.template.resourceClaimTemplates[]?.templateSpec.metadata.labels"
    (finding,) = check_expression(text, Expectation(), pcs, object_meta=object_meta)
    assert rule_of(finding) == "WM301" and finding.data == {"pruned": True}
    assert text[finding.start : finding.end] == "labels"
    said = message_of(finding)
    assert "prunes every field under it" in said and "does not exist" not in said
    # a template whose metadata the CRD declares (generateEmbeddedObjectMeta) keeps its labels
    jobset = store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")[0].type
    labels = '.spec.replicatedJobs[]?.template.spec.template.metadata.labels["a"]'
    assert check_expression(labels, Expectation(), jobset, object_meta=object_meta) == []


EMBEDDING_CRD = b"""\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: wrappers.example.com}
spec:
  group: example.com
  names: {kind: Wrapper, plural: wrappers}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object, properties: {name: {type: string, maxLength: 63}}}
          spec:
            type: object
            properties:
              resource:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
              declared:
                type: object
                x-kubernetes-embedded-resource: true
                properties:
                  metadata: {type: object}
                  spec: {type: object, properties: {size: {type: integer}}}
"""


def test_embedded_resources_carry_object_meta(object_meta):
    wrapper = parse_bytes(EMBEDDING_CRD, "wrapper.yaml").types[("example.com", "v1", "Wrapper")]
    assert wrapper is not None
    for path in (
        ".metadata.labels.app",  # the root declares only `name`: the API server still serves ObjectMeta
        ".spec.resource.metadata.labels.app",
        ".spec.declared.metadata.annotations.owner",
        ".spec.declared.kind",
    ):
        assert check_expression(path, Expectation(), wrapper, object_meta=object_meta) == [], path
    kind = types_at(".spec.declared.kind", wrapper, 16, object_meta=object_meta)
    assert kind is not None and kind.type.kind == STRING
    text = ".spec.declared.spec.sizes"
    (finding,) = check_expression(text, Expectation(), wrapper, object_meta=object_meta)
    assert rule_of(finding) == "WM301" and "sizes" in message_of(finding)
