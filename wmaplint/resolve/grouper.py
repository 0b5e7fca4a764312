"""KAI-Scheduler's Karta pod grouper, pod by pod: the PodGroup each pod of a workload is put in, with the
min-available, sub-groups and topology that pod computes, or the error KAI raises for it.

The grouper runs once for every pod, with the pod's top owner (the workload), and the PodGroup handler writes
each pod's computation over the PodGroup's spec, so what one PodGroup gets is the last pod's. Followed here:
kai-scheduler/KAI-Scheduler@d5bc503 ``pkg/podgrouper/podgrouper/plugins/karta/grouper.go``
(``GetPodGroupMetadata``, ``getPodGroupMetadataV2``, ``constructSubgroup``, ``getPodGroupMetadataAlpha``,
``calcPodGroupName``), ``grouping_instruction_validation.go``, ``component_matching.go``,
``plugins/defaultgrouper`` (the base metadata: name, min-available 1, topology from the owner's annotations)
and ``podgroup/handler.go``, ``updater.go`` (the last pod's spec stands); and the library it calls,
``pkg/instructions`` (``summary.go``: the components with a pod definition, the members a component's pods may
take, itself first, then its ancestors; ``pod.go`` ``InferPodComponent``, ``InferPodComponentInstance``;
``gang_scheduling.go`` ``GetPodGroupingEffectiveComponent``, ``CalculateSubtreeScale``,
``getEffectiveMinReplicas``) and ``pkg/resource/pod_querier.go`` (one non-null, non-empty result per path,
written with Go's ``%v``), read at dsx-ai-factory/workload-map@6379f20, @3314756 and
dsx-ai-factory/karta@6ae3969.

On a pod synthesized from the manifest only the labels the synthesis determines are read: a step that reads
anything else (a label the controller writes at runtime, the pod's name, its owner's uid) is not known
offline, and the pod's PodGroup is left unknown rather than guessed.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from wmaplint.jq.runtime import JqInput, JqResult, JqRuntime
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.findings import ExpressionFailed, InvalidInstanceId, NotACount, OutputCountMismatch
from wmaplint.resolve.kai import subdomain_problems
from wmaplint.resolve.model import GroupedPod, KaiPodGroup, KaiSubGroup
from wmaplint.resolve.pods import PodMatcher
from wmaplint.resolve.values import get
from wmaplint.resolve.verify import label_keys, type_keys
from wmaplint.source import to_python

if TYPE_CHECKING:
    from wmaplint.definition.model import Component, Definition, GangMember, PodGroup
    from wmaplint.findings import FileFinding
    from wmaplint.resolve.model import Workload
    from wmaplint.resolve.synthesis import SyntheticPod
    from wmaplint.source.plain import Json

PREFIX = "pg"  # KAI plugins/constants PodGroupNamePrefix
UID = "<uid>"  # the top owner's uid where it is not known offline
_SCALE_FIELDS = ("replicasPath", "minReplicasPath", "maxReplicasPath")
# the top owner's annotations the default grouper reads the topology from (defaultgrouper GetPodGroupMetadata)
_UNKNOWN_PART = re.compile(r"<[^<>]*>")
TOPOLOGY_ANNOTATIONS = {"topologyName": "kai.scheduler/topology",
                        "preferredTopologyLevel": "kai.scheduler/topology-preferred-placement",
                        "requiredTopologyLevel": "kai.scheduler/topology-required-placement"}


class GrouperError(Exception):
    """KAI's grouper fails for the pod; ``cause`` says which step ("component", "member", "instance", "key",
    "name", "scale", "sub-group", "topology"; "no component" for a synthesized pod that no component of the
    definition describes)."""

    def __init__(self, cause: str, message: str, at: str = "") -> None:
        super().__init__(message)
        self.cause = cause
        self.message = message
        self.at = at  # the key path or sub-group it is about


class NotKnown(Exception):
    """A step reads what is not known offline on a synthesized pod; ``what`` names it."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def go_text(value: Json) -> str:
    """A jq result as the library writes it with ``fmt.Sprintf("%v", ...)``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):  # an integral number reaches here as an int (JqInput, gojq)
        return {"inf": "+Inf", "-inf": "-Inf", "nan": "NaN"}.get(repr(value), repr(value))
    if isinstance(value, dict):
        return "map[" + " ".join(f"{k}:{go_text(v)}" for k, v in sorted(value.items())) + "]"
    if isinstance(value, list):
        return "[" + " ".join(go_text(v) for v in value) + "]"
    return str(value)


class PodView:
    """One pod as the grouper reads it: a listed pod, every value real, or a synthesized one, of which only
    the labels the synthesis determines are read (``synthetic``)."""

    def __init__(self, pod: Json, synthetic: SyntheticPod | None = None) -> None:
        self.pod = pod
        self.synthetic = synthetic
        metadata = get(pod, "metadata")
        name = get(metadata, "name")
        self.name = str(name) if name is not None else ""
        namespace = get(metadata, "namespace")
        self.namespace = namespace if isinstance(namespace, str) else ""
        data: Any = pod
        if synthetic is not None and synthetic.shared and isinstance(metadata, dict):
            labels = {**synthetic.shared, **(get(metadata, "labels") or {})}
            data = {**synthetic.pod, "metadata": {**metadata, "labels": labels}}
        self.input = JqInput(data)
        # the type selectors' results on the pod, all run at once when one is first read
        self.known: dict[str, JqResult] | None = None

    @property
    def shown(self) -> str:
        return f"{self.namespace}/{self.name}" if self.namespace else self.name

    def readable(self, keys: frozenset[str] | None) -> bool:
        """Whether the value (or absence) of every label in ``keys`` is known on this pod; a listed pod's
        always is, a synthesized pod's only for labels it determines (None: the expression reads more)."""
        pod = self.synthetic
        if pod is None:
            return True
        if keys is None:
            return False
        return all(key in pod.shared or pod.determined(frozenset({key})) for key in keys)

    def run(self, runtime: JqRuntime, text: str) -> JqResult:
        if not self.readable(label_keys(text)):
            raise NotKnown(text)
        return runtime.evaluate(text, self.input)


