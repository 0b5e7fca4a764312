"""The pods a controller would create for a manifest, with the labels it writes, synthesized from the
resolved tree and what the controller model says of the workload's kind (``Workload.controller``).

A pod is made for every replica of every instance of a component with a pod template, under every replica of
its parents, as the tree counts them. Its labels are the template's, plus each label the controller writes
whose value can be derived from the manifest: the workload's name, the entry of the list or map the pod's
template sits in (found by where the template is in the manifest), the replica index, a component value
whose location holds the template. A label the controller writes whose value cannot be derived (a hash, a
generated name) is *undetermined*: a check that reads it on the pod is not made, so the synthesis never
reports what it does not know.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wmaplint.controllers import KindModel, WrittenLabel
from wmaplint.dataclass import dataclass, field
from wmaplint.jq.runtime import JqInput, JqResult, JqRuntime, default_runtime
from wmaplint.resolve.created import (
    CreatedPod,
    ManifestResults,
    counts_known,
    created_pods,
    object_programs,
    results_of,
)
from wmaplint.resolve.model import ComponentNode, Instance, Workload
from wmaplint.resolve.quantities import format_number
from wmaplint.resolve.values import get

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr
    from wmaplint.source.plain import Json

MAX_PODS = 5000  # a full synthesis of a huge manifest stops here; the totals still count every pod
_FOUND_NOWHERE = object()


@dataclass(frozen=True)
class Level:
    """One step of a pod's place in the tree: a component, its instance and the replica index."""

    component: str
    instance: str
    replica: int


@dataclass
class SyntheticPod:
    pod: dict[str, Any]
    component: str  # the definition's component expected to claim it ("" when no component's template is it)
    instance: str
    # the instance ids of the component and its ancestors, by component name; the component and its
    # ancestors, root first; the replica indexes that place the pod in one replica of the workload
    instances: dict[str, str]
    ancestors: tuple[str, ...]
    replicas: tuple[int, ...]
    # keys the controller writes on this pod whose value the model cannot derive
    undetermined: frozenset[str] = frozenset()
    # keys known to be absent or present: the template's, and every key the controller's model lists
    listed: frozenset[str] = frozenset()
    exhaustive: bool = False
    # values that are the same on every pod of one run but not derivable (attempt): for gang keys only
    shared: dict[str, str] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return str(self.pod["metadata"]["name"])

    def determined(self, keys: frozenset[str] | None) -> bool:
        """Whether the pod's value (or absence) of every label key in ``keys`` is known; None: the keys a
        selector reads could not be told, so nothing is known."""
        if keys is None:
            return False
        labels = self.pod["metadata"]["labels"]
        return all(
            key in labels or (key not in self.undetermined and (self.exhaustive or key in self.listed))
            for key in keys
        )


def _contains(haystack: object, needle: object, depth: int = 0) -> bool:
    if depth > 12:  # pod templates sit a few levels down; a deeper search only costs time
        return False
    if haystack == needle:
        return True
    if isinstance(haystack, dict):
        return any(_contains(v, needle, depth + 1) for v in haystack.values())
    if isinstance(haystack, list):
        return any(_contains(v, needle, depth + 1) for v in haystack)
    return False


def _at(obj: Json, location: str) -> Json:
    """The value at a schema location such as ``.spec.workerGroupSpecs`` (lists and maps without [])."""
    value = obj
    for step in location.strip(".").split("."):
        value = get(value, step)
        if value is None:
            return None
    return value


def _entries(value: Json) -> list[tuple[str | None, Any]]:
    if isinstance(value, dict):
        return [(str(k), v) for k, v in value.items()]
    if isinstance(value, list):
        found = []
        for item in value:
            name = get(item, "name")
            name = name if name is not None else get(item, "groupName")
            found.append((str(name) if isinstance(name, str) else None, item))
        return found
    return []


def _normal(text: str) -> str:
    """A jq path as a location: without iteration, optional marks and spaces."""
    return re.sub(r"\[\]|\?|\s", "", text)


