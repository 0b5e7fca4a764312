"""The drafted status definition: where conditions and the phase live, and a mapping read from their names.

Condition types, their reasons and phase values come from the controller model (``schemas/controllers/``) for
a kind it knows, else from the CRD: the enum of the field, or the words of its description. Each name is read
as a status by its words (``Failed`` is failed, ``RayClusterSuspended`` suspended, ``ReplicaFailure``
degraded, a reason ``PodSucceeded`` of a condition that says nothing itself completed); every such reading is
a guess and its comment says so.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from wmaplint.dataclass import dataclass, field
from wmaplint.draft.shapes import integer, string_member, type_at
from wmaplint.draft.writer import Map, Seq
from wmaplint.schema.types import ANY_KIND, ARRAY, OBJECT, SchemaType
from wmaplint.status.knowledge import phase_values

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel, StatusFacts

# the order mappings are written in: the everyday ones first
ORDER = ("running", "completed", "failed", "degraded", "suspended", "suspending", "resuming", "initializing")
# whole names (lower-cased, without separators) and what they read as
_WORDS = {
    "running": ("running", "ready", "available", "healthy", "active"),
    "completed": ("succeeded", "complete", "completed", "success", "successful"),
    "failed": ("failed", "failure", "error", "errored"),
    "suspended": ("suspended", "stopped", "paused"),
    "suspending": ("suspending", "stopping"),
    "resuming": ("resuming",),
    "initializing": ("pending", "initializing", "new", "waiting", "created", "provisioning", "notready",
                     "starting", "queued"),
    "degraded": ("degraded", "unhealthy", "restarting"),
}
_BY_WORD = {word: status for status, words in _WORDS.items() for word in words}
# the last word of a longer name: RayClusterSuspended, ValidationFailed, PodSucceeded, DeadlineExceeded
_LAST_WORD = {"suspended": "suspended", "suspending": "suspending", "failed": "failed",
              "exceeded": "failed", "succeeded": "completed", "completed": "completed",
              "failure": "degraded", "breached": "degraded", "error": "failed"}
# the first word of a longer name that has no such last word: a decision taken while pods still terminate
# (a Job's SuccessCriteriaMet, FailureTarget) already tells how the workload ends
_FIRST_WORD = {"success": "completed", "failure": "failed"}
# the last word of a condition of positive polarity (True is the good state): a reason that reads as a
# failure is given with False
_POSITIVE = ("ready", "available", "healthy", "provisioned", "initialized", "scheduled")
# statuses a condition type can tell; initializing conditions (Created) stay True for the workload's life
_CONDITION_STATUSES = ("running", "completed", "failed", "degraded", "suspended", "suspending", "resuming")
_RUNNING_PREFERENCE = ("running", "ready", "available", "healthy")
# counters of pods running now, in the order they say most about a running workload
_ACTIVE_COUNTS = ("readyReplicas", "availableReplicas", "ready", "active")
_CAMEL = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def classify(name: str) -> str | None:
    """The status a condition type, reason or phase value reads as, by its words; None when it says
    nothing."""
    flat = re.sub(r"[^a-z]", "", name.lower())
    if flat in _BY_WORD:
        return _BY_WORD[flat]
    words = _CAMEL.findall(name.replace("_", " ").title() if name.isupper() else name)
    if len(words) < 2:
        return None
    return _LAST_WORD.get(words[-1].lower()) or _FIRST_WORD.get(words[0].lower())


def _positive(name: str) -> bool:
    words = _CAMEL.findall(name)
    return bool(words) and words[-1].lower() in _POSITIVE


@dataclass
class Guess:
    """A matcher and the comment saying what it was read from."""

    matcher: Map
    comment: str


@dataclass
class StatusDraft:
    definition: Map
    comments: list[str] = field(default_factory=list)


def _everywhere(types: list[SchemaType], location: tuple[str, ...],
                test: Callable[[SchemaType], bool]) -> bool:
    """``test`` holds for the type at ``location`` in every source (a source that declares nothing there
    accepts anything)."""
    for t in types:
        found = type_at(t, location)
        if found is None:
            return False
        if found.kind != ANY_KIND and not (found.kind == OBJECT and not found.properties) and not test(found):
            return False
    return True


def _conditions(t: SchemaType) -> bool:
    items = t.items if t.kind == ARRAY else None
    return items is not None and items.kind == OBJECT and {"type", "status"} <= set(items.properties)


def _phase_path(types: list[SchemaType], facts: StatusFacts | None) -> str | None:
    known = [fact.path for fact in facts.phases.values()] if facts else []
    for candidate in [*known, ".status.phase", ".status.state"]:
        steps = tuple(candidate.lstrip(".").split("."))
        if steps[0] != "status" or type_at(types[0], steps) is None:
            continue
        name = steps[-1]

        def has_string(t: SchemaType, name: str = name) -> bool:
            return string_member(t, name)

        if _everywhere(types, steps[:-1], has_string):
            return candidate
    return None


def _described(texts: Iterable[str | None]) -> list[str]:
    """Capitalised words of descriptions that read as a status."""
    found: dict[str, None] = {}
    for text in texts:
        for word in re.findall(r"\b[A-Z][A-Za-z]+\b", text or ""):
            if classify(word) is not None:
                found[word] = None
    return list(found)


def _condition(type_name: str, status: str | None = "True", reason: str | None = None) -> Map:
    test = Map(flow=True).add("type", type_name)
    if status is not None:
        test.add("status", status)
    if reason is not None:
        test.add("reason", reason)
    return Map().add("byConditions", Seq(flow=True).add(test))


def _any_true(types: list[str]) -> str:
    tests = " or ".join(f'. == "{t}"' for t in types)
    return f'[.status.conditions[]? | select(.status == "True") | .type] | any({tests})'


def _expression(expression: str, expected: str = "true") -> Map:
    return Map().add("byExpression", Map().add("expression", expression).add("expectedResult", expected))


@dataclass(frozen=True)
class _Count:
    """A count of what runs now in the status: of pods at its top level, or of child objects (a JobSet's
    Jobs) summed over a list of their statuses."""

    text: str
    children: bool


def _active_count(types: list[SchemaType]) -> _Count | None:
    status = type_at(types[0], ("status",))
    if status is None or status.kind != OBJECT:
        return None
    for name in _ACTIVE_COUNTS:
        if integer(type_at(status, (name,))) and _everywhere(types, ("status", name), integer):
            return _Count(f"(.status.{name} // 0)", children=False)
    for list_name, prop in status.properties.items():
        items = prop.type.items if prop.type.kind == ARRAY else None
        if items is None or items.kind != OBJECT:
            continue
        names = [name for name in _ACTIVE_COUNTS if integer(type_at(items, (name,)))
                 and _everywhere(types, ("status", list_name, "[]", name), integer)]
        if names:
            # a child that is active or ready runs: both are counted, never only the one the other lags
            terms = " + ".join(f"(.{name} // 0)" for name in names)
            return _Count(f"([.status.{list_name}[]? | {terms}] | add // 0)", children=True)
    return None


class _Mapping:
    def __init__(self) -> None:
        self.guesses: dict[str, list[Guess]] = {}

    def add(self, status: str, matcher: Map, comment: str) -> None:
        self.guesses.setdefault(status, []).append(Guess(matcher, comment))

    def __contains__(self, status: str) -> bool:
        return status in self.guesses


def draft_status(types: list[SchemaType], model: KindModel | None, facts_note: str,
                 suspendable: bool, asked: str | None = None, switch: str | None = None) -> StatusDraft:
    """The root's statusDefinition for a kind whose schema is ``types[0]`` (the others: the other sources
    serving it), with ``model`` the controller model of the kind when there is one (``facts_note``: where
    its facts come from). ``asked``: the replicas the root's spec asks for (jq), when it has a replica count;
    ``switch``: the spec's suspend switch (jq path), when it has one."""
    definition = Map()
    draft = StatusDraft(definition)
    mapping = _Mapping()
    facts = model.status if model is not None else None
    completes = facts.completes if facts is not None else None

    phase = _phase_path(types, facts)
    if phase is not None:
        values, where = phase_values(model, phase, types)
        if not values:
            prop = type_at(types[0], tuple(phase.lstrip(".").split(".")[:-1]))
            member = prop.properties.get(phase.split(".")[-1]) if prop is not None else None
            values = tuple(_described([member.description if member else None]))
            where = "named in the field's description" if values else ""
        shown = ", ".join(f'"{v}"' if not v else v for v in values) or "not known"
        definition.add("phaseDefinition", Map().add("path", phase),
                       f"the phase; its values: {shown}" + (f" ({where})" if where else ""))
        for value in values:
            read = classify(value) if value else None
            if read == "completed" and completes is False:
                read = "running"  # a kind that never ends reports a successful rollout
            if read is not None:
                mapping.add(read, Map().add("byPhase", value), f"guess: phase {value} read as {read}")

    condition_types: list[str] = []
    declared = type_at(types[0], ("status", "conditions"))
    writes_none = facts is not None and facts.exhaustive is True and not facts.conditions
    if declared is not None and _conditions(declared) and _everywhere(types, ("status", "conditions"),
                                                                       _conditions):
        if writes_none:
            draft.comments.append(f"status.conditions: the controller writes none ({facts_note})")
        else:
            condition_types = _condition_types(types[0], declared, facts, facts_note, definition)
            _condition_guesses(mapping, condition_types, facts, completes)

    phase_running = any(g.matcher.get("byPhase") is not None for g in mapping.guesses.get("running", []))
    _fallbacks(mapping, types, condition_types, asked, draft.comments, phase_running)
    if switch is not None:
        _switch(mapping, switch, writes_none, phase, draft.comments)
    if phase is not None:
        others = _other_states(types[0], phase)
        if others:
            draft.comments.append(f"TODO: the status also holds {', '.join(others)}, of which the controller "
                                  "model says nothing: where it tells the workload's own result before the "
                                  "phase does, read it too")
    if "degraded" not in mapping:
        draft.comments.append("TODO: nothing in the status reads as degraded (pods failed or not ready while "
                              "the workload still runs): add a matcher if the controller tells it")
    if suspendable and "suspended" not in mapping:
        draft.comments.append("TODO: the kind has a suspend switch but nothing in its status reads as "
                              "suspended: add a suspended matcher")
    mappings = Map()
    for name in ORDER:
        guesses = mapping.guesses.get(name)
        if guesses:
            seq = Seq()
            for guess in guesses:
                seq.add(guess.matcher, guess.comment)
            mappings.add(name, seq)
    missing = [s for s in ("running", "failed") if s not in mapping]
    if facts is not None and facts.fails is False and "failed" in missing:
        missing.remove("failed")
    note = ""
    if missing:
        note = (f"TODO: nothing in the status reads as {' or '.join(missing)}: add matchers for "
                f"{'them' if len(missing) > 1 else 'it'} (a condition, a phase value or a byExpression)")
    definition.add("statusMappings", mappings, note)
    return draft


