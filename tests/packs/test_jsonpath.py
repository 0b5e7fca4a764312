"""The pack JSONPath evaluator selects exactly what jsonpath-rfc9535 selects, on real definitions."""

from __future__ import annotations

from pathlib import Path

import jsonpath_rfc9535
import pytest
import yaml

from wmaplint.packs import jsonpath
from wmaplint.packs.in_use import shipped_pack_paths

REPO = Path(__file__).resolve().parents[2]
DEFINITIONS = sorted((REPO / "catalog").glob("*.yaml"))


def _shipped_givens() -> list[str]:
    givens = []
    for path in shipped_pack_paths():
        for rule in yaml.safe_load(Path(path).read_text())["rules"]:
            given = rule["given"]
            givens.extend([given] if isinstance(given, str) else given)
    return givens


SHIPPED = _shipped_givens()
# Queries of the pack tests and the shapes around them: names, quoted names, wildcards, indexes (negative,
# out of range), several selectors, existence filters over lists and maps.
MORE = [
    "$",
    "$.metadata.name",
    "$.spec.structureDefinition.rootComponent.scaleDefinition",
    "$.spec.structureDefinition.childComponents[*]",
    "$.spec.structureDefinition.childComponents.*.name",
    "$.spec.structureDefinition.rootComponent.statusDefinition.statusMappings.*[*]",
    "$['spec'][\"structureDefinition\"]['childComponents'][0]",
    "$.spec.structureDefinition.childComponents[-1].name",
    "$.spec.structureDefinition.childComponents[7, 0, -9]",
    "$.spec.structureDefinition.childComponents[0,'x',*].kind",
    "$.spec.structureDefinition.childComponents[\t0 ,\n?@.name ].name",
    "$.spec.structureDefinition.childComponents[?@.scaleDefinition.replicasPath]",
    "$.spec.structureDefinition.childComponents[?@.podSelector.componentTypeSelector, 0]",
    "$.spec.structureDefinition.rootComponent[?@.path]",
    "$.spec.structureDefinition.childComponents[?!@.scaleDefinition]",
    "$.spec.structureDefinition.childComponents[? ! @.scaleDefinition && @.name&&!@.podSelector.x]",
    "$.spec.structureDefinition[?@.name && !@.specDefinition.podTemplateSpecPath]",
    "$.spec.structureDefinition.rootComponent.kind.*",
    "$.metadata.name.*",
    "$.metadata.name[0]",
    "$['metadata']['na\"me']",
]


def _library(query: str, data: object) -> list[tuple[tuple[str | int, ...], object]]:
    return [(tuple(m.location), m.value) for m in jsonpath_rfc9535.compile(query).finditer(data)]


@pytest.mark.parametrize("path", DEFINITIONS, ids=lambda p: p.stem)
def test_same_nodes_as_the_library_on_every_catalog_definition(path: Path) -> None:
    data = yaml.safe_load(path.read_text())
    for query in SHIPPED + MORE:
        compiled = jsonpath.compile_query(query)
        assert compiled.compiled is None, query  # the subset runs them, without the library
        assert list(compiled.finditer(data)) == _library(query, data), query


def test_existence_counts_null_and_false_values_and_skips_scalars() -> None:
    data = {"items": [{"a": None}, {"a": False}, {"b": 1}, 3, "a", [{"a": 1}]],
            "map": {"x": {"a": 0}, "y": 2}}
    for query in ("$.items[?@.a]", "$.map[?@.a]", "$.items[*][?@.a]", "$.items[-6, 5, 6].a"):
        assert list(jsonpath.compile_query(query).finditer(data)) == _library(query, data), query
    assert [loc for loc, _ in jsonpath.compile_query("$.items[?@.a]").finditer(data)] == [
        ("items", 0), ("items", 1)
    ]


@pytest.mark.parametrize(
    "query",
    [
        "$..name",
        "$.spec.structureDefinition.childComponents[?@.name == 'replicatedjob']",
        "$.spec.structureDefinition.childComponents[0:2]",
        "$['meta\\u0064ata']",
        "$.spec.structureDefinition.childComponents[?length(@.name) > 3]",
    ],
)
def test_queries_outside_the_subset_are_run_by_the_library(query: str) -> None:
    data = yaml.safe_load((REPO / "catalog" / "jobset-x-k8s-io-jobset-v1alpha2.yaml").read_text())
    compiled = jsonpath.compile_query(query)
    assert compiled.compiled is not None
    assert list(compiled.finditer(data)) == _library(query, data)
    assert _library(query, data)  # each selects something, so the comparison means something


@pytest.mark.parametrize(
    "text", ["$.a[01]", "$.a[-0]", "$.a.", "$[", "a.b", " $.a", "$.a[?@.b ==]", "$.a['b]"]
)
def test_not_jsonpath_is_a_query_error_with_the_library_s_reason(text: str) -> None:
    with pytest.raises(jsonpath.QueryError) as raised:
        jsonpath.compile_query(text)
    with pytest.raises(jsonpath_rfc9535.JSONPathError) as library:
        jsonpath_rfc9535.compile(text)
    assert str(raised.value) == library.value.args[0]