class _Place:
    """Where a pod's template sits in the manifest: its path when the definition's template path is a jq
    path expression (``path(...)``), else found by value (``_contains``), which two equal templates defeat."""

    def __init__(self, obj: Any, spec: Any, concrete: tuple[str | int, ...] | None):
        self.obj = obj
        self.spec = spec
        self.concrete = concrete
        self.located = concrete is not None or _contains(obj, spec)

    def _consumed(self, location: str) -> int | None:
        """The index in the concrete path just after ``location``'s steps, None when not under it."""
        assert self.concrete is not None
        steps = location.strip(".").split(".")
        position = 0
        for step in steps:
            while position < len(self.concrete) and isinstance(self.concrete[position], int):
                position += 1
            if position >= len(self.concrete) or self.concrete[position] != step:
                return None
            position += 1
        return position

    def under(self, location: str) -> bool:
        if self.concrete is not None:
            return self._consumed(location) is not None
        return _contains(_at(self.obj, location), self.spec)

    def entry(self, location: str, instance: str) -> str | object | None:
        """The id of the entry of the list or map at ``location`` holding the template (a list entry's name,
        a map's key); None when the template is not under it; _FOUND_NOWHERE when it cannot be told."""
        if self.concrete is not None:
            position = self._consumed(location)
            if position is None:
                return _FOUND_NOWHERE  # other pods may carry it too (a head pod's group): not known absent
            if position >= len(self.concrete):
                return _FOUND_NOWHERE
            step = self.concrete[position]
            if isinstance(step, str):
                return step
            entries = _entries(_at(self.obj, location))
            name = entries[step][0] if 0 <= step < len(entries) else None
            return name if name is not None else _FOUND_NOWHERE
        holders = [(name, e) for name, e in _entries(_at(self.obj, location)) if _contains(e, self.spec)]
        if not holders:
            return _FOUND_NOWHERE
        if len(holders) > 1:
            same = [name for name, _ in holders if name is not None and name.lower() == instance.lower()]
            holders = [(same[0], None)] if len(same) == 1 else holders
        name = holders[0][0] if len(holders) == 1 else None
        return name if name is not None else _FOUND_NOWHERE


class _Labeller:
    """Derives the controller's labels of the pods of one manifest."""

    def __init__(self, workload: Workload, obj: Any, labels: list[WrittenLabel]):
        self.workload = workload
        self.obj = obj
        self.written = labels
        self.kind = workload.kind

    def _component(self, label: WrittenLabel, place: _Place) -> str | object | None:
        matched = [value for value, location in label.values if place.under(location)]
        if len(matched) == 1:
            return matched[0]
        if matched:
            return _FOUND_NOWHERE  # two values for one template (leader and worker of one template)
        for location in (label.otherwise, label.present):
            if location is not None and place.under(location):
                return _FOUND_NOWHERE  # written, with a value the model does not give
        return None

    def _replica(self, label: WrittenLabel, path: tuple[Level, ...]) -> str | object:
        if label.of is None:
            return _FOUND_NOWHERE
        wanted = _normal(label.of)
        for level in path:
            node = self.workload.components.get(level.component)
            replicas = node.component.scale_paths.get("replicasPath") if node is not None else None
            if replicas is not None and wanted in _normal(replicas.text):
                return str(level.replica)
        return _FOUND_NOWHERE

    def value(self, label: WrittenLabel, place: _Place, inst: Instance, path: tuple[Level, ...]
              ) -> str | object | None:
        """The label's value on the pod, None when the controller does not write it there, _FOUND_NOWHERE
        when it does (or may) with a value that cannot be derived."""
        if label.role == "workload":
            name = get(get(self.obj, "metadata"), "name")
            # the value is the workload's own name only where the model says so
            if isinstance(name, str) and label.value.startswith(f"the {self.kind}'s name"):
                return name
            return _FOUND_NOWHERE
        if label.role == "replica":
            return self._replica(label, path)
        if not place.located and label.role in ("entry", "component"):
            return _FOUND_NOWHERE  # the template is made by the definition: where it sits is unknown
        if label.role == "entry" and label.of is not None:
            entry = place.entry(label.of, inst.id)
            return entry.lower() if isinstance(entry, str) and label.lower else entry
        if label.role == "component":
            return self._component(label, place)
        return _FOUND_NOWHERE

    def labels(self, template_labels: dict[str, Any], place: _Place, inst: Instance,
               path: tuple[Level, ...]) -> tuple[dict[str, str], set[str], dict[str, str]]:
        labels = {str(k): str(v) for k, v in template_labels.items()}
        undetermined: set[str] = set()
        shared: dict[str, str] = {}
        for label in self.written:
            value = self.value(label, place, inst, path)
            if value is None:
                continue
            if isinstance(value, str):
                labels[label.key] = value
            else:
                undetermined.add(label.key)
                if label.role in ("run", "workload"):
                    shared[label.key] = f"<{label.key} of this run>"
        return labels, undetermined, shared


