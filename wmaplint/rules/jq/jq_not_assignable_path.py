"""WM230 jq-not-assignable-path: a spec or suspend path is not a path expression; writes through it fail."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import ExpressionDiagnostic, define
from wmaplint.jq.assignability import non_path
from wmaplint.jq.names import resolve
from wmaplint.rules import expression_check
from wmaplint.rules.examples import JOB, job_with

if TYPE_CHECKING:
    from wmaplint.jq.ast import Node
    from wmaplint.jq.roles import ExprRole

RULE = define(
    "WM230",
    "jq-not-assignable-path",
    "warning",
    "A spec or suspend path is not a path expression, so writes through it fail (reads work).",
    why="The Workload Map library writes through these paths as well as reading them: it assigns pod "
    "templates, pod specs, every pod-spec fragment and the suspend values with gojq path assignment "
    "(`(<path>) = $val`, or `path(<path>)` per instance; dsx-ai-factory/workload-map@932dddf "
    "`karta/pkg/resource/accessor.go` `UpdatePodTemplateSpec`, `UpdateFragmentedPodSpec`, "
    "`ApplySuspendActions`, `assign`). Constructed values, literals, arithmetic and variable-rooted paths "
    "fail there with gojq's `invalid path against: ...` (GOJQ.md §3.7; C jq says `Invalid path "
    "expression`), and the library's newer update API refuses the field as not writable "
    "(dsx-ai-factory/karta@6ae3969 `pkg/karta/writable_path.go`, `UnsupportedFieldsError`). Reading the path "
    "is unaffected, and the readers never write: KAI's pod grouper only reads "
    "(kai-scheduler/KAI-Scheduler@d5bc503 `pkg/podgrouper/podgrouper/plugins/karta`), as do status and the "
    "workload tree. So the fault reaches only a platform that writes that field: a warning, not an error.",
    bad=job_with(
        "{podTemplateSpecPath: .spec.template}", "{podTemplateSpecPath: '.spec as $s | $s.template'}"
    ),
    good=JOB,
    fix="Navigate from `.` (`.spec.template`); filter with `select(...)` rather than binding a variable. A "
    "value built for reading only (`{requests: .spec.resources}`) cannot be written back: leave the field "
    "out if platforms must write it, or accept that they cannot.",
    tags=("jq", "paths"),
)


@expression_check(RULE, lambda role: role.writable)
def not_assignable(text: str, tree: Node, role: ExprRole) -> Iterator[ExpressionDiagnostic]:
    problem = non_path(tree, resolve(tree))
    if problem is not None:
        node, reason = problem
        message = (
            f"not a path expression: {reason}; writes through `{role.field}` fail (gojq: invalid path "
            "against ..., jq: Invalid path expression), though reading it works"
        )
        yield ExpressionDiagnostic(RULE.id, message, node.start, node.end)
