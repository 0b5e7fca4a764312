"""WM422 invalid-condition-status: a byConditions status other than True, False or Unknown."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.diagnostics import Diagnostic, define, fix
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source import ScalarNode
from wmaplint.source.edits import replace_scalar
from wmaplint.spelling import closest
from wmaplint.status.knowledge import CONDITION_STATUSES
from wmaplint.status.mappings import condition_entries, runtime_status

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM422",
    "invalid-condition-status",
    "error",
    "A byConditions status other than True, False or Unknown.",
    why='Kubernetes condition statuses are exactly "True", "False" or "Unknown" and compared as strings: '
    '"true" never matches.',
    bad=job_with('[{type: Failed, status: "True"}]', '[{type: Failed, status: "true"}]'),
    good=JOB,
    fix='Write status: "True" (quoted, capitalised).',
)


@definition_check(RULE)
def invalid_statuses(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    found = runtime_status(ctx.definition)
    if found is None:
        return
    for key, entry in condition_entries(found[1]):
        node = entry.get("status")
        if not isinstance(node, ScalarNode):
            continue
        value = node.value
        if isinstance(value, bool):
            proper = "True" if value else "False"
            yield ctx.diag(RULE, node,
                           f"status {node.text} under {key!r} is a YAML boolean, not the string {proper!r}: "
                           "condition statuses are compared as strings, so it never matches",
                           fixes=fix(f'quote as "{proper}"', replace_scalar(node, proper)))
        elif isinstance(value, str) and value not in CONDITION_STATUSES:
            meant = closest(value, CONDITION_STATUSES)
            case_note = " (case matters)" if meant and meant.lower() == value.lower() else ""
            yield ctx.diag(RULE, node,
                           f'status {value!r} under {key!r} never matches: condition statuses are "True", '
                           f'"False" or "Unknown"{case_note}',
                           fixes=fix(f'replace with "{meant}"', replace_scalar(node, meant)) if meant else [])