def _condition_types(root: SchemaType, declared: SchemaType, facts: StatusFacts | None, facts_note: str,
                     definition: Map) -> list[str]:
    items = declared.items
    assert items is not None
    conditions = Map().add("path", ".status.conditions").add("typeFieldName", "type").add(
        "statusFieldName", "status")
    if "reason" in items.properties:
        conditions.add("reasonFieldName", "reason")
    if "message" in items.properties:
        conditions.add("messageFieldName", "message")
    if facts is not None:
        types = list(facts.conditions)
        origin = facts_note
    else:
        enum = items.properties["type"].type.enum or ()
        types = [str(v) for v in enum]
        origin = "the CRD's enum"
        if not types:
            status = type_at(root, ("status",))
            held = status.properties.get("conditions") if status is not None else None
            types = _described([items.properties["type"].description, held.description if held else None])
            origin = "named in the CRD's descriptions"
    listed = ", ".join(types) if types else "none known"
    # offline there is no API server to fill in the field names' defaults, so they are spelled out
    definition.add("conditionsDefinition", conditions, f"condition types: {listed} ({origin})")
    return types


def _condition_guesses(mapping: _Mapping, condition_types: list[str], facts: StatusFacts | None,
                       completes: bool | None) -> None:
    phase_running = "running" in mapping
    by_status: dict[str, list[str]] = {}
    for type_name in condition_types:
        read = classify(type_name)
        if read in _CONDITION_STATUSES:
            by_status.setdefault(read, []).append(type_name)
    running = sorted(by_status.get("running", []), key=lambda t: _RUNNING_PREFERENCE.index(t.lower())
                     if t.lower() in _RUNNING_PREFERENCE else len(_RUNNING_PREFERENCE))
    by_status["running"] = running[:1]
    for read in _CONDITION_STATUSES:
        if read in mapping or (read == "completed" and completes is False):
            continue
        for type_name in by_status.get(read, []):
            mapping.add(read, _condition(type_name), f"guess: condition {type_name} True read as {read}")
    if facts is None or phase_running:
        return
    # A condition whose type says nothing may say it by a reason (Finished: PodSucceeded). Only where it
    # cannot be read together with running: a reason of the running condition itself (which is then False),
    # or of a condition the controller never has True beside it, and only when no phase tells running;
    # elsewhere (a Deployment's Progressing with
    # ProgressDeadlineExceeded while replicas are available) it is not a terminal status.
    running_type = by_status["running"][0] if by_status["running"] else None
    # statuses read from names: no reason adds to them (the reasons of one condition all do)
    already = set(mapping.guesses)
    for type_name, fact in facts.conditions.items():
        if classify(type_name) is not None and type_name != running_type:
            continue
        # a condition of positive polarity beside the running one (Knative's ConfigurationsReady) is False
        # with the reason of a failure, and the running one with it
        dependent = type_name != running_type and _positive(type_name)
        if type_name == running_type or dependent:
            status = "False"
        elif running_type is None or facts.never_true_together(type_name, running_type):
            status = "True"
        else:
            continue
        for reason in fact.reasons:
            read = classify(reason)
            if read not in ("completed", "failed") or read in by_status or read in already:
                continue
            if dependent and read != "failed":
                continue
            if not (read == "completed" and completes is False):
                mapping.add(read, _condition(type_name, status, reason),
                            f"guess: condition {type_name} {status} with reason {reason} read as {read}")


