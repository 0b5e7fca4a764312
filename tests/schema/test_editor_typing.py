"""The editor side of jq typing: which schema field a path segment reads, which fields may follow a `.`."""

import pytest

from wmaplint.jq.inference.queries import members_at, types_at
from wmaplint.schema.types import ARRAY, OBJECT


@pytest.fixture(scope="module")
def jobset(store):
    return store.lookup("jobset.x-k8s.io", "v1alpha2", "JobSet")[0].type


@pytest.fixture(scope="module")
def pod(store):
    return store.lookup("", "v1", "Pod")[0].type


def names(props):
    return [p.name for p in props]


def test_segment_under_the_cursor_is_the_crd_property_with_its_description(jobset):
    text = ".spec.replicatedJobs[].template"
    info = types_at(text, jobset, text.index("replicatedJobs") + 3)
    assert info is not None and info.name == "replicatedJobs"
    assert text[info.start:info.end] == "replicatedJobs"
    assert info.type.kind == ARRAY and info.type.items.kind == OBJECT
    owner, prop = info.declared[0]
    assert "replicatedJobs" in owner.properties
    assert prop.description and "group of jobs" in prop.description
    assert prop.line and prop.line > 1


def test_required_field_and_quoted_key(pod):
    text = '.spec.containers[0]["name"]'
    info = types_at(text, pod, text.index("name"))
    assert info is not None and info.name == "name" and info.required
    assert types_at(text, pod, text.index("containers")).required


def test_unknown_segment_broken_text_and_non_fields_give_nothing(jobset):
    assert types_at(".spec.replicatedJob", jobset, 8) is None
    assert types_at(".spec.", jobset, 2) is None  # does not parse
    assert types_at("length", jobset, 2) is None
    assert types_at(".spec | keys", jobset, 9) is None


def test_members_after_a_dot_on_incomplete_text(jobset):
    spec = {"replicatedJobs", "suspend", "network", "startupPolicy"}
    assert spec <= set(names(members_at(".spec.", jobset, 6)))
    assert spec <= set(names(members_at(".spec.rep", jobset, 9)))  # a partial name is replaced
    assert spec <= set(names(members_at(".spec | .", jobset, 9)))
    assert names(members_at(".", jobset, 1))[:2] == ["apiVersion", "kind"]


def test_members_of_the_element_type_after_iteration(jobset):
    element = {"name", "replicas", "template"}
    for text in (".spec.replicatedJobs[].", ".spec.replicatedJobs[]?.", ".spec.replicatedJobs[0].",
                 ".spec.replicatedJobs[] | select(.", "[.spec.replicatedJobs[] | ."):
        assert element <= set(names(members_at(text, jobset, len(text)))), text


def test_cursor_in_the_middle_of_an_expression(pod):
    text = ".metadata.la | length"
    assert "labels" in names(members_at(text, pod, len(".metadata.la")))


def test_no_members_where_there_are_none(jobset):
    assert members_at(".spec.replicatedJobs.", jobset, 21) == []  # a list has no fields
    assert members_at('"a.', jobset, 3) == []  # inside a string
    assert members_at("length", jobset, 6) == []  # no dot before the word
    assert "spec" in names(members_at(".spe", jobset, 4))  # the partial first name completes from the root
    assert members_at("..", jobset, 2) == []
    assert members_at(".nope.", jobset, 6) == []


def test_hostile_input_does_not_raise(jobset):
    deep = "[" * 10_000 + ".spec."
    assert members_at(deep, jobset, len(deep)) == []
    assert types_at("." + ".a" * 5000, jobset, 3) is None
