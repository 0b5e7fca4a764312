"""Status mapping consistency: contradictions, overlaps, redundancy, evaluation-order surprises.

Only the root's statusDefinition is read by the runtime, so only the root is analysed.
"""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.checks import Context, check
from wmaplint.definition.model import StatusDefinition
from wmaplint.diagnostics import Diagnostic, Severity, define
from wmaplint.rules.examples import CUSTOM, JOB, PYTORCHJOB, job_with
from wmaplint.source import Node
from wmaplint.status.conjunctions import (
    Conjunction,
    certain_overlap,
    conflict,
    conjunctions_of,
    describe_object,
    subsumes,
)
from wmaplint.status.knowledge import Controller
from wmaplint.status.mappings import runtime_status

# StatusMappings.Entries() order; all matching statuses are listed in this order, callers usually take the
# first.
EVALUATION_ORDER = (
    "resuming",
    "suspending",
    "suspended",
    "running",
    "failed",
    "completed",
    "initializing",
    "degraded",
)

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
    found = runtime_status(ctx.definition)
    if found is not None:
        yield from _consistency(ctx, found[1], ctx.root_controller)

def _title(key: str) -> str:
    return key.capitalize()


def _consistency(ctx: Context, status: StatusDefinition, facts: Controller | None) -> Iterator[Diagnostic]:
    model = conjunctions_of(status)
    usable: dict[str, list[Conjunction]] = {}
    for key, conjunctions in model.items():
        for conj in conjunctions:
            if conj.empty or conj.never:
                continue  # reported by the structural status rules
            logical = conflict(conj.requirements)
            if logical:
                yield ctx.diag(
                    CONTRADICTION, conj.matcher.node, f"matcher {conj.label} never matches: {logical}"
                )
                continue
            known = conflict(conj.requirements, facts)
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
    return describe_object(conj.requirements)


def _overlaps(
    ctx: Context,
    usable: dict[str, list[Conjunction]],
    facts: Controller | None,
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
