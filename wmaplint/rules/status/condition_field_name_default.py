"""WM406 condition-field-name-default: conditionsDefinition leaves typeFieldName or statusFieldName unset."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from wmaplint.checks import fix
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.examples import JOB, job_with
from wmaplint.source.edits import add_flow_pairs
from wmaplint.status.mappings import declared_statuses

if TYPE_CHECKING:
    from wmaplint.rules.context import DefinitionContext

RULE = define(
    "WM406", "condition-field-name-default", "warning",
    "conditionsDefinition relies on the API server's default for typeFieldName or statusFieldName.",
    why="The defaults (type, status) exist only when an API server applies the Karta CRD; a definition read "
    "offline (a built-in catalog, a CLI, a test) gets empty field names and no condition ever matches.",
    bad=job_with("{path: .status.conditions, typeFieldName: type, statusFieldName: status}",
                 "{path: .status.conditions}"),
    good=JOB,
    fix="Spell out typeFieldName: type and statusFieldName: status.",
)

# The field names an API server would fill in, and its defaults for them.
DEFAULTS = (("typeFieldName", "type"), ("statusFieldName", "status"))


@definition_check(RULE)
def unset_field_names(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for status in declared_statuses(ctx.definition):
        cond = status.conditions_node
        if cond is None or status.conditions_path is None:
            continue
        defaults = [(k, v) for k, v in DEFAULTS if cond.get(k) is None]
        if defaults:
            missing = " and ".join(k for k, _ in defaults)
            added = ", ".join(f"{k}: {v}" for k, v in defaults)
            yield ctx.diag(
                RULE, cond.key_node("path"),
                f"{missing} not set: the defaults apply only through an API server; read offline the field "
                "names are empty and no condition matches",
                fixes=fix(f"add {added}", add_flow_pairs(cond, defaults)),
            )
