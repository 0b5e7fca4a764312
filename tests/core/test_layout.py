"""The invariants of the package's layout (docs/architecture.md): one rule, one module; a rule id spelled in
that module only. The layers (data flows from the analyses to the rules, never back) are import-linter's
contract, checked in test_layers.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import wmaplint
from wmaplint import rules
from wmaplint.diagnostics import RULES

PACKAGE = Path(wmaplint.__file__).parent
RULE_ID = re.compile(r"\bWM\d{3}\b")


def _modules() -> dict[str, Path]:
    return {".".join(("wmaplint", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__"): p
            for p in sorted(PACKAGE.rglob("*.py"))}


def test_each_rule_id_is_spelled_in_one_module_only() -> None:
    spelled: dict[str, set[str]] = {}
    for name, path in _modules().items():
        for rule_id in RULE_ID.findall(path.read_text(encoding="utf-8")):
            spelled.setdefault(rule_id, set()).add(name)
    assert {rule_id: names for rule_id, names in spelled.items() if len(names) > 1} == {}


def test_each_rule_lives_in_a_module_named_for_it_in_a_concern_folder() -> None:
    rules.load()
    modules = _modules()
    misplaced = []
    for rule in RULES.values():
        expected = [name for name in modules if name.endswith("." + rule.name.replace("-", "_"))]
        if len(expected) != 1 or not re.fullmatch(r"wmaplint\.rules\.\w+\.\w+", expected[0]):
            misplaced.append((rule.id, rule.name, expected))
            continue
        docstring = ast.get_docstring(ast.parse(modules[expected[0]].read_text(encoding="utf-8"))) or ""
        if not docstring.startswith(f"{rule.id} {rule.name}: "):
            misplaced.append((rule.id, rule.name, docstring.split("\n")[0]))
    assert misplaced == []