def _other_states(root: SchemaType, phase: str) -> list[str]:
    """String members of the status named as a state or status, beside the phase read."""
    status = type_at(root, ("status",))
    if status is None or status.kind != OBJECT:
        return []
    return [f".status.{name}" for name in status.properties if f".status.{name}" != phase
            and re.search(r"(State|Status|Phase)$", name) and string_member(status, name)]


def _switch(mapping: _Mapping, switch: str, writes_none: bool, phase: str | None,
            comments: list[str]) -> None:
    """Suspended read from the spec's switch where the status cannot say it: a controller that writes no
    condition, and one that has written no status yet. A suspended phase is the controller's while the
    switch is still on; after a resume it is stale until the controller writes the next one."""
    if "suspended" not in mapping and writes_none:
        mapping.add("suspended", _expression(f"{switch} == true"),
                    f"the controller writes no condition: suspended while {switch} is true")
        return
    guarded = False
    for guess in mapping.guesses.get("suspended", []):
        value = guess.matcher.get("byPhase")
        if value is not None and phase is not None:
            guarded = True
            guess.matcher = _expression(f"{phase} == {json.dumps(value)} and {switch} == true")
            guess.comment += f", while {switch} is true (after a resume the phase is stale)"
    if guarded:
        comments.append("TODO: recorded workloads differ on a suspended phase that lags a resume "
                        "(Suspended for RayJob, no state for RayCluster) and on a workload created suspended "
                        "before any status (the reverse): the draft reads the phase while the switch is on, "
                        "and no state before the first status")


