"""The pods a workload's controllers create, enumerated from the controller model alone (``creates`` of
``schemas/controllers/``), independent of any definition: for every created pod object, each entry its
``each`` yields, each of its ``groups``, ``count`` pods, each with its template and where the template sits
in the manifest, and the labels the model derives (``derive``, jq with ``$entry``, ``$group``, ``$index`` and
``$component`` bound).

The programs of an entry and of a pod are the model's text alone: the entry (its path in the manifest, or
its value) and the pod's group and index are the values of a call (``JqCall``), data, so each program is
parsed for its cost and compiled once a run, not once a manifest, and the calls of one step run in one pass.
"""

from __future__ import annotations

import itertools
import json
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.controllers import UNKNOWN, CreatedObject, KindModel
from wmaplint.dataclass import dataclass
from wmaplint.jq.runtime import JqCall, JqInput, JqResult, JqRuntime, bound
from wmaplint.resolve.counts import as_count

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from wmaplint.source.plain import Json

MAX_CREATED = 5000
MAX_VISITS = 20_000  # values looked at to find where one template sits: a real manifest has far fewer


@dataclass
class CreatedPod:
    created: str  # the name of the created object in the model ("worker", "submitter")
    entry: int | None  # the index of the entry of ``each``, None without one
    group: int
    index: int
    template: Any  # the pod template ({metadata, spec}) or None when the controller makes its own
    template_path: tuple[Any, ...] | None  # where the template sits in the manifest
    labels: dict[str, str]  # the labels the model derives (the template's not included)
    undetermined: frozenset[str]  # labels written on these pods whose value the model cannot derive


# A program on the manifest, or a call of a bound one (the programs of an entry and of a pod)
Program = str | JqCall


class ManifestResults:
    """The results of programs on one manifest, each evaluated once: the pods made for the selectors' check
    and for the grouper, and where their templates sit, ask many of the same programs (``results_of``)."""

    def __init__(self, runtime: JqRuntime, obj: Any, prepared: JqInput | None = None):
        self.runtime = runtime
        self.input = prepared if prepared is not None else JqInput(obj)
        self.obj = obj
        self._known: dict[Program, JqResult] = {}
        self.together: list[str] = []  # the bound programs compiled as one (``JqRuntime.evaluate_calls``)

    def prefetch(self, programs: Sequence[Program]) -> None:
        """Evaluate programs that will be asked for at once: one pass over the input for those that run here,
        one worker request for the others (``JqRuntime.evaluate_many``, ``evaluate_calls``), each result that
        of its own."""
        wanted = [program for program in dict.fromkeys(programs) if program not in self._known]
        plain = [program for program in wanted if isinstance(program, str)]
        calls = [program for program in wanted if isinstance(program, JqCall)]
        if plain:
            self._known.update(self.runtime.evaluate_many(plain, self.input))
        if calls:
            for call, result in self.runtime.evaluate_calls(calls, self.input, self.together).items():
                self._known[call] = result

    def result(self, program: Program) -> JqResult:
        found = self._known.get(program)
        if found is None:
            if isinstance(program, JqCall):
                found = self.runtime.evaluate_calls([program], self.input, self.together)[program]
            else:
                found = self.runtime.evaluate(program, self.input)
            self._known[program] = found
        return found

    def outputs(self, program: Program) -> list[Any] | None:
        result = self.result(program)
        return list(result.outputs) if result.ok else None

    def one(self, program: Program) -> Any:
        found = self.outputs(program)
        return found[0] if found and len(found) == 1 else None


_LAST: list[ManifestResults] = memo.kept(__name__, "_LAST", [], pure=True)


def results_of(runtime: JqRuntime, obj: Any, prepared: JqInput | None = None) -> ManifestResults:
    """The results had on the manifest ``obj`` by ``runtime``: those of the manifest resolved last when its
    text is the same (a program's results are those of the text it runs on), else none yet. ``prepared``:
    ``obj`` as the tree's expressions ran on it, its text made once for them all."""
    prepared = prepared if prepared is not None and prepared.value is obj else JqInput(obj)
    try:
        text = prepared.text
    except (ValueError, TypeError, RecursionError):
        return ManifestResults(runtime, obj, prepared)  # each evaluation says the input cannot be passed
    last = _LAST[0] if _LAST else None
    if last is not None and last.runtime is runtime and last.input.text == text:
        return last
    found = ManifestResults(runtime, obj, prepared)
    _LAST[:] = [found]
    return found


def _found_at(obj: Json, value: Json, key: object) -> tuple[Any, ...] | None:
    """Where ``value`` sits in ``obj``: its one place, or the one of its places under map key ``key`` (the
    entry of a ``to_entries[]``)."""
    places: list[tuple[Any, ...]] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(obj, ())]
    visits = 0
    while stack and len(places) < 20 and visits < MAX_VISITS:
        visits += 1
        here, path = stack.pop()
        if here == value:
            places.append(path)
            continue
        if isinstance(here, dict):
            stack.extend((v, (*path, k)) for k, v in here.items())
        elif isinstance(here, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(here))
    if len(places) > 1 and isinstance(key, str):
        places = [p for p in places if key in p]
    return places[0] if len(places) == 1 else None


