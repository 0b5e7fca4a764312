"""WM536 on every catalog kind, built-in ones included: `replicasPath: .metadata.name` (a string, never a
replica count) is an error, and no fix offers a `// 1` default for it."""

from __future__ import annotations

import pytest

from wmaplint.engine import lint_text
from wmaplint.shipped_data import shipped

CATALOG = shipped("catalog")
NAMES = sorted(p.name for p in CATALOG.glob("*.yaml"))


def _first_replicas_path_reading_the_name(text: str) -> str:
    lines = text.splitlines(keepends=True)
    # a kind scaled by its autoscaler alone (InferenceService) has a minReplicasPath only
    field = "replicasPath" if any(line.lstrip().startswith("replicasPath:") for line in lines) \
        else "minReplicasPath"
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith(f"{field}:"))
    indent = len(lines[at]) - len(lines[at].lstrip())
    end = at + 1
    while end < len(lines) and len(lines[end]) - len(lines[end].lstrip()) > indent:
        end += 1  # the lines of a block scalar
    return "".join([*lines[:at], " " * indent + f"{field}: .metadata.name\n", *lines[end:]])


@pytest.mark.parametrize("name", NAMES)
def test_replicas_path_reading_the_name_is_an_error_without_a_default_fix(name: str) -> None:
    text = (CATALOG / name).read_text(encoding="utf-8")
    wrong = _first_replicas_path_reading_the_name(text)
    found = lint_text(wrong, name)
    errors = [d for d in found if d.rule == "WM536"]
    assert errors and all(d.severity.label == "error" and d.fixes == () for d in errors), name
    assert not any("// 1" in fix.title for d in found for fix in d.fixes), name
