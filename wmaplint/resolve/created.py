"""The pods a workload's controllers create, enumerated from the controller model alone (``creates`` of
``schemas/controllers/``), independent of any definition: for every created pod object, each entry its
``each`` yields, each of its ``groups``, ``count`` pods, each with its template and where the template sits
in the manifest, and the labels the model derives (``derive``, jq with ``$entry``, ``$group``, ``$index`` and
``$component`` bound).
"""

from __future__ import annotations

import itertools
import json
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.controllers import UNKNOWN, CreatedObject, KindModel
from wmaplint.dataclass import dataclass
from wmaplint.jq.runtime import JqInput, JqResult, JqRuntime
from wmaplint.resolve.counts import as_count

if TYPE_CHECKING:
    from collections.abc import Iterator

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


class ManifestResults:
    """The results of programs on one manifest, each evaluated once: the pods made for the selectors' check
    and for the grouper, and where their templates sit, ask many of the same programs (``results_of``)."""

    def __init__(self, runtime: JqRuntime, obj: Any, prepared: JqInput | None = None):
        self.runtime = runtime
        self.input = prepared if prepared is not None else JqInput(obj)
        self.obj = obj
        self._known: dict[str, JqResult] = {}

    def prefetch(self, programs: list[str]) -> None:
        """Evaluate programs that will be asked for at once: one pass over the input for those that run here,
        one worker request for the others (``JqRuntime.evaluate_many``), each result that of its own."""
        wanted = [program for program in programs if program not in self._known]
        if wanted:
            self._known.update(self.runtime.evaluate_many(wanted, self.input))

    def result(self, program: str) -> JqResult:
        found = self._known.get(program)
        if found is None:
            found = self._known[program] = self.runtime.evaluate(program, self.input)
        return found

    def outputs(self, program: str) -> list[Any] | None:
        result = self.result(program)
        return list(result.outputs) if result.ok else None

    def one(self, program: str) -> Any:
        found = self.outputs(program)
        return found[0] if found and len(found) == 1 else None


_LAST: list[ManifestResults] = memo.kept(__name__, "_LAST", [], pure=True)


def results_of(runtime: JqRuntime, obj: Any) -> ManifestResults:
    """The results had on the manifest ``obj`` by ``runtime``: those of the manifest resolved last when its
    text is the same (a program's results are those of the text it runs on), else none yet."""
    prepared = JqInput(obj)
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


def _at(entry_path: tuple[Any, ...]) -> str:
    return f"getpath({json.dumps(list(entry_path))})"


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
    jq.prefetch([program for created in objects for program in _object_programs(created)])
    plans = [_plan(created, jq) for created in objects]
    jq.prefetch([program for created, plan in zip(objects, plans, strict=True) if plan is not None
                 for program in _entry_programs(created, plan.entries)])
    derived = _prefetch_labels(model, objects, plans, jq, per_entry)
    made: list[CreatedPod] = []
    for created, plan in zip(objects, plans, strict=True):
        if plan is None:
            return None
        for pod in _pods_of(model, created, plan, jq, derived, per_entry):
            if pod is None:
                return None
            made.append(pod)
            if len(made) >= MAX_CREATED:
                return made
    return made


# (index, where the entry sits, the jq that gives it): by path where `each` is a path expression, else by
# value (``to_entries[]``)
Entry = tuple[int | None, tuple[Any, ...] | None, str]


@dataclass
class _Plan:
    """What one created object makes pods of: its entries (with the map keys of entries found by value) and
    its groups."""

    entries: list[Entry]
    keys: list[Any]
    groups: int


def _object_programs(created: CreatedObject) -> list[str]:
    return [program for program in (f"[path({created.each})]" if created.each else None, created.groups)
            if program]


def _plan(created: CreatedObject, jq: ManifestResults) -> _Plan | None:
    """The entries and groups of a created object; None when they cannot be evaluated."""
    entries: list[Entry] = [(None, (), ".")]
    keys: list[Any] = []
    if created.each:
        paths = jq.one(f"[path({created.each})]")
        if isinstance(paths, list):
            entries = [(i, tuple(p), _at(tuple(p))) for i, p in enumerate(paths)]
        else:
            values = jq.one(f"[{created.each}]")
            if not isinstance(values, list):
                return None
            entries = [(i, None, json.dumps(v)) for i, v in enumerate(values)]
            keys = [v.get("key") if isinstance(v, dict) else None for v in values]
    groups = 1
    if created.groups:
        found = as_count(jq.one(created.groups))
        if found is None:
            return None
        groups = found
    return _Plan(entries, keys, groups)


# the derived labels of a pod by (created object, entry, group, index), as the per-pod program would give them
Derived = dict[tuple[str, str, int, int], Any]