def _template_expr(node: ComponentNode) -> Expr | None:
    paths = node.component.spec_paths
    return paths.get("podTemplateSpecPath") or paths.get("podSpecPath")


def _path_program(expr: Expr) -> str:
    return f"[path({expr.text})]"


def _place_programs(workload: Workload) -> list[str]:
    """The programs giving the paths in the manifest of every component's template and fragments."""
    programs = []
    for node in workload.components.values():
        template = _template_expr(node)
        if template is not None:
            programs.append(_path_program(template))
        programs.extend(_path_program(expr) for expr in node.component.fragment_paths.values())
    return programs


def _place_results(workload: Workload, jq: ManifestResults) -> dict[str, JqResult]:
    """The paths in the manifest of every component's template and fragments, all asked for at once: one pass
    over the manifest (and one worker request for those of no cost bound) for all of them."""
    programs = _place_programs(workload)
    jq.prefetch(programs)
    return {program: jq.result(program) for program in programs}


def _template_paths(workload: Workload, results: dict[str, JqResult]
                    ) -> dict[tuple[str, int], tuple[Any, ...]]:
    """(component, instance index) -> the path of its pod template in the manifest, where the template path
    is a path expression that gives one path per instance (``results``: of ``_place_results``)."""
    found: dict[tuple[str, int], tuple[Any, ...]] = {}
    for node in workload.components.values():
        expr = _template_expr(node)
        if expr is None:
            continue
        for index, concrete in _paths_per_instance(results[_path_program(expr)], node.instances):
            found[(node.name, index)] = concrete
    return found


def _paths_per_instance(result: JqResult, instances: list[Instance]) -> list[tuple[int, tuple[Any, ...]]]:
    """(instance index, path in the manifest) of each instance, where ``result`` (of ``[path(e)]``) gives
    one path an instance."""
    outputs = result.outputs[0] if result.ok and len(result.outputs) == 1 else None
    if not isinstance(outputs, list) or len(outputs) != len(instances):
        return []
    return [(inst.index, tuple(concrete)) for inst, concrete in zip(instances, outputs, strict=True)
            if isinstance(concrete, list)]


def _fragment_places(workload: Workload, results: dict[str, JqResult]
                     ) -> dict[tuple[str, int], list[tuple[Any, ...]]]:
    """(component, instance index) -> the paths in the manifest of the fragments its pod is assembled from
    (a fragmented pod spec), where a fragment's path expression gives one path per instance."""
    found: dict[tuple[str, int], list[tuple[Any, ...]]] = {}
    for node in workload.components.values():
        for expr in node.component.fragment_paths.values():
            for index, concrete in _paths_per_instance(results[_path_program(expr)], node.instances):
                found.setdefault((node.name, index), []).append(concrete)
    return found