def _single(result: JqResult) -> Json:
    """pod_querier evaluateSingleResult: exactly one output, neither null nor ""."""
    if not result.ok:
        raise ValueError(str(result.error))
    if len(result.outputs) != 1:
        raise ValueError(f"expected single query result, got {len(result.outputs)}")
    value: Json = result.outputs[0]
    if value is None or value == "":
        raise ValueError(f"query result is empty {'<nil>' if value is None else ''}")
    return value


class Scales:
    """The library's CalculateSubtreeScale over the workload's tree: a component's own scale is, per instance,
    minReplicas when above 0, else replicas when above 0, else 0, summed over its instances (only the named
    one where the subtree is rooted at that instance and the component has more than one); a parent
    multiplies its own scale by the sum of its children's, and where either is 0 the other stands. When no
    component has a scaleDefinition, the scale is the number of pod-defining components (their instances)."""

    def __init__(self, definition: Definition, workload: Workload) -> None:
        self.workload = workload
        components = definition.components
        self.by_name: dict[str, Component] = {c.name or "": c for c in components}
        self.children: dict[str, list[str]] = {}
        for component in components:
            if component.owner_ref is not None:
                self.children.setdefault(component.owner_ref, []).append(component.name or "")
        self.by_definition = any(c.scale_node is not None for c in components)
        self.problems = _read_problems(workload.findings)

    def subtree(self, name: str, instance: str | None) -> int:
        if instance == "":
            raise GrouperError("scale", "instance id is empty")
        if name not in self.by_name:
            raise GrouperError("scale", f"component {name} not found")
        count = self._by_definition if self.by_definition else self._by_leaves
        return count(name, (name, instance), set())

    def _instances(self, name: str) -> list[Any]:
        node = self.workload.components.get(name)
        return node.instances if node is not None else []

    def _by_definition(self, name: str, root: tuple[str, str | None], seen: set[str]) -> int:
        component = self.by_name.get(name)
        if component is None:
            raise GrouperError("scale", f"component {name} not found")
        own = 0
        if component.scale_node is not None:
            problem = self.problems.get(name)
            if problem is not None:
                raise GrouperError("scale", problem)
            scales = {inst.id: _effective(inst) for inst in self._instances(name)}
            if len(scales) > 1 and root[0] == name and root[1] is not None:
                if root[1] not in scales:
                    raise GrouperError("scale", f"instance id {root[1]} not found")
                own = scales[root[1]]
            else:
                own = sum(scales.values())
        kids = [child for child in self.children.get(name, []) if child not in seen]
        if not kids:
            return own
        total = sum(self._by_definition(child, root, seen | {name}) for child in kids)
        if total == 0:
            return own
        return total if own == 0 else own * total

    def _by_leaves(self, name: str, root: tuple[str, str | None], seen: set[str]) -> int:
        component = self.by_name.get(name)
        if component is None:
            raise GrouperError("scale", f"component {name} not found")
        if component.has_pods:
            if component.instance_id_path is None:
                return 1
            problem = self.problems.get(name)
            if problem is not None:
                raise GrouperError("scale", problem)
            ids = [inst.id for inst in self._instances(name)]
            if root[0] == name and root[1] is not None:
                if root[1] not in ids:
                    raise GrouperError("scale", f"instance id {root[1]} not found")
                return 1
            return len(ids)
        return sum(self._by_leaves(child, root, seen | {name})
                   for child in self.children.get(name, []) if child not in seen)


