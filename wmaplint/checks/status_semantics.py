"""Status mapping semantics: coverage of the statuses a platform needs, knowledge of what controllers write,
and
consistency of the matchers (contradictions, overlaps, redundancy, evaluation-order surprises).

Only the root's statusDefinition is read by the runtime, so only the root is analysed.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import Any

from wmaplint.checks import Context, check, fix
from wmaplint.definition.model import Component, StatusDefinition
from wmaplint.diagnostics import Diagnostic, Fix, Severity, define
from wmaplint.rules.examples import (
    CUSTOM,
    JOB,
    JOB_SUSPENDABLE,
    JOB_WITH_INITIALIZING,
    POD,
    PYTORCHJOB,
    job_with,
)
from wmaplint.source import MappingNode, Node, ScalarNode
from wmaplint.source.edits import replace_scalar
from wmaplint.status.coverage import completes
from wmaplint.status.knowledge import KindFacts, KnowledgeError, load_knowledge, phase_values
from wmaplint.status.model import (
    CONDITION_STATUSES,
    EVALUATION_ORDER,
    Conjunction,
    build_model,
    certain_overlap,
    conflict,
    describe_object,
    subsumes,
)

# ------------------------------------------------------------------------------------------------ coverage
MISSING_RUNNING = define(
    "WM410",
    "status-running-unmapped",
    "warning",
    "The status mappings never report running.",
    why="A workload that no matcher matches reads Undefined (upstream `matchStatus`): without a running "
    "matcher a healthy workload reads Undefined for its whole life, in `kli get` and `kli describe` and in "
    "whatever else reads its status.",
    bad=job_with(
        "          running: [{byExpression: {expression: '(.status.active // 0) > 0', expectedResult: "
        '"true"}}]\n',
        "",
    ),
    good=JOB,
    fix="Add a running matcher (a Running/Ready condition, a running phase, or an expression on ready "
    "replicas).",
)
MISSING_FAILED = define(
    "WM411",
    "status-failed-unmapped",
    "warning",
    "The status mappings never report failed.",
    why="Without a failed matcher a broken workload reads Undefined, or whatever other status still "
    "matches it (running, if the running matcher holds): nothing that reads the status, `kli get --phase "
    "Failed` or a platform's alerting, can tell that it failed.",
    bad=job_with('          failed: [{byConditions: [{type: Failed, status: "True"}]}]\n', ""),
    good=JOB,
    fix="Add a failed matcher for the controller's failure condition or phase.",
)
MISSING_COMPLETED = define(
    "WM412",
    "status-completed-unmapped",
    "warning",
    "A workload that runs to completion has no completed mapping.",
    why="Jobs and training runs finish; without completed a finished workload reads Undefined, as one whose "
    "status nothing matches does, so success cannot be told from an unreadable status. Which kinds complete "
    "comes from schemas/conditions.yaml and the `completes` setting.",
    bad=job_with('          completed: [{byConditions: [{type: Complete, status: "True"}]}]\n', ""),
    good=JOB,
    fix="Add a completed matcher (e.g. the Complete/Succeeded condition), or list nothing if the kind never "
    "ends.",
)
MISSING_SUSPENDED = define(
    "WM413",
    "status-suspended-unmapped",
    "warning",
    "The component can be suspended (suspendDefinition) but no mapping reports suspended.",
    why="A platform that suspends the workload needs to see that it took effect; without a suspended "
    "matcher a suspended workload reads Undefined, or whatever other status still matches it.",
    bad=JOB_SUSPENDABLE,
    good=JOB_SUSPENDABLE.replace(
        "          failed:",
        '          suspended: [{byConditions: [{type: Suspended, status: "True"}]}]\n          failed:',
    ),
    fix="Add a suspended matcher (e.g. a Suspended condition or phase).",
)
MISSING_INITIALIZING = define(
    "WM414",
    "status-initializing-unmapped",
    "info",
    "The status mappings never report initializing.",
    why="Between creation and running (image pulls, scheduling, gang waits) the workload reads Undefined "
    "unless another matcher matches it; an initializing matcher lets platforms show progress and detect "
    "stuck starts.",
    bad=JOB,
    good=JOB_WITH_INITIALIZING,
    fix="Add an initializing matcher, e.g. created but not yet ready.",
)

# ------------------------------------------------------------------------------------------------ knowledge
UNKNOWN_CONDITION = define(
    "WM420",
    "unknown-condition-type",
    "warning",
    "A matcher tests a condition type the workload's controller never sets.",
    why="Condition types are compared exactly; a type the controller never writes (a typo, another "
    "framework's "
    "name) means the matcher never matches. Known types come from schemas/conditions.yaml.",
    bad=job_with('[{type: Failed, status: "True"}]', '[{type: Failure, status: "True"}]'),
    good=JOB,
    fix="Use a condition type the controller sets (see the message's suggestion).",
)
UNKNOWN_PHASE = define(
    "WM421",
    "unknown-phase-value",
    "warning",
    "A byPhase value (or phase compared in an expression) that the phase field never takes.",
    why="Phases are compared as exact strings; a value outside the controller's set (or the CRD's enum) "
    "never "
    "matches, so the status is never reported.",
    bad=POD.replace("byPhase: Succeeded", "byPhase: Succeded"),
    good=POD,
    fix="Use one of the values the message lists (case matters).",
)
BAD_CONDITION_STATUS = define(
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
UNKNOWN_REASON = define(
    "WM423",
    "unknown-condition-reason",
    "info",
    "A condition reason that looks like a misspelling of one the controller sets.",
    why="Reasons are compared exactly; a near-miss of a known reason never matches.",
    bad=job_with(
        '[{type: Failed, status: "True"}]', '[{type: Failed, status: "True", reason: BackoffLimitExeeded}]'
    ).replace("statusFieldName: status}", "statusFieldName: status, reasonFieldName: reason}"),
    good=job_with(
        '[{type: Failed, status: "True"}]', '[{type: Failed, status: "True", reason: BackoffLimitExceeded}]'
    ).replace("statusFieldName: status}", "statusFieldName: status, reasonFieldName: reason}"),
    fix="Use the controller's reason spelling.",
)

# ------------------------------------------------------------------------------------------------ consistency
CONTRADICTION = define(
    "WM430",
    "contradictory-matcher",
    "error",
    "A matcher requires things no object can have at once, so it never matches.",
    why="The fields of one matcher are ANDed: the same condition with two statuses, two different phases, "
    "or (for "
    "known controllers) two conditions the controller never sets True together cannot all hold.",
    bad=job_with(
        '[{type: Failed, status: "True"}]',
        '[{type: Failed, status: "True"}, {type: Failed, status: "False"}]',
    ),
    good=JOB,
    fix="Split the alternatives into separate matchers (entries of the list are ORed), or drop one "
    "requirement.",
)
TERMINAL_OVERLAP = define(
    "WM431",
    "overlapping-terminal-statuses",
    "warning",
    "Two of completed, failed and running can match the same object.",
    why="A workload cannot have succeeded and failed, or be running and failed, yet every status whose "
    "matchers hold is reported: upstream `matchStatus` returns them all in evaluation order, and `kli get` "
    "and `kli describe` print them together (`Running,Failed`). A consumer that keeps one status keeps the "
    "one evaluated first. Success or failure is misreported either way.",
    bad=CUSTOM.replace(
        '[{type: Finished, status: "True"}, {type: Succeeded, status: "False"}]',
        '[{type: Failed, status: "True"}]',
    ),
    good=CUSTOM,
    fix="Make the matchers exclusive: add the distinguishing condition (e.g. Succeeded=False to failed).",
)
REDUNDANT = define(
    "WM432",
    "redundant-matcher",
    "info",
    "A matcher that matches only objects another matcher of the same status already matches.",
    why="Entries of a status list are ORed; an entry subsumed by a more general one adds nothing and "
    "usually means "
    "a requirement was meant for the other entry.",
    bad=job_with(
        '          failed: [{byConditions: [{type: Failed, status: "True"}]}]',
        '          failed:\n            - byConditions: [{type: Failed, status: "True"}]\n'
        '            - byConditions: [{type: Failed, status: "True"}, {type: Complete, status: "False"}]',
    ),
    good=JOB,
    fix="Remove the narrower matcher, or move its extra requirement where it was meant.",
)
ORDER_SHADOW = define(
    "WM433",
    "status-hidden-by-evaluation-order",
    "warning",
    "Every object a matcher matches is also matched by a status evaluated earlier, so it is never reported "
    "alone.",
    why="Every status whose matchers hold is reported, in the order Resuming, Suspending, Suspended, "
    "Running, Failed, Completed, Initializing, Degraded (upstream `StatusMappings.Entries` and "
    "`matchStatus`, which returns all matches and leaves the choice to callers). `kli get` and `kli "
    "describe` print them all, comma-joined in that order, and `kli get --phase` selects a workload by "
    "any of them; the Karta operator and KAI do not read workload status. A later status whose matcher "
    "is covered by an earlier one therefore never appears without it: with a running matcher that "
    "matches every failed object, each failure reads `Running,Failed`, and a consumer that keeps one "
    "status keeps Running.",
    bad=PYTORCHJOB.replace(
        'running: [{byConditions: [{type: Running, status: "True"}]}]',
        'running: [{byConditions: [{type: Created, status: "True"}]}]',
    ).replace(
        'failed: [{byConditions: [{type: Failed, status: "True"}]}]',
        'failed: [{byConditions: [{type: Created, status: "True"}, {type: Failed, status: "True"}]}]',
    ),
    good=PYTORCHJOB,
    fix="Narrow the earlier matcher so it excludes the later status (e.g. running requires Running=True).",
)

# Pairs of statuses a platform must tell apart (the first is evaluated first).
# Pairwise comparisons are quadratic; beyond this many matchers per status only the first ones are compared.
MAX_COMPARED = 256
TERMINAL_PAIRS = (("running", "failed"), ("running", "completed"), ("failed", "completed"))
# Degraded is evaluated last on purpose: it qualifies a running workload, so overlapping with running is
# expected.
NOT_SHADOWED = frozenset({"degraded"})


@check
def status_semantics(ctx: Context) -> Iterator[Diagnostic]:
    root = ctx.definition.root
    if root is None or root.status is None:
        return
    try:
        knowledge = load_knowledge()
    except KnowledgeError:
        knowledge = None
    facts = (
        knowledge.facts(root.kind.group, root.kind.version, root.kind.kind)
        if knowledge and root.kind
        else None
    )
    yield from _coverage(ctx, root, root.status, facts)
    yield from _knowledge(ctx, root, root.status, facts)
    yield from _consistency(ctx, root.status, facts)


# ------------------------------------------------------------------------------------------------ coverage
def _config(ctx: Context) -> Any:
    opts = ctx.options
    return opts[1] if isinstance(opts, tuple) and len(opts) == 2 else None


def _coverage(
    ctx: Context, root: Component, status: StatusDefinition, facts: KindFacts | None
) -> Iterator[Diagnostic]:
    keys = {k for k, matchers in status.mappings.items() if matchers}
    where = status.node.key_node("statusMappings") or status.node.key_node("statusDefinition") or status.node
    kind = root.kind.kind if root.kind else "this workload"
    if "running" not in keys:
        yield ctx.diag(
            MISSING_RUNNING,
            where,
            f"no matcher reports running: a healthy {kind} reads Undefined, so nothing that reads its "
            "status can tell it is running",
        )
    if "failed" not in keys and (facts is None or facts.fails):
        yield ctx.diag(
            MISSING_FAILED,
            where,
            f"no matcher reports failed: a broken {kind} reads Undefined, or whatever other status "
            "matches it, so nothing that reads its status can tell it failed",
        )
    config = _config(ctx)
    runs_to_end, why = completes(root.kind, facts, getattr(config, "completes", ()) or ())
    if runs_to_end and "completed" not in keys:
        yield ctx.diag(
            MISSING_COMPLETED,
            where,
            f"no matcher reports completed, but {kind} runs to completion "
            f"({why}): a finished workload reads Undefined and success cannot be told from a lost status",
        )
    if root.suspend_node is not None and "suspended" not in keys:
        yield ctx.diag(
            MISSING_SUSPENDED,
            where,
            "the component has a suspendDefinition but no matcher reports "
            "suspended: a platform cannot see that a suspend took effect",
            related=[
                ctx.here(root.node.key_node("suspendDefinition") or root.suspend_node, "suspendDefinition")
            ],
        )
    if "initializing" not in keys:
        yield ctx.diag(
            MISSING_INITIALIZING,
            where,
            "no matcher reports initializing: between creation and running "
            "the workload reads Undefined, so stuck starts cannot be told from unknown states",
        )


# ------------------------------------------------------------------------------------------------ knowledge
def _suggest(name: str, known: list[str]) -> str | None:
    lowered = {k.lower(): k for k in known}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    return close[0] if close else None


def _rename_fix(node: ScalarNode, new: str) -> list[Fix]:
    return fix(f"replace with {new}", replace_scalar(node, new))


def _schema_types(ctx: Context, root: Component) -> list[Any]:
    """The target CRD's schema types, when a schema store is configured (best effort: never fails the
    lint)."""
    if root.kind is None or not isinstance(ctx.options, tuple) or len(ctx.options) != 2:
        return []
    cache_key = f"status-schema:{root.kind}"
    if cache_key in ctx.cache:
        return ctx.cache[cache_key]
    types: list[Any] = []
    try:
        options, config = ctx.options
        store = options.schema_store(config) if hasattr(options, "schema_store") else None
        if store is not None:
            types = [r.type for r in store.lookup(root.kind.group, root.kind.version, root.kind.kind)]
    except Exception:  # a broken schema source is reported by the schema rules, not here
        types = []
    ctx.cache[cache_key] = types
    return types


def _knowledge(
    ctx: Context, root: Component, status: StatusDefinition, facts: KindFacts | None
) -> Iterator[Diagnostic]:
    phase_known: tuple[str, ...] = ()
    phase_source = ""
    if status.phase_path is not None:
        phase_known, phase_source = phase_values(facts, status.phase_path.text, _schema_types(ctx, root))
    gvk = facts.gvk if facts else (str(root.kind) if root.kind else "")
    for key, matchers in status.mappings.items():
        for matcher in matchers:
            for entry in matcher.by_conditions:
                yield from _condition_entry(ctx, entry, key, facts)
            if matcher.by_phase is not None and phase_known and matcher.by_phase.value not in phase_known:
                yield _unknown_phase(
                    ctx, matcher.by_phase, matcher.by_phase.value, key, phase_known, phase_source, gvk
                )
            if (
                matcher.expression is not None
                and matcher.expected_result is not None
                and phase_known
                and status.phase_path is not None
            ):
                from wmaplint.status.knowledge import normalise_path
                from wmaplint.status.model import expression_fact

                fact = expression_fact(
                    matcher.expression.text,
                    matcher.expected_result.value,
                    normalise_path(status.phase_path.text),
                )
                if fact.kind == "phase" and fact.value and fact.value not in phase_known:
                    node = (
                        matcher.expected_result
                        if fact.value == matcher.expected_result.value
                        else matcher.expression.node
                    )
                    yield _unknown_phase(
                        ctx,
                        node,
                        fact.value or "",
                        key,
                        phase_known,
                        phase_source,
                        gvk,
                        fixable=node is matcher.expected_result,
                    )


def _unknown_phase(
    ctx: Context,
    node: ScalarNode,
    value: str,
    key: str,
    known: tuple[str, ...],
    source: str,
    gvk: str,
    fixable: bool = True,
) -> Diagnostic:
    suggestion = _suggest(value, [k for k in known if k])
    shown = ", ".join(repr(k) for k in known)
    who = gvk or "the workload"
    message = f"{key!r} compares the phase with {value!r}, which {who} never sets (values: {shown}"
    message += f"; from {source})" if source else ")"
    if suggestion:
        message += f"; did you mean {suggestion!r}?"
    return ctx.diag(
        UNKNOWN_PHASE, node, message, fixes=_rename_fix(node, suggestion) if suggestion and fixable else []
    )


def _condition_entry(
    ctx: Context, entry: MappingNode, key: str, facts: KindFacts | None
) -> Iterator[Diagnostic]:
    type_node = entry.get("type")
    status_node = entry.get("status")
    if isinstance(status_node, ScalarNode) and status_node.value is not None:
        value = status_node.value
        if isinstance(value, bool):
            proper = "True" if value else "False"
            yield ctx.diag(
                BAD_CONDITION_STATUS,
                status_node,
                f"status {status_node.text} under {key!r} is a YAML boolean, not the string {proper!r}: "
                "condition statuses are compared as strings, so it never matches",
                fixes=fix(f'quote as "{proper}"', replace_scalar(status_node, proper)),
            )
        elif isinstance(value, str) and value not in CONDITION_STATUSES:
            proper_s = _suggest(value, list(CONDITION_STATUSES))
            case_note = " (case matters)" if proper_s and proper_s.lower() == value.lower() else ""
            yield ctx.diag(
                BAD_CONDITION_STATUS,
                status_node,
                f'status {value!r} under {key!r} never matches: condition statuses are "True", '
                f'"False" or "Unknown"{case_note}',
                fixes=fix(f'replace with "{proper_s}"', replace_scalar(status_node, proper_s))
                if proper_s else [],
            )
    if facts is None or not isinstance(type_node, ScalarNode) or not isinstance(type_node.value, str):
        return
    ctype = type_node.value
    known = list(facts.conditions)
    if ctype not in facts.conditions:
        suggestion = _suggest(ctype, known)
        if not facts.exhaustive and suggestion is None:
            return
        if known:
            message = (
                f"condition type {ctype!r} under {key!r} is never set by {facts.gvk} ({facts.source}); its "
                f"types are {', '.join(known)}"
            )
        else:
            message = (
                f"condition type {ctype!r} under {key!r} never exists: {facts.gvk} has no conditions "
                f"({facts.source})"
            )
        if suggestion:
            message += f"; did you mean {suggestion!r}?"
        yield ctx.diag(
            UNKNOWN_CONDITION,
            type_node,
            message,
            fixes=_rename_fix(type_node, suggestion) if suggestion else [],
        )
        return
    reason_node = entry.get("reason")
    reasons = list(facts.conditions[ctype].reasons)
    if (
        isinstance(reason_node, ScalarNode)
        and isinstance(reason_node.value, str)
        and reasons
        and reason_node.value not in reasons
    ):
        suggestion = _suggest(reason_node.value, reasons)
        if suggestion:
            yield ctx.diag(
                UNKNOWN_REASON,
                reason_node,
                f"reason {reason_node.value!r} of {ctype} under {key!r} is not one {facts.gvk} sets; did "
                f"you mean {suggestion!r}?",
                fixes=_rename_fix(reason_node, suggestion),
            )


# ------------------------------------------------------------------------------------------------ consistency
def _title(key: str) -> str:
    return key.capitalize()


def _consistency(ctx: Context, status: StatusDefinition, facts: KindFacts | None) -> Iterator[Diagnostic]:
    model = build_model(status)
    usable: dict[str, list[Conjunction]] = {}
    for key, conjunctions in model.conjunctions.items():
        for conj in conjunctions:
            if conj.empty or conj.never:
                continue  # reported by the structural status rules
            logical = conflict(conj.facts)
            if logical:
                yield ctx.diag(
                    CONTRADICTION, conj.matcher.node, f"matcher {conj.label} never matches: {logical}"
                )
                continue
            known = conflict(conj.facts, facts)
            if known:
                yield ctx.diag(
                    CONTRADICTION,
                    conj.matcher.node,
                    f"matcher {conj.label} never matches: {known}",
                    severity=Severity.WARNING,
                )
                continue
            if len(usable.setdefault(key, [])) < MAX_COMPARED:
                usable[key].append(conj)
    shadowed_pairs: set[tuple[int, int]] = set()
    yield from _redundant(ctx, usable)
    yield from _shadowed(ctx, usable, shadowed_pairs)
    yield from _overlaps(ctx, usable, facts, shadowed_pairs)


def _node_of(conj: Conjunction) -> Node:
    return conj.matcher.node


def _redundant(ctx: Context, usable: dict[str, list[Conjunction]]) -> Iterator[Diagnostic]:
    for conjunctions in usable.values():
        for j, specific in enumerate(conjunctions):
            for i, general in enumerate(conjunctions):
                if i == j or not subsumes(general, specific):
                    continue
                if subsumes(specific, general) and j < i:
                    continue  # duplicates: report only the later one
                yield ctx.diag(
                    REDUNDANT,
                    _node_of(specific),
                    f"matcher {specific.label} is redundant: every object it matches is already matched "
                    f"by {general.label}",
                    related=[ctx.here(_node_of(general), f"{general.label}")],
                )
                break


def _shadowed(
    ctx: Context, usable: dict[str, list[Conjunction]], pairs: set[tuple[int, int]]
) -> Iterator[Diagnostic]:
    order = [k for k in EVALUATION_ORDER if k in usable]
    for b_index, later in enumerate(order):
        if later in NOT_SHADOWED:
            continue
        for specific in usable[later]:
            for earlier in order[:b_index]:
                general = next((g for g in usable[earlier] if subsumes(g, specific)), None)
                if general is None:
                    continue
                pairs.add((id(general), id(specific)))
                yield ctx.diag(
                    ORDER_SHADOW,
                    _node_of(specific),
                    f"every object {specific.label} matches ({_example(specific)}) also matches "
                    f"{general.label}, and {_title(earlier)} is evaluated before {_title(later)}: such "
                    f"objects are reported {_title(earlier)},{_title(later)}, never {later} alone, and a "
                    f"consumer that keeps one status keeps {earlier}",
                    related=[ctx.here(_node_of(general), f"{general.label} matches them first")],
                )
                break


def _example(conj: Conjunction) -> str:
    return describe_object(conj.facts)


def _overlaps(
    ctx: Context,
    usable: dict[str, list[Conjunction]],
    facts: KindFacts | None,
    shadowed: set[tuple[int, int]],
) -> Iterator[Diagnostic]:
    for first, second in TERMINAL_PAIRS:
        found = None
        for a in usable.get(first, []):
            for b in usable.get(second, []):
                if (id(a), id(b)) in shadowed:
                    continue
                witness = certain_overlap(a, b, facts)
                if witness is not None:
                    found = (a, b, witness)
                    break
            if found:
                break
        if found is None:
            continue
        a, b, witness = found
        yield ctx.diag(
            TERMINAL_OVERLAP,
            _node_of(b),
            f"an object with {describe_object(witness)} matches both {a.label} and {b.label}: a workload "
            f"cannot be {first} and {second} at once, yet it is reported as both ({_title(first)},"
            f"{_title(second)}), and a consumer that keeps one status keeps {first}, evaluated first",
            related=[ctx.here(_node_of(a), f"{a.label} also matches")],
        )