def synthesize(workload: Workload, obj: Any, per_instance: int | None = None,
               runtime: JqRuntime | None = None, prepared: JqInput | None = None) -> list[SyntheticPod]:
    """The pods the controller creates for manifest ``obj`` (resolved as ``workload``): those the controller
    model enumerates (``wmaplint.resolve.created``), each matched to the definition's component whose template
    it runs; where the model does not say how many, those the tree counts. ``per_instance``: at most that
    many replicas of each instance (groups and pods of each entry) are made, for checks that need only a
    few; None makes every pod (up to MAX_PODS). ``prepared``: ``obj`` as the tree's expressions ran on it."""
    if workload.root is None:
        return []
    runtime = runtime or default_runtime()
    model = workload.controller
    jq = results_of(runtime, obj, prepared)
    # where the templates sit is asked with the model's entries: one pass, and one program to compile a kind
    entries = object_programs(model) if model is not None and counts_known(model) else []
    jq.prefetch([*_place_programs(workload), *entries])
    created = created_pods(model, obj, runtime, per_instance, jq) if model is not None else None
    if model is not None and created is not None:
        places = _place_results(workload, jq)
        return _from_model(workload, obj, model, created, _template_paths(workload, places),
                           _fragment_places(workload, places))
    return tree_pods(workload, obj, per_instance, runtime)


def tree_pods(workload: Workload, obj: Any, per_instance: int | None, runtime: JqRuntime
               ) -> list[SyntheticPod]:
    """The pods as the definition's tree counts them, where the model does not say what is created."""
    assert workload.root is not None
    pods = workload.controller.pods if workload.controller is not None else None
    labeller = _Labeller(workload, obj, list(pods.labels.values()) if pods is not None else [])
    concrete = _template_paths(workload, _place_results(workload, results_of(runtime, obj)))
    listed = frozenset(pods.labels) if pods is not None else frozenset()
    exhaustive = pods is not None and pods.exhaustive is True
    metadata = get(obj, "metadata")
    namespace = get(metadata, "namespace")
    owner = {"apiVersion": workload.api_version, "kind": workload.kind,
             "name": workload.name, "controller": True}
    uid = get(metadata, "uid")
    if isinstance(uid, str):
        owner["uid"] = uid
    bare = workload.kind == "Pod" and workload.api_version == "v1"
    made: list[SyntheticPod] = []
    for node, inst, path in _walk(workload.root, (), per_instance):
        if len(made) >= MAX_PODS:
            break
        template = inst.template
        if template is None:
            continue
        template_labels = get(template.metadata, "labels")
        template_labels = template_labels if isinstance(template_labels, dict) else {}
        place = _Place(obj, template.spec, concrete.get((node.name, inst.index)))
        labels, undetermined, shared = labeller.labels(template_labels, place, inst, path)
        suffix = "-".join(f"{level.instance + '-' if level.instance else ''}{level.replica}"
                          for level in path[1:]) or "0"
        pod_metadata: dict[str, Any] = {
            "name": f"{workload.name}-{node.name}-{suffix}",
            "labels": labels,
            "ownerReferences": [_owner_of(workload, path) or owner],
        }
        if bare:  # a Pod is its own workload: the pod is the object itself, owned by nothing
            pod_metadata = {"name": workload.name, "labels": labels}
        if isinstance(namespace, str):
            pod_metadata["namespace"] = namespace
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": pod_metadata, "spec": template.spec}
        made.append(SyntheticPod(pod, node.name, inst.id, {lv.component: lv.instance for lv in path},
                                 tuple(lv.component for lv in path), tuple(lv.replica for lv in path),
                                 frozenset(undetermined), listed | frozenset(template_labels), exhaustive,
                                 shared))
    return made


def _owner_of(workload: Workload, path: tuple[Level, ...]) -> dict[str, Any] | None:
    """The object of a component's own kind that owns the pod (a Job of a JobSet), named from the workload's
    name as controllers name what they create; None when the workload owns its pods."""
    for depth in range(len(path) - 1, 0, -1):
        level = path[depth]
        node = workload.components.get(level.component)
        kind = node.kind if node is not None else None
        if kind is not None and kind.kind not in ("Pod", workload.kind, ""):
            steps = path[1:depth + 1]
            parts = [workload.name, *(f"{lv.instance or lv.component}-{lv.replica}" for lv in steps)]
            api = f"{kind.group}/{kind.version}" if kind.group else kind.version
            return {"apiVersion": api, "kind": kind.kind, "name": "-".join(parts), "controller": True}
    return None