def _effective(instance: Any) -> int:
    for value in (instance.min_replicas, instance.replicas):
        if value is not None and value > 0:
            return int(value)
    return 0


def _read_problems(findings: list[FileFinding]) -> dict[str, str]:
    """Per component, why the library cannot read its instance ids or scales on this manifest."""
    problems: dict[str, str] = {}
    for finding in findings:
        if isinstance(finding, OutputCountMismatch) and finding.field in _SCALE_FIELDS:
            problems.setdefault(finding.component, f"instance ids count ({finding.instances}) does not match "
                                                   f"results count ({finding.outputs})")
        elif isinstance(finding, NotACount):
            problems.setdefault(finding.component, f"{finding.field} of {finding.component} gives "
                                                   f"{finding.value!r}, not a replica count")
        elif isinstance(finding, InvalidInstanceId):
            problems.setdefault(finding.component, f"instance ids of {finding.component} cannot be read "
                                                   f"({finding.value!r} at {finding.index})")
        elif isinstance(finding, ExpressionFailed):
            field, _, component = finding.what.partition(" of ")
            if field in (*_SCALE_FIELDS, "instanceIdPath") and component:
                problems.setdefault(component, f"{finding.what} fails: {finding.error}")
    return problems


class KartaGrouper:
    """The Karta grouper of one definition, on one workload (``uid``: its uid, None when not known)."""

    def __init__(self, definition: Definition, workload: Workload, runtime: JqRuntime, uid: str | None,
                 annotations: dict[str, Any]) -> None:
        self.definition = definition
        self.workload = workload
        self.runtime = runtime
        self.uid = uid
        self.scales = Scales(definition, workload)
        self.matcher = PodMatcher(definition, runtime, workload.definition_path)
        self.selecting = {s.name: s for s in self.matcher.components}
        components = definition.components
        # summary.go: the components with a pod definition, root first, then the children in order
        self.leaves = [c.name or "" for c in components if c.has_pods]
        self.parents = {c.name or "": c.owner_ref for c in components if c.owner_ref is not None}
        self.topology = {key: annotations[value] for key, value in TOPOLOGY_ANNOTATIONS.items()
                         if isinstance(annotations.get(value), str) and annotations[value]}

    # -- the name ------------------------------------------------------------------------------------------
    def name(self, keys: list[str]) -> str:
        """calcPodGroupName: pg-<top owner uid>, then each key, joined by '-'."""
        return "-".join([PREFIX, self.uid or UID, *keys])

    def check_name(self, keys: list[str], shown: list[str], paths: str = "") -> None:
        """validatePodGroupNameFromGroupingKeys, with a stand-in for what is not known offline: a uid has 36
        characters of [0-9a-f-], and ``keys`` hold a plain value where the synthesis could not derive one."""
        if not keys:
            return
        standin = "-".join([PREFIX, self.uid or "0" * 36, *keys])
        problems = subdomain_problems(standin)
        if problems:
            raise GrouperError("name", f"Karta grouping keys [{' '.join(shown)}] produce invalid Kubernetes "
                                       f"PodGroup name {self.name(shown)!r}: {'; '.join(problems)}", paths)

    # -- one pod -------------------------------------------------------------------------------------------
    def group(self, view: PodView) -> GroupedPod:
        grouped = GroupedPod(pod=view.shown)
        try:
            if self.definition.pod_group is not None:
                self._v2(view, grouped)
            else:
                self._alpha(view, grouped)
        except GrouperError as error:
            grouped.error, grouped.cause, grouped.at = error.message, error.cause, error.at
            if error.cause == "component" and view.synthetic is not None and not view.synthetic.component:
                grouped.cause = "no component"  # a pod the controller makes that no component describes
            grouped.group = None
        except NotKnown as unknown:
            grouped.unknown = unknown.what
            grouped.group = None
        return grouped

    def _v2(self, view: PodView, grouped: GroupedPod) -> None:
        definition = self.definition
        assert definition.pod_group is not None
        grouped.group = self.name([definition.pod_group.name or ""])
        grouped.topology = dict(self.topology)
        topology = to_python(definition.pod_group.topology_node)
        if isinstance(topology, dict):
            grouped.topology = _topology(topology)
        sub_groups: list[KaiSubGroup] = []
        for ref in definition.subgroup_refs:
            sub_groups.append(self._sub_group(view, ref))
        if sub_groups:
            grouped.sub_groups = sub_groups
            grouped.min_subgroups = len(sub_groups)
            grouped.min_available = 0
        else:
            root = definition.root.name if definition.root is not None else ""
            grouped.min_available = self.scales.subtree(root or "", None)

    def _sub_group(self, view: PodView, ref: GangMember) -> KaiSubGroup:
        name = ref.component or ""
        if not name:
            raise GrouperError("sub-group", "subgroup component name cannot be empty")
        if name not in self.scales.by_name:
            raise GrouperError("sub-group", f"component {name} not found", name)
        available = self.scales.subtree(name, None)
        if available == 0:
            raise GrouperError("sub-group", f"component {name} must expose a replica scale definition", name)
        topology = to_python(ref.node.get("topology")) if hasattr(ref.node, "get") else None
        sub = KaiSubGroup(name=name, min_available=available,
                          topology=_topology(topology) if isinstance(topology, dict) else None)
        try:
            inside = self._in_subtree(view, name, set())
        except NotKnown:
            if view.synthetic is None or not view.synthetic.component:
                raise
            inside = name in view.synthetic.ancestors
        if inside:
            sub.pods.append(view.shown)
        return sub

    def _in_subtree(self, view: PodView, name: str, seen: set[str]) -> bool:
        """component_matching.go podMatchesComponentSubtree: the component's type selector, else a child's."""
        if self._type_matches(view, name):
            return True
        return any(self._in_subtree(view, child, seen | {name})
                   for child in self.scales.children.get(name, []) if child not in seen | {name})

    def _type_matches(self, view: PodView, name: str) -> bool:
        selecting = self.selecting.get(name)
        if selecting is None or selecting.component.type_selector_node is None:
            return False
        if not view.readable(type_keys(selecting.component)):
            raise NotKnown(f"the componentTypeSelector of {name}")
        if view.known is None:  # every type selector on the pod in one pass: the grouper asks several
            programs = [self.matcher.type_program(c) for c in self.selecting.values()]
            view.known = self.runtime.evaluate_many([p for p in programs if p is not None], view.input)
        scratch: list[FileFinding] = []
        evaluator = Evaluator(self.runtime, view.input, scratch, self.workload.definition_path, view.known)
        matches = self.matcher.type_matches(selecting, evaluator, view.input.value)
        if scratch:
            raise GrouperError("component", f"failed to check if pod matches component {name}: "
                                            f"{getattr(scratch[0], 'error', 'evaluation failed')}")
        return matches

    def _alpha(self, view: PodView, grouped: GroupedPod) -> None:
        component = self._component(view)
        grouped.component = component
        member, group = self._member(view, component)
        if member is None or group is None:
            raise GrouperError("member", f"pod {view.namespace}/{view.name} does not match any Karta pod "
                                         "group member definition")
        grouped.member = member.component or ""
        instance = None
        if grouped.member == component:
            instance = self._instance(view, component)
            grouped.instance = instance
        grouped.topology = dict(self.topology)
        keys = [self._key(view, text) for text in member.group_by_key_paths]
        shown = [text for text, _ in keys]
        grouped.group = self.name(shown)
        self.check_name([standin for _, standin in keys], shown, "\n".join(member.group_by_key_paths))
        grouped.min_available = self.scales.subtree(grouped.member, instance)

    def _component(self, view: PodView) -> str:
        """InferPodComponent: the one component with a pod definition, else the first whose type selector
        matches. On a synthesized pod whose labels do not tell, the component whose template it runs (the
        selectors' own faults are the selector rules')."""
        if len(self.leaves) == 1:
            return self.leaves[0]
        try:
            for name in self.leaves:
                if self._type_matches(view, name):
                    return name
        except NotKnown:
            if view.synthetic is None or not view.synthetic.component:
                raise
            return view.synthetic.component
        raise GrouperError("component", f"no component found for pod {view.name}")

    def _member(self, view: PodView, component: str) -> tuple[GangMember | None, PodGroup | None]:
        """GetPodGroupingEffectiveComponent: the component's own members first, then its ancestors', each in
        the order of the groups and their members; the first whose filters all give true."""
        current: str | None = component
        seen: set[str] = set()
        while current is not None and current not in seen:
            seen.add(current)
            for group in self.definition.pod_groups:
                for member in group.members:
                    if member.component == current and self._passes(view, member, group):
                        return member, group
            current = self.parents.get(current)
        return None, None

    def _passes(self, view: PodView, member: GangMember, group: PodGroup) -> bool:
        for text in member.filters:
            try:
                value = _single(view.run(self.runtime, text))
            except ValueError as error:
                raise GrouperError("member", f"failed to evaluate filters for component {member.component} "
                                             f"in group {group.name}: failed to evaluate filter "
                                             f"{json.dumps(text)}: {error}") from None
            if value is not True:
                return False
        return True

    def _instance(self, view: PodView, name: str) -> str | None:
        """InferPodComponentInstance: with instance ids and a pod selector, the id the component's own
        instance selector gives, which must be one of them."""
        component = self.scales.by_name[name]
        node = self.workload.components.get(name)
        ids = [inst.id for inst in node.instances] if node is not None else [""]
        if component.instance_id_path is None:
            ids = [""]
        if not ids or not ids[0] or component.pod_selector_node is None:
            return None
        selector = component.instance_selector_path
        if component.instance_selector_node is None:
            raise GrouperError("instance", "no instance selector provided but instance ids are not empty")
        try:
            value = "" if selector is None else go_text(_single(view.run(self.runtime, selector.text)))
        except NotKnown:
            if view.synthetic is None or name not in view.synthetic.instances:
                raise
            return view.synthetic.instances[name]
        except ValueError as error:
            path = selector.text if selector is not None else ""
            raise GrouperError("instance", f"failed to extract instance id from path {json.dumps(path)}: "
                                           f"{error}") from None
        if value not in ids:
            raise GrouperError("instance", f"could not match instance id {json.dumps(value)}. existing "
                                           f"instance ids [{' '.join(ids)}]")
        return value

    def _key(self, view: PodView, text: str) -> tuple[str, str]:
        """ExtractGroupKeys: one value of the path, and the stand-in the name is judged with: on a synthesized
        pod, what the synthesis cannot derive (shown as <...>) is judged as a plain value."""
        try:
            value = go_text(_single(view.run(self.runtime, text)))
        except ValueError as error:
            raise GrouperError("key", f"failed to extract group key from path {json.dumps(text)}: {error}",
                               text) from None
        if view.synthetic is None:
            return value, value
        # what the synthesis cannot derive it writes as <...> (a value of the run, a scheduled time)
        return value, _UNKNOWN_PART.sub("0", value)