def counts_known(model: KindModel | None) -> bool:
    """Whether the model says how many pods every pod object it creates has."""
    return model is not None and bool(model.pods_created()) and all(
        c.count != UNKNOWN for c in model.pods_created())


def created_pods(model: KindModel, obj: Any, runtime: JqRuntime, per_entry: int | None = None,
                 jq: ManifestResults | None = None) -> list[CreatedPod] | None:
    """Every pod the model's controllers create for ``obj``; None when a count cannot be evaluated.
    ``per_entry``: at most that many groups and pods in each of an entry's groups. ``jq``: the results had
    on ``obj`` already (``results_of``)."""
    if not counts_known(model):
        return None
    jq = jq if jq is not None else results_of(runtime, obj)
    objects = model.pods_created()
    # Each step asks every created object at once, so the manifest is read three times whatever their
    # number: the entries and groups, then each entry's count and template, then each pod's labels.
    jq.prefetch(object_programs(model))
    plans = [_plan(created, jq) for created in objects]
    jq.together = [program for created, plan in zip(objects, plans, strict=True) if plan is not None
                   for program in _programs(model, created, plan)]
    jq.prefetch([program for created, plan in zip(objects, plans, strict=True) if plan is not None
                 for program in _entry_programs(created, plan)])
    _prefetch_labels(model, objects, plans, jq, per_entry)
    made: list[CreatedPod] = []
    for created, plan in zip(objects, plans, strict=True):
        if plan is None:
            return None
        for pod in _pods_of(model, created, plan, jq, per_entry):
            if pod is None:
                return None
            made.append(pod)
            if len(made) >= MAX_CREATED:
                return made
    return made


# (index, where the entry sits, the JSON text of what the programs of the entry read it by: its path where
# ``each`` is a path expression, else its value (``to_entries[]``))
Entry = tuple[int | None, tuple[Any, ...] | None, str]
# The variable the programs of an entry read it by (``_entry``), bound to a call's value
_AT = "_wmaplint_entry"


@dataclass
class _Plan:
    """What one created object makes pods of: its entries (with the map keys of entries found by value) and
    its groups."""

    entries: list[Entry]
    keys: list[Any]
    groups: int
    by_path: bool  # whether the entries are read at their paths, else by their values


def object_programs(model: KindModel) -> list[str]:
    """What ``created_pods`` asks first of every pod object of the model: its entries (where they sit, or
    their values where they are not paths) and its groups."""
    return [program for created in model.pods_created()
            for program in (f"[path({created.each})]" if created.each else None,
                            f"[{created.each}]" if created.each else None, created.groups) if program]


def _plan(created: CreatedObject, jq: ManifestResults) -> _Plan | None:
    """The entries and groups of a created object; None when they cannot be evaluated."""
    entries: list[Entry] = [(None, (), "[]")]
    keys: list[Any] = []
    by_path = True
    if created.each:
        paths = jq.one(f"[path({created.each})]")
        if isinstance(paths, list):
            entries = [(i, tuple(p), JqInput(p).text) for i, p in enumerate(paths)]
        else:
            values = jq.one(f"[{created.each}]")
            if not isinstance(values, list):
                return None
            entries = [(i, None, JqInput(v).text) for i, v in enumerate(values)]
            keys = [v.get("key") if isinstance(v, dict) else None for v in values]
            by_path = False
    groups = 1
    if created.groups:
        found = as_count(jq.one(created.groups))
        if found is None:
            return None
        groups = found
    return _Plan(entries, keys, groups, by_path)


def _pods_of(model: KindModel, created: CreatedObject, plan: _Plan, jq: ManifestResults,
             per_entry: int | None) -> Iterator[CreatedPod | None]:
    labels = model.pod_labels(created.name)
    derive = _derive_program(labels, plan)
    for entry, entry_path, at in plan.entries:
        count = as_count(jq.one(_count_call(created, plan, at)))
        if count is None:
            yield None
            return
        template = jq.one(_template_call(created, plan, at)) if created.template else None
        template_path = None
        if created.template and template is not None and entry_path is not None:
            relative = jq.one(_relative_call(created, plan, at))
            if isinstance(relative, list) and len(relative) == 1:
                template_path = (*entry_path, *relative[0])
        elif template is not None:
            key = plan.keys[entry] if entry is not None and entry < len(plan.keys) else None
            template_path = _found_at(jq.obj, template, key)
        for group, index in _shown(plan.groups, count, per_entry):
            call = _derive_call(derive, at, created.name, group, index) if derive is not None else None
            values, undetermined = _derive(labels, jq, call)
            yield CreatedPod(created.name, entry, group, index, template, template_path, values, undetermined)


def _entry(by_path: bool) -> str:
    """The entry, as a program of an entry reads it: at its path in the manifest, or the value itself."""
    return f"getpath(${_AT})" if by_path else f"${_AT}"


