"""WM206 jq-module-directive: `import` or `include` in a definition expression."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq.names import resolve
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM206",
    "jq-module-directive",
    "error",
    "`import` or `include` in a definition expression.",
    why="The runtime embeds gojq without a module loader: every `import` and `include` fails to compile with "
    "`cannot load module`. (A leading `module {...};` is harmless: gojq ignores a query's module metadata.)",
    bad=job_with("'(.status.active // 0) > 0'", "'include \"status\"; (.status.active // 0) > 0'"),
    good=JOB,
    fix="Inline the definitions you need with `def name: ...;`.",
    tags=("jq",),
)


@expression_check(RULE)
def module_directives(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    for node in resolve(tree).imports:
        if node.directive != "module":  # gojq compiles a query's module metadata away
            yield ExpressionDiagnostic(
                RULE.id, f"`{node.directive}` cannot be used: the runtime has no module loader "
                f'(gojq: cannot load module: "{node.path}")', node.start,
                node.start + len(node.directive))