def _topology(value: dict[str, Any]) -> dict[str, Any]:
    """A topology constraint as KAI takes it (validateTopologyConstraint)."""
    if not value.get("topologyName"):
        raise GrouperError("topology", "topology constraint must include topology name", json.dumps(value))
    if not value.get("preferredTopologyLevel") and not value.get("requiredTopologyLevel"):
        raise GrouperError("topology", "topology constraint must include preferred or required topology "
                           "level", json.dumps(value))
    return {key: value[key] for key in TOPOLOGY_ANNOTATIONS if value.get(key)}


def pod_groups(grouped: list[GroupedPod]) -> list[KaiPodGroup]:
    """The PodGroups the pods make, in the order their first pod comes; the sub-groups list every pod the
    grouper put in each."""
    groups: dict[str, KaiPodGroup] = {}
    for pod in grouped:
        if pod.group is None:
            continue
        found = groups.get(pod.group)
        if found is None:
            found = groups[pod.group] = KaiPodGroup(
                name=pod.group, min_subgroups=pod.min_subgroups, topology=pod.topology,
                sub_groups=[KaiSubGroup(s.name, s.min_available, [], s.topology) for s in pod.sub_groups])
        found.pods.append(pod)
        for sub, mine in zip(found.sub_groups, pod.sub_groups, strict=False):
            sub.pods.extend(mine.pods)
    return list(groups.values())
