"""WM215 jq-host-dependent-builtin: a builtin whose result depends on the host or the moment."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq import ast as jqast
from wmaplint.jq import builtins as B
from wmaplint.jq.names import binds_anywhere, resolve
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM215",
    "jq-host-dependent-builtin",
    "warning",
    "A builtin whose result depends on the host or the moment: `now`, `env`/`$ENV`, `input`, `inputs`, "
    "`debug`, `stderr`, `input_filename`, `halt`, `halt_error`, local-time functions.",
    why="Embedded gojq sees `$ENV` as `{}`, rejects `input`/`inputs`, does not define `debug`, `stderr` or "
    "`input_filename`, and `now` changes on every evaluation, so the same workload maps differently.",
    bad=job_with("'(.status.active // 0) > 0'",
                 '\'(.status.active // 0) > 0 and ($ENV.STRICT // "") == ""\''),
    good=JOB,
    fix="Compute the value from the workload object only.",
    tags=("jq",),
)


@expression_check(RULE)
def host_dependent(text: str, tree: jqast.Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    names = resolve(tree)
    for node in jqast.nodes(tree):
        if isinstance(node, jqast.FuncCall):
            if names.definition_of(node) is not None or (node.name, node.arity) in names.definitions:
                continue  # the program's own function of that name
            info = B.lookup_any(node.name, node.arity)
            if info is not None and info.impure:
                yield ExpressionDiagnostic(RULE.id, f"`{node.name}` {info.impure}", node.start, node.name_end)
        elif isinstance(node, jqast.VarRef) and node.name == "ENV" and not binds_anywhere(tree, "ENV"):
            yield ExpressionDiagnostic(
                RULE.id, "`$ENV` is the empty object `{}` when gojq is embedded (no environment)",
                node.start, node.end)