def _pods_of(model: KindModel, created: CreatedObject, plan: _Plan, jq: ManifestResults, derived: Derived,
             per_entry: int | None) -> Iterator[CreatedPod | None]:
    labels = model.pod_labels(created.name)
    for entry, entry_path, at in plan.entries:
        count = as_count(jq.one(_count_program(created, at)))
        if count is None:
            yield None
            return
        template = jq.one(_template_program(created, at)) if created.template else None
        template_path = None
        if created.template and template is not None and entry_path is not None:
            relative = jq.one(_relative_program(created, at))
            if isinstance(relative, list) and len(relative) == 1:
                template_path = (*entry_path, *relative[0])
        elif template is not None:
            key = plan.keys[entry] if entry is not None and entry < len(plan.keys) else None
            template_path = _found_at(jq.obj, template, key)
        for group, index in _shown(plan.groups, count, per_entry):
            values, undetermined = _derive(labels, jq, derived, at, group, index, created.name)
            yield CreatedPod(created.name, entry, group, index, template, template_path, values, undetermined)


def _count_program(created: CreatedObject, at: str) -> str:
    return f". as $workload | {at} | ({created.count})"


def _template_program(created: CreatedObject, at: str) -> str:
    return f". as $workload | {at} | ({created.template})"


def _relative_program(created: CreatedObject, at: str) -> str:
    return f". as $workload | [{at} | path({created.template})]"


def _shown(groups: int, count: int, per_entry: int | None) -> Iterator[tuple[int, int]]:
    """(group, index) of the pods made of an entry: all of them, or ``per_entry`` of each."""
    shown_groups = groups if per_entry is None else min(groups, per_entry)
    shown_count = count if per_entry is None else min(count, per_entry)
    for group in range(shown_groups):
        for index in range(shown_count):
            yield group, index


def _entry_programs(created: CreatedObject, entries: list[Entry]) -> list[str]:
    """What ``_pods_of`` asks of every entry: its count, template and the template's place. Each program alone
    would cost a compile, a pass over the manifest and, for those with no cost bound, a worker request of
    its own; a few of them over what is used (an entry after one whose count is not known) cost less."""
    programs = [_count_program(created, at) for _, _, at in entries]
    if created.template:
        programs += [_template_program(created, at) for _, _, at in entries]
        programs += [_relative_program(created, at) for _, path, at in entries if path is not None]
    return programs


def _prefetch_labels(model: KindModel, objects: tuple[CreatedObject, ...], plans: list[_Plan | None],
                     jq: ManifestResults, per_entry: int | None) -> Derived:
    """The labels of every pod of every entry of the objects, evaluated at once."""
    derived: Derived = {}
    programs: list[tuple[str, str, list[tuple[int, int]], str]] = []
    for created, plan in zip(objects, plans, strict=True):
        labels = model.pod_labels(created.name)
        if plan is None or not _derivable(labels):
            continue
        wanted = 0
        for _, _, at in plan.entries:
            count = as_count(jq.one(_count_program(created, at)))
            if count is None:
                break
            # no more pods than created_pods makes: a count may be as large as the manifest says
            pairs = list(itertools.islice(_shown(plan.groups, count, per_entry), MAX_CREATED - wanted))
            wanted += len(pairs)
            if pairs:
                programs.append((created.name, at, pairs,
                                 _derive_entry_program(labels, at, pairs, created.name)))
            if wanted >= MAX_CREATED:
                break
    jq.prefetch([program for _, _, _, program in programs])
    for name, at, pairs, program in programs:
        each = jq.one(program)
        if isinstance(each, list) and len(each) == len(pairs):
            for (group, index), found in zip(pairs, each, strict=True):
                derived[(name, at, group, index)] = found
    return derived


def _derivable(labels: dict[str, Any]) -> list[tuple[str, str]]:
    return [(key, fact.derive) for key, fact in labels.items() if fact.derive]


def _derive_entry_program(labels: dict[str, Any], at: str, pairs: list[tuple[int, int]], component: str
                          ) -> str:
    """The program giving, for each (group, index) of ``pairs``, the derived labels of that pod of the entry,
    each as [value] or ["<error>"]: one text an entry, not one a pod, since each distinct text is parsed for
    its cost and compiled anew."""
    bound = f". as $workload | ({at}) as $entry | {json.dumps(component)} as $component | "
    each = ", ".join(f'(try [{d}] catch ["<error>"])' for _, d in _derivable(labels))
    return bound + f"[{json.dumps([list(p) for p in pairs])}[] as [$group, $index] | [{each}]]"


def _derive(labels: dict[str, Any], jq: ManifestResults, derived: Derived, at: str, group: int, index: int,
            component: str) -> tuple[dict[str, str], frozenset[str]]:
    derivable = _derivable(labels)
    undetermined = {key for key, fact in labels.items() if not fact.derive}
    if not derivable:
        return {}, frozenset(undetermined)
    outputs = derived.get((component, at, group, index))
    if outputs is None:  # not prefetched (beyond MAX_CREATED, or the entry's program failed): this pod alone
        alone = jq.one(_derive_entry_program(labels, at, [(group, index)], component))
        outputs = alone[0] if isinstance(alone, list) and len(alone) == 1 else None
    found: dict[str, str] = {}
    for position, (key, _) in enumerate(derivable):
        values = outputs[position] if isinstance(outputs, list) and position < len(outputs) else None
        if isinstance(values, list) and len(values) == 1 and isinstance(values[0], str | int | bool) \
                and values[0] != "<error>":
            found[key] = str(values[0]).lower() if isinstance(values[0], bool) else str(values[0])
        else:
            undetermined.add(key)  # written, with a value this manifest does not give (a generated name)
    return found, frozenset(undetermined)