def _walk(node: ComponentNode, above: tuple[Level, ...], per_instance: int | None
          ) -> Iterator[tuple[ComponentNode, Instance, tuple[Level, ...]]]:
    for inst in node.instances:
        count = inst.effective_replicas
        for replica in range(count if per_instance is None else min(count, per_instance)):
            path = (*above, Level(node.name, inst.id, replica))
            yield node, inst, path
            for child in inst.children:
                yield from _walk(child, path, per_instance)


def as_pod_list(pods: list[SyntheticPod]) -> dict[str, Any]:
    """The pods as ``kubectl get pods -o json`` lists them."""
    return {"apiVersion": "v1", "kind": "List", "items": [p.pod for p in pods]}


def _spec_of(template: Json) -> Json:
    """The pod spec of a template ({metadata, spec}) or of a pod spec itself."""
    if isinstance(template, dict) and isinstance(template.get("spec"), dict) and "containers" not in template:
        return template["spec"]
    return template


def _with_unseen(spec: dict[str, Any], unseen: dict[str, Any]) -> dict[str, Any]:
    """The pod spec with what the framework's own words ask for (``gpu: 1``) as the pod's first container
    asks for it once the controller has translated it, as the tree counts it."""
    containers = spec.get("containers")
    if not unseen or not isinstance(containers, list) or not containers:
        return spec
    if not isinstance(containers[0], dict):
        return spec
    first = dict(containers[0])
    resources = dict(first.get("resources") or {})
    limits = dict(resources.get("limits") or {})
    limits.update({name: str(format_number(amount)) for name, amount in unseen.items() if name not in limits})
    first["resources"] = {**resources, "limits": limits}
    return {**spec, "containers": [first, *containers[1:]]}


def _same_place(tree: tuple[Any, ...], model: tuple[Any, ...]) -> bool:
    """Whether a definition's template path and the model's name one template (either may name the spec)."""
    return tree == model or (tree[-1:] == ("spec",) and tree[:-1] == model) or (
        model[-1:] == ("spec",) and model[:-1] == tree)


def _from_model(workload: Workload, obj: Any, model: KindModel, created: list[CreatedPod],
                concrete: dict[tuple[str, int], tuple[Any, ...]],
                fragments: dict[tuple[str, int], list[tuple[Any, ...]]]) -> list[SyntheticPod]:
    listed = frozenset(model.pods.labels) if model.pods else frozenset()
    exhaustive = model.pods is not None and model.pods.exhaustive is True
    metadata = get(obj, "metadata")
    namespace = get(metadata, "namespace")
    by_spec = [(name, inst) for name, node in workload.components.items() for inst in node.instances
               if inst.template is not None]
    made: list[SyntheticPod] = []
    for number, pod in enumerate(created):
        match = _match(workload, pod, concrete, fragments, by_spec)
        name, inst = match if match is not None else ("", None)
        template_labels = get(get(pod.template, "metadata"), "labels")
        if not isinstance(template_labels, dict) and inst is not None and inst.template is not None:
            template_labels = get(inst.template.metadata, "labels")  # the model gives the spec alone
        template_labels = template_labels if isinstance(template_labels, dict) else {}
        labels = {**{str(k): str(v) for k, v in template_labels.items()}, **pod.labels,
                  **_by_location(model, pod, obj)}
        # the component's template as the tree assembles it where there is one: the model's template may be
        # the framework's own shape (a KServe predictor, a Dynamo service), not a pod spec
        spec: Json
        if inst is not None and inst.template is not None:
            spec = _with_unseen(inst.template.spec, inst.template.unseen)
        else:
            spec = _spec_of(pod.template) if pod.template is not None else {}
        entry = f"-{pod.entry}" if pod.entry is not None else ""
        pod_metadata: dict[str, Any] = {
            "name": f"{workload.name}-{pod.created}{entry}-{pod.group}-{pod.index}",
            "labels": labels,
            "ownerReferences": [_model_owner(workload, model, pod, number)],
        }
        if isinstance(namespace, str):
            pod_metadata["namespace"] = namespace
        shared = {key: f"<{key} of this run>" for key in pod.undetermined
                  if (fact := model.label(key)) is not None and fact.role in ("run", "workload")}
        ancestors = _ancestors(workload, name) if name else ()
        made.append(SyntheticPod(
            {"apiVersion": "v1", "kind": "Pod", "metadata": pod_metadata, "spec": spec},
            name, inst.id if inst is not None else "", {name: inst.id} if inst is not None else {},
            ancestors, (pod.group,), pod.undetermined - frozenset(labels),
            listed | frozenset(template_labels), exhaustive, shared))
    return made


