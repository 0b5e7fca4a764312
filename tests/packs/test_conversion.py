"""The rule runner's CEL values: a selected node's value is the matching part of the converted root."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

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
