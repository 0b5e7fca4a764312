"""The YAML writer: the catalog's style, comments kept, and text that reads back as the data it was made
from."""

from __future__ import annotations

import pytest
import yaml

from wmaplint.draft.writer import WIDTH, Map, Seq, WriterError, data, render, scalar


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (".spec.replicatedJobs[]?.name", ".spec.replicatedJobs[]?.name"),
        ("true", '"true"'),  # a string, not YAML's boolean
        ("0", '"0"'),
        ("", '""'),
        ('.metadata.labels["ray.io/group"]', '.metadata.labels["ray.io/group"]'),
        ('"quoted" first', "'\"quoted\" first'"),
        ("a: b", '"a: b"'),
        ("- item", '"- item"'),
        ("#not a comment", '"#not a comment"'),
        ("it's", "it's"),
        ("'it's' \"both\"", '"\'it\'s\' \\"both\\""'),
        (None, "null"),
        (True, "true"),
        (3, "3"),
    ],
)
def test_scalars_are_plain_unless_yaml_would_read_them_otherwise(value: object, written: str) -> None:
    assert scalar(value) == written
    assert yaml.safe_load(f"k: {written}") == {"k": value}


def test_the_catalog_style_flow_kinds_block_lists_and_comments() -> None:
    document = Map().add("name", "jobset").add(
        "kind",
        Map(flow=True).add("group", "jobset.x-k8s.io").add("version", "v1alpha2").add("kind", "JobSet"),
        "the root",
    ).add("actions", Seq().add(Map(flow=True).add("path", ".spec.suspend").add("value", "true")))
    document.note("TODO: something left out")
    assert render(document, ["a header"]) == (
        "# a header\n"
        "name: jobset\n"
        "# the root\n"
        "kind: {group: jobset.x-k8s.io, version: v1alpha2, kind: JobSet}\n"
        "actions:\n"
        '  - {path: .spec.suspend, value: "true"}\n'
        "# TODO: something left out\n"
    )


def test_long_expressions_fold_before_operators_and_read_back_whole() -> None:
    expression = " | ".join(f".spec.groups[]? | (.replicas{n} // 1)" for n in range(8))
    text = render(Map().add("spec", Map().add("replicasPath", expression)))
    lines = text.splitlines()
    assert lines[1] == "  replicasPath: >-"
    assert all(len(line) <= WIDTH for line in lines)
    assert all(line.strip().startswith("|") for line in lines[3:])
    assert yaml.safe_load(text) == {"spec": {"replicasPath": expression}}


def test_long_comments_are_wrapped_to_the_line_length() -> None:
    comment = "word " * 60
    text = render(Map().add("a", 1, comment.strip()))
    assert all(len(line) <= WIDTH for line in text.splitlines())
    assert text.count("# word") > 2


def test_the_first_entry_of_a_list_item_shares_the_dash() -> None:
    components = Seq().add(Map().add("name", "worker").add("ownerRef", "root"), "a component")
    assert render(Map().add("childComponents", components)) == (
        "childComponents:\n  # a component\n  - name: worker\n    ownerRef: root\n"
    )


def test_keys_are_quoted_like_values_and_a_document_that_would_not_read_back_is_refused() -> None:
    document = Map().add("a: b", Map(flow=True).add("0", "c"))
    assert yaml.safe_load(render(document)) == data(document) == {"a: b": {"0": "c"}}
    with pytest.raises(WriterError, match="does not read back"):
        render(Map().add("a", ("not", "a", "node")))  # type: ignore[arg-type]