def _fallbacks(mapping: _Mapping, types: list[SchemaType], condition_types: list[str], asked: str | None,
               comments: list[str], phase_running: bool) -> None:
    """running and initializing from what is there when no name reads as them.

    A status the controller has not written yet reads as no state (Undefined), as recorded workloads of
    most kinds read; so does a phase not written yet. A workload whose spec asks for a number of replicas
    initializes until just that many are counted (a surplus one still terminating after a scale-down
    included), even before any status is written."""
    ends = [t for t in condition_types if classify(t) in ("completed", "failed", "suspended")]
    count = _active_count(types)
    if "running" not in mapping and count is not None:
        test = f"({_any_true(ends)} | not) and " if ends else ""
        if asked is not None and not count.children:
            mapping.add("running", _expression(f"{test}{count.text} == {asked}"),
                        f"guess: running once {count.text.strip('()')} is the {asked.strip('()')} asked for")
            if "initializing" not in mapping:
                mapping.add("initializing", _expression(f"{test}{count.text} != {asked}"),
                            "guess: initializing until then")
            comments.append("TODO: recorded workloads differ while a surplus replica terminates after a "
                            "scale-down (Initializing for a StatefulSet, Running for a PodCliqueSet): the "
                            "draft reads Initializing")
            return
        mapping.add("running", _expression(f"{test}{count.text} > 0"),
                    f"guess: running while pods are active ({count.text.strip('()')})")
        if "initializing" not in mapping and not count.children:
            mapping.add("initializing", _expression(f"{test}.status != null and {count.text} == 0"),
                        "guess: initializing from the first status written until the first pod is active")
        return
    if "initializing" in mapping:
        return
    told = [t for t in condition_types if classify(t) in _CONDITION_STATUSES]
    # where a phase tells running, a status with conditions but no phase yet reads as no state
    if told and "running" in mapping and not phase_running:
        mapping.add("initializing", _expression(f"([.status.conditions[]?] | length) > 0 and "
                                                f"({_any_true(told)} | not)"),
                    f"guess: initializing from the first condition written until {' or '.join(told)} is True")
        comments.append("TODO: a condition still Unknown reads as initializing here; the recorded workloads "
                        "of some kinds read it as no state yet (Undefined): check it against the controller")
