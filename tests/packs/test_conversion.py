"""The rule runner's CEL values: a selected node's value is the matching part of the converted root."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path

import pytest
import yaml

from wmaplint.cel import pieces
from wmaplint.cel.pieces import MIN_PIECE_BYTES, Piece, _written
from wmaplint.cel.sizes import SizeIndex
from wmaplint.packs import run

REPO = Path(__file__).resolve().parents[2]
DEFINITIONS = sorted((REPO / "catalog").glob("*.yaml"))


def _locations(value: object, at: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], object]]:
    found: list[tuple[tuple[str | int, ...], object]] = [(at, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _locations(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _locations(item, (*at, index))
    return found


@pytest.mark.parametrize("path", DEFINITIONS, ids=lambda p: p.stem)
def test_a_selected_node_s_cel_value_is_the_converted_root_s_part(path: Path) -> None:
    # The rule runner takes `self` from the root's CEL conversion instead of converting each selection again.
    data = yaml.safe_load(path.read_text())
    data["spec"]["structureDefinition"]["rootComponent"]["podSelector"] = {
        "componentTypeSelector": {"matchLabels": {"app.kubernetes.io/name": "x", "__odd__": None}}
    }
    cel_root = run._cel_value((), data)
    shared = 0
    for location, value in _locations(data):
        part = run._within(cel_root, location)
        if part is not run._MISSING:
            shared += 1
            assert part == run._cel_value(location, value), location
    assert shared > 20


def _sizes(index: SizeIndex) -> dict[tuple[str, ...], tuple[int, int, bool]]:
    """Every path of a size index, with its size, its keys' largest size and whether it has children."""
    found: dict[tuple[str, ...], tuple[int, int, bool]] = {}
    stack: list[tuple[int, tuple[str, ...]]] = [(0, ())]
    while stack:
        pid, path = stack.pop()
        found[path] = (index.size(pid), index.key_size(pid), index.has_children(pid))
        stack.extend((child, (*path, key)) for (parent, key), child in index._children.items()
                     if parent == pid)
    return found


@pytest.mark.parametrize("path", DEFINITIONS, ids=lambda p: p.stem)
def test_a_definition_converted_with_kept_items_is_converted_and_sized_as_afresh(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pieces, "_kept", OrderedDict())
    data = yaml.safe_load(path.read_text())
    children = data["spec"]["structureDefinition"].get("childComponents") or []
    run._root_value(data)  # every item kept
    if children:  # one item changed, its neighbours kept: all of them are items of one list
        children[0] = {**children[0], "name": "changed-" + str(children[0].get("name"))}
    value, sizes = run._root_value(data)
    afresh = run._cel_value((), data)
    assert value == afresh
    if sum(len(_written(child)) >= MIN_PIECE_BYTES for child in children[1:]):  # some were given again
        assert any(piece.sizes is not None for piece in pieces._kept.values())
    assert _sizes(sizes) == _sizes(SizeIndex(afresh)) and sizes.largest == SizeIndex(afresh).largest


def test_an_item_is_kept_by_its_data_as_written_not_by_equality(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pieces, "_kept", OrderedDict())
    schema = {"type": "object"}
    padding = "x" * MIN_PIECE_BYTES
    reused: dict[int, Piece] = {}

    def converted(value: object, depth: int = 1, node: object = schema) -> object:
        return pieces.converted(node, value, depth, lambda: {"converted": value}, reused)

    one = converted({"n": 1, "p": padding})
    assert converted({"n": 1, "p": padding}) is one and list(reused) == [id(one)]
    # equal to the kept item's data in Python, not the same data: 1 == 1.0 == True
    assert converted({"n": 1.0, "p": padding}) is not one and converted({"n": True, "p": padding}) is not one
    assert converted({"n": 1, "p": padding}, depth=2) is not one
    assert converted({"n": 1, "p": padding}, node={"type": "object"}) is not one
    shared = {"p": padding}
    twice = converted([shared, shared])  # one object met twice is the same data as two equal ones
    assert converted([{"p": padding}, {"p": padding}]) is twice
    small = converted({"n": 1})
    assert converted({"n": 1}) is not small  # not kept


def test_a_size_index_merges_the_sizes_of_known_parts() -> None:
    part = {"b": ["xy", "wxyz"], "key-longer": {"c": "abc"}}
    value = {"a": [{"b": ["q"]}, part, {"d": 1}], "e": part}
    known = {id(part): SizeIndex(part)}
    assert _sizes(SizeIndex(value, known)) == _sizes(SizeIndex(value))
    assert SizeIndex(value, known).largest == SizeIndex(value).largest == 4
