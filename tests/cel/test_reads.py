"""The part of a variable an expression reads: the same answers on the part as on the whole value."""

from __future__ import annotations

from typing import Any

import pytest

from wmaplint.cel.checker import compile_expression
from wmaplint.cel.env import run_env
from wmaplint.cel.parts import WHOLE, pruned
from wmaplint.cel.reads import reads

ROOT = {
    "spec": {
        "groups": [{"name": "g", "members": [{"component": "a", "extra": "x" * 100}, {"component": "b"}]}],
        "components": [{"name": "a", "scale": {"n": 1}, "big": list(range(100))}, {"name": "b"}],
        "labels": {"app": "x", "tier": "y"},
    },
    "metadata": {"name": "n", "annotations": {"k": "v" * 1000}},
}


def _evaluate(text: str, root: Any) -> Any:
    compiled = compile_expression(text, ("self", "root"))
    assert compiled.serialized is not None, compiled.problems
    program = run_env(("self", "root")).deserialize(compiled.serialized)
    return program.eval(data={"self": "a", "root": root}).value()


@pytest.mark.parametrize(
    "text",
    [
        "root.spec.groups.exists(g, g.members.exists(m, m.component == self))",
        "root.spec.components.filter(c, has(c.scale)).size() == 1",
        "root.spec.components.map(c, c.name).join(',') == 'a,b'",
        "has(root.spec.labels.app) && root.spec.labels['tier'] == 'y'",
        "root.spec.labels.all(k, k.size() < 10)",
        "root.spec.components[1].name == 'b'",
        "root.spec.components.all(i, c, i >= 0 && c.name != '')",
        "size(root.metadata.annotations) == 1",
    ],
)
def test_the_part_gives_the_same_answer(text: str) -> None:
    compiled = compile_expression(text, ("self", "root"))
    assert compiled.ast is not None
    part = pruned(ROOT, reads(compiled.ast, "root"))
    assert _evaluate(text, part) == _evaluate(text, ROOT) is True


def test_the_part_leaves_out_what_is_not_read() -> None:
    compiled = compile_expression("root.spec.groups.exists(g, g.members.exists(m, m.component == self))",
                                  ("self", "root"))
    assert compiled.ast is not None
    part = pruned(ROOT, reads(compiled.ast, "root"))
    assert part == {"spec": {"groups": [{"members": [{"component": "a"}, {"component": "b"}]}]}}


def test_a_variable_used_whole_is_kept_whole() -> None:
    compiled = compile_expression("string(root).size() > 0", ("self", "root"))
    assert compiled.ast is not None and reads(compiled.ast, "root") is WHOLE
