"""Status mapping structure: matchers that can never or always match, and the definitions they rely on."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.checks import Context, check, fix
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules.examples import JOB, POD, job_with
from wmaplint.source import MappingNode, ScalarNode
from wmaplint.source.edits import add_flow_pairs

EMPTY_MATCHER = define(
    "WM401", "empty-matcher", "warning",
    "A status matcher with no criteria, which always matches.",
    why="The fields of a matcher are ANDed; with none set the matcher is vacuously true, so the status is "
    "reported for every object, whatever its state.",
    bad=job_with("running: [{byExpression: {expression: '(.status.active // 0) > 0', expectedResult: "
                 "\"true\"}}]",
                 "running: [{}]"),
    good=JOB,
    fix="Add byPhase, byConditions or byExpression to the matcher, or remove it.",
)
CONDITIONS_UNDEFINED = define(
    "WM402", "conditions-matcher-without-definition", "error",
    "byConditions is used but the status definition has no conditionsDefinition.",
    why="Without conditionsDefinition the runtime has no conditions to look at, so the matcher never "
    "matches.",
    bad=job_with("        conditionsDefinition: {path: .status.conditions, typeFieldName: type, "
                 "statusFieldName: status}\n", ""),
    good=JOB,
    fix="Add conditionsDefinition with the path of the conditions list.",
)
PHASE_UNDEFINED = define(
    "WM403", "phase-matcher-without-definition", "error",
    "byPhase is used but the status definition has no phaseDefinition.",
    why="Without phaseDefinition there is no phase to compare, so the matcher never matches.",
    bad=POD.replace("        phaseDefinition: {path: .status.phase}\n", ""),
    good=POD,
    fix="Add phaseDefinition with the path of the phase field.",
)
REASON_UNREAD = define(
    "WM404", "reason-matcher-without-field", "warning",
    "A condition matcher tests reason but conditionsDefinition has no reasonFieldName.",
    why="Reasons are read only when reasonFieldName is set (its default exists only when an API server "
    "applies the CRD; offline and with reasonFieldName: null it is unset), so the matcher never matches.",
    bad=job_with("[{type: Failed, status: \"True\"}]", "[{type: Failed, status: \"True\", reason: "
                 "BackoffLimitExceeded}]"),
    good=job_with("[{type: Failed, status: \"True\"}]", "[{type: Failed, status: \"True\", reason: "
                  "BackoffLimitExceeded}]").replace("statusFieldName: status}",
                                                     "statusFieldName: status, reasonFieldName: reason}"),
    fix="Add reasonFieldName: reason to conditionsDefinition.",
)
NO_CRITERIA = define(
    "WM405", "condition-matcher-without-criteria", "info",
    "A byConditions entry gives neither status nor reason.",
    why="Such an entry matches whenever the condition exists, even with status False; that is rarely "
    "intended for conditions like Ready or Failed.",
    bad=job_with("[{type: Failed, status: \"True\"}]", "[{type: Failed}]"),
    good=JOB,
    fix="Add status: \"True\" (or the status you mean).",
)
FIELD_NAME_DEFAULT = define(
    "WM406", "condition-field-name-default", "warning",
    "conditionsDefinition relies on the API server's default for typeFieldName or statusFieldName.",
    why="The defaults (type, status) exist only when an API server applies the Karta CRD; a definition read "
    "offline (a built-in catalog, a CLI, a test) gets empty field names and no condition ever matches.",
    bad=job_with("{path: .status.conditions, typeFieldName: type, statusFieldName: status}",
                 "{path: .status.conditions}"),
    good=JOB,
    fix="Spell out typeFieldName: type and statusFieldName: status.",
)


@check
def status_structure(ctx: Context) -> Iterator[Diagnostic]:
    for component in ctx.definition.components:
        status = component.status
        if status is None:
            continue
        cond = status.conditions_node
        reason_field = False
        if cond is not None:
            reason = cond.get("reasonFieldName")
            reason_field = (isinstance(reason, ScalarNode) and isinstance(reason.value, str)
                            and bool(reason.value))
            missing = [k for k in ("typeFieldName", "statusFieldName") if cond.get(k) is None]
            if missing and status.conditions_path is not None:
                defaults = [(k, k[:-9]) for k in missing]
                yield ctx.diag(
                    FIELD_NAME_DEFAULT, cond.key_node("path"),
                    f"{' and '.join(missing)} not set: the defaults apply only through an API server; read "
                    f"offline "
                    "the field names are empty and no condition matches",
                    fixes=fix(f"add {', '.join(f'{k}: {v}' for k, v in defaults)}",
                              add_flow_pairs(cond, defaults)),
                )
        for key, matchers in status.mappings.items():
            for matcher in matchers:
                m = matcher.node
                if not m.pairs:
                    yield ctx.diag(EMPTY_MATCHER, m, f"an empty matcher under {key!r} always matches: every "
                                   f"object would be reported {key}")
                if matcher.by_conditions_node is not None and cond is None:
                    yield ctx.diag(CONDITIONS_UNDEFINED, m.key_node("byConditions"),
                                   f"byConditions under {key!r} needs statusDefinition.conditionsDefinition; "
                                   f"without "
                                   "it the matcher never matches")
                if m.get("byPhase") is not None and status.phase_node is None:
                    yield ctx.diag(PHASE_UNDEFINED, m.key_node("byPhase"),
                                   f"byPhase under {key!r} needs statusDefinition.phaseDefinition; without "
                                   f"it the "
                                   "matcher never matches")
                for entry in matcher.by_conditions:
                    yield from _condition_entry(ctx, entry, key, reason_field, cond is not None)


def _condition_entry(ctx: Context, entry: MappingNode, key: str, reason_field: bool, has_cond: bool
                     ) -> Iterator[Diagnostic]:
    type_node = entry.get("type")
    label = type_node.text if isinstance(type_node, ScalarNode) else "?"
    if entry.get("reason") is not None and has_cond and not reason_field:
        yield ctx.diag(REASON_UNREAD, entry.key_node("reason"),
                       f"condition {label!r} under {key!r} tests reason, but conditionsDefinition has no "
                       "reasonFieldName: reasons are never read, so this never matches")
    if entry.get("status") is None and entry.get("reason") is None and type_node is not None:
        yield ctx.diag(NO_CRITERIA, type_node,
                       f"condition {label!r} under {key!r} gives neither status nor reason: it matches "
                       f"whenever the "
                       "condition exists, even with status False")