def _by_location(model: KindModel, pod: CreatedPod, obj: Any) -> dict[str, str]:
    """The labels the model cannot derive but gives by where the pod's template sits (``values``: the
    predictor's pods are ``component: predictor``), where exactly one location holds the template."""
    if pod.template_path is None:
        return {}
    place = _Place(obj, None, pod.template_path)
    found: dict[str, str] = {}
    for key in pod.undetermined:
        fact = model.label(key)
        if fact is None or not fact.values:
            continue
        matched = {value for value, location in fact.values if place.under(location)}
        if len(matched) == 1:
            found[key] = matched.pop()
    return found


def _match(workload: Workload, pod: CreatedPod, concrete: dict[tuple[str, int], tuple[Any, ...]],
           fragments: dict[tuple[str, int], list[tuple[Any, ...]]], by_spec: list[tuple[str, Instance]]
           ) -> tuple[str, Instance] | None:
    """The definition's component instance whose template the created pod runs: by where the template sits
    (or, for a pod assembled from fragments, where a fragment sits inside the model's template), else by its
    value when exactly one template is equal."""
    found: list[tuple[str, Instance]] = []
    if pod.template_path is not None:
        at = pod.template_path
        found = [(name, workload.components[name].instances[index])
                 for (name, index), place in concrete.items() if place and _same_place(place, at)]
        if not found and at:
            found = [(name, workload.components[name].instances[index])
                     for (name, index), places in fragments.items()
                     if any(place[:len(at)] == at for place in places)]
    elif pod.template is not None:
        spec = _spec_of(pod.template)
        found = [(name, inst) for name, inst in by_spec
                 if inst.template is not None and inst.template.spec == spec]
    if len(found) > 1:  # one template for two components (a leader running the worker template): by name
        found = [(name, inst) for name, inst in found if name == pod.created]
    if not found:  # a pod the controller makes from a template of its own (a default submitter): by name
        found = [(name, inst) for name, inst in by_spec if name == pod.created]
    return found[0] if len(found) == 1 else None


def _ancestors(workload: Workload, name: str) -> tuple[str, ...]:
    chain: list[str] = []
    node = workload.components.get(name)
    while node is not None and node.name not in chain:
        chain.insert(0, node.name)
        node = workload.components.get(node.owner or "")
    return tuple(chain)


def _model_owner(workload: Workload, model: KindModel, pod: CreatedPod, number: int) -> dict[str, Any]:
    """The pod's owner as the model says (the object it is made ``via``), named from the workload's name."""
    via = model.created(next((c.via for c in model.pods_created() if c.name == pod.created and c.via), ""))
    if via is None:
        return {"apiVersion": workload.api_version, "kind": workload.kind, "name": workload.name,
                "controller": True}
    group, _, kind = via.kind.rpartition("/")
    entry = f"-{pod.entry}" if pod.entry is not None else ""
    return {"apiVersion": group, "kind": kind, "name": f"{workload.name}-{via.name}{entry}-{pod.group}",
            "controller": True}
