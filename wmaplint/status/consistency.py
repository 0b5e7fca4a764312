"""Whether the matchers of a status definition agree with each other.

Found, each as a finding: a matcher no object can meet (by logic, or by what the controller never sets at
once), a matcher that another of the same status already covers, a matcher every object of which an earlier
status in evaluation order matches too, and an object two terminal statuses both match (with that object in
words).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.dataclass import dataclass
from wmaplint.definition.model import StatusDefinition
from wmaplint.findings import FileFinding
from wmaplint.source import content_span
from wmaplint.status.conjunctions import (
    Conjunction,
    Requirement,
    certain_overlap,
    conflict,
    conjunctions_of,
    describe_object,
    subsumes,
)

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel

# StatusMappings.Entries() order: every matching status is reported, in this order; callers usually take the
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

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel
# Pairs of statuses a platform must tell apart (the first is evaluated first).
TERMINAL_PAIRS = (("running", "failed"), ("running", "completed"), ("failed", "completed"))
# Degraded is evaluated last on purpose: it qualifies a running workload, so overlapping with running is
# expected.
NOT_SHADOWED = frozenset({"degraded"})
# Pairwise comparisons are quadratic; beyond this many matchers per status only the first ones are compared.
MAX_COMPARED = 256


@dataclass(frozen=True, slots=True, eq=False)
class ContradictoryMatcher(FileFinding):
    """``matcher`` requires what no object has at once (``why``); ``by_controller`` when only the controller
    rules it out (conditions it never sets True together)."""

    matcher: Conjunction
    why: str
    by_controller: bool


@dataclass(frozen=True, slots=True, eq=False)
class RedundantMatcher(FileFinding):
    """Every object ``matcher`` matches is already matched by ``general``, of the same status."""

    matcher: Conjunction
    general: Conjunction


@dataclass(frozen=True, slots=True, eq=False)
class HiddenByOrder(FileFinding):
    """Every object ``matcher`` matches (``example``) is also matched by ``earlier``, of a status evaluated
    before."""

    matcher: Conjunction
    earlier: Conjunction
    example: str


@dataclass(frozen=True, slots=True, eq=False)
class TerminalOverlap(FileFinding):
    """An object (``example``) matches both ``first`` and ``second``, of two statuses a platform must tell
    apart; ``first``'s is evaluated first."""

    first: Conjunction
    second: Conjunction
    example: str


def inconsistencies(path: str, status: StatusDefinition, controller: KindModel | None) -> list[FileFinding]:
    """What disagrees among the matchers of ``status`` (in the file ``path``)."""
    found: list[FileFinding] = []
    usable: dict[str, list[Conjunction]] = {}
    for key, conjunctions in conjunctions_of(status).items():
        for conj in conjunctions:
            if conj.empty or conj.never:
                continue  # the structure of the matcher says so already
            if controller is not None and _needs_a_type_never_set(conj, controller):
                continue  # it matches no object; the unknown-condition rule says so once, on the type
            why = conflict(conj.requirements)
            if why is not None:
                found.append(ContradictoryMatcher(path, content_span(conj.matcher.node), conj, why, False))
                continue
            why = conflict(conj.requirements, controller)
            if why is not None:
                found.append(ContradictoryMatcher(path, content_span(conj.matcher.node), conj, why, True))
                continue
            if len(usable.setdefault(key, [])) < MAX_COMPARED:
                usable[key].append(conj)
    found.extend(_redundant(path, usable))
    hidden = _hidden(path, usable)
    found.extend(hidden)
    found.extend(_overlaps(path, usable, controller, {(id(h.earlier), id(h.matcher)) for h in hidden}))
    return found


def _needs_a_type_never_set(conj: Conjunction, controller: KindModel) -> bool:
    status = controller.status
    return status is not None and any(r.kind in ("cond", "exists", "reason") and r.positive
                                      and status.never_sets(r.key) for r in conj.requirements)


def _redundant(path: str, usable: dict[str, list[Conjunction]]) -> list[RedundantMatcher]:
    found = []
    for conjunctions in usable.values():
        for j, specific in enumerate(conjunctions):
            for i, general in enumerate(conjunctions):
                if i == j or not subsumes(general, specific):
                    continue
                if subsumes(specific, general) and j < i:
                    continue  # duplicates: only the later one is redundant
                found.append(RedundantMatcher(path, content_span(specific.matcher.node), specific, general))
                break
    return found


def _hidden(path: str, usable: dict[str, list[Conjunction]]) -> list[HiddenByOrder]:
    found = []
    order = [k for k in EVALUATION_ORDER if k in usable]
    for index, later in enumerate(order):
        if later in NOT_SHADOWED:
            continue
        for specific in usable[later]:
            for earlier in order[:index]:
                general = next((g for g in usable[earlier] if subsumes(g, specific)), None)
                if general is None:
                    continue
                example = describe_object(specific.requirements)
                where = content_span(specific.matcher.node)
                found.append(HiddenByOrder(path, where, specific, general, example))
                break
    return found


def _overlaps(
    path: str,
    usable: dict[str, list[Conjunction]],
    controller: KindModel | None,
    hidden: set[tuple[int, int]],
) -> list[TerminalOverlap]:
    found = []
    for first, second in TERMINAL_PAIRS:
        pair = _first_overlap(usable.get(first, []), usable.get(second, []), controller, hidden)
        if pair is not None:
            a, b, witness = pair
            found.append(TerminalOverlap(path, content_span(b.matcher.node), a, b, describe_object(witness)))
    return found


def _first_overlap(
    firsts: list[Conjunction],
    seconds: list[Conjunction],
    controller: KindModel | None,
    hidden: set[tuple[int, int]],
) -> tuple[Conjunction, Conjunction, frozenset[Requirement]] | None:
    """The first pair of matchers that certainly match one object, not already reported as hidden."""
    for a in firsts:
        for b in seconds:
            if (id(a), id(b)) in hidden:
                continue
            witness = certain_overlap(a, b, controller)
            if witness is not None:
                return a, b, witness
    return None
