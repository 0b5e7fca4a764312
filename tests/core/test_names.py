"""A name means one thing: each kind of finding an analysis records has a class name no other kind has."""

from __future__ import annotations

import importlib
import pkgutil
from collections import defaultdict

import wmaplint
from wmaplint.findings import Finding


def _kinds(base: type) -> list[type]:
    found: list[type] = []
    for sub in base.__subclasses__():
        found += [sub, *_kinds(sub)]
    return found


def test_every_kind_of_finding_has_a_name_of_its_own() -> None:
    for module in pkgutil.walk_packages(wmaplint.__path__, "wmaplint."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    modules: defaultdict[str, set[str]] = defaultdict(set)
    for kind in _kinds(Finding):
        modules[kind.__name__].add(kind.__module__)
    assert len(modules) > 60
    assert {name: sorted(where) for name, where in modules.items() if len(where) > 1} == {}