def _entry_call(plan: _Plan, at: str, step: str | None, *, paths: bool = False) -> JqCall:
    """A call of the model's ``step`` on the entry ``at`` (with ``$workload`` the manifest): its outputs, or
    with ``paths`` the list of their paths relative to the entry."""
    on_entry = f"{_entry(plan.by_path)} | " + (f"path({step})" if paths else f"({step})")
    program = bound((_AT,), ". as $workload | " + (f"[{on_entry}]" if paths else on_entry))
    return JqCall(program, f"[{at}]")


def _count_call(created: CreatedObject, plan: _Plan, at: str) -> JqCall:
    return _entry_call(plan, at, created.count)


def _template_call(created: CreatedObject, plan: _Plan, at: str) -> JqCall:
    return _entry_call(plan, at, created.template)


def _relative_call(created: CreatedObject, plan: _Plan, at: str) -> JqCall:
    return _entry_call(plan, at, created.template, paths=True)


def _programs(model: KindModel, created: CreatedObject, plan: _Plan) -> list[str]:
    """The bound programs of a created object's entries and pods: those of its steps, compiled as one."""
    at = "[]"
    programs = [_count_call(created, plan, at).program]
    if created.template:
        programs += [_template_call(created, plan, at).program, _relative_call(created, plan, at).program]
    derive = _derive_program(model.pod_labels(created.name), plan)
    return programs if derive is None else [*programs, derive]


def _shown(groups: int, count: int, per_entry: int | None) -> Iterator[tuple[int, int]]:
    """(group, index) of the pods made of an entry: all of them, or ``per_entry`` of each."""
    shown_groups = groups if per_entry is None else min(groups, per_entry)
    shown_count = count if per_entry is None else min(count, per_entry)
    for group in range(shown_groups):
        for index in range(shown_count):
            yield group, index


def _entry_programs(created: CreatedObject, plan: _Plan) -> list[Program]:
    """What ``_pods_of`` asks of every entry: its count, template and the template's place. Each call alone
    would cost a pass over the manifest and, for those with no cost bound, a worker request of its own; a
    few of them over what is used (an entry after one whose count is not known) cost less."""
    programs: list[Program] = [_count_call(created, plan, at) for _, _, at in plan.entries]
    if created.template:
        programs += [_template_call(created, plan, at) for _, _, at in plan.entries]
        programs += [_relative_call(created, plan, at) for _, path, at in plan.entries if path is not None]
    return programs


def _prefetch_labels(model: KindModel, objects: tuple[CreatedObject, ...], plans: list[_Plan | None],
                     jq: ManifestResults, per_entry: int | None) -> None:
    """The labels of every pod of every entry of the objects, evaluated at once."""
    calls: list[Program] = []
    for created, plan in zip(objects, plans, strict=True):
        derive = _derive_program(model.pod_labels(created.name), plan) if plan else None
        if plan is None or derive is None:
            continue
        wanted = 0
        for _, _, at in plan.entries:
            count = as_count(jq.one(_count_call(created, plan, at)))
            if count is None:
                break
            # no more pods than created_pods makes: a count may be as large as the manifest says
            pairs = list(itertools.islice(_shown(plan.groups, count, per_entry), MAX_CREATED - wanted))
            wanted += len(pairs)
            calls += [_derive_call(derive, at, created.name, group, index) for group, index in pairs]
            if wanted >= MAX_CREATED:
                break
    jq.prefetch(calls)


def _derivable(labels: dict[str, Any]) -> list[tuple[str, str]]:
    return [(key, fact.derive) for key, fact in labels.items() if fact.derive]


def _derive_program(labels: dict[str, Any], plan: _Plan) -> str | None:
    """The program giving the derived labels of one pod, each as [value] or ["<error>"], called with its
    entry, created object, group and index (``_derive_call``): one text for the objects of the same labels;
    None where the model derives none."""
    derivable = _derivable(labels)
    if not derivable:
        return None
    each = ", ".join(f'(try [{d}] catch ["<error>"])' for _, d in derivable)
    return bound((_AT, "component", "group", "index"),
                 f". as $workload | ({_entry(plan.by_path)}) as $entry | [{each}]")


def _derive_call(program: str, at: str, component: str, group: int, index: int) -> JqCall:
    return JqCall(program, f"[{at},{json.dumps(component)},{group},{index}]")


def _derive(labels: dict[str, Any], jq: ManifestResults, call: JqCall | None
            ) -> tuple[dict[str, str], frozenset[str]]:
    undetermined = {key for key, fact in labels.items() if not fact.derive}
    if call is None:
        return {}, frozenset(undetermined)
    outputs = jq.one(call)  # prefetched, unless beyond MAX_CREATED
    found: dict[str, str] = {}
    for position, (key, _) in enumerate(_derivable(labels)):
        values = outputs[position] if isinstance(outputs, list) and position < len(outputs) else None
        if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str | int | bool) \
                and values[0] != "<error>":
            found[key] = str(values[0]).lower() if isinstance(values[0], bool) else str(values[0])
        else:
            undetermined.add(key)  # written, with a value this manifest does not give (a generated name)
    return found, frozenset(undetermined)
