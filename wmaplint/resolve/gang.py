"""The gang a definition gives a workload, as KAI-Scheduler's pod grouper builds it: which grouper KAI asks
(``wmaplint.resolve.kai``), the PodGroups the Karta grouper makes pod by pod (``wmaplint.resolve.grouper``)
and what they mean for the workload, as findings: pods of one PodGroup that compute different min-available
(the PodGroup handler keeps the last pod's), a PodGroup that asks for more pods than ever join it, a
min-available of 0, and the pods KAI fails for (a key that is no name, no member, an instance not found, a
podGroup it refuses).

The summary per gang of the definition (``preview_gangs``, what `tree` shows and suites expect) is the
min-available every PodGroup of that gang gets, computed without pods: the member's subtree scale, of each
instance where the member is the pods' own component with instance ids.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from wmaplint.resolve.findings import (
    GangKeyNotAName,
    GangMemberUnknown,
    InstanceSelectorMismatch,
    PodGroupEmpty,
    PodGroupMinAvailableDiffers,
    PodGroupNeverFills,
    PodGroupRejected,
    PodInstanceUnknown,
    PodNotGrouped,
)
from wmaplint.resolve.grouper import PREFIX, UID, GrouperError, KartaGrouper, PodView, Scales, pod_groups
from wmaplint.resolve.kai import KAI, has_gang_instructions, native_grouper, validator_errors
from wmaplint.resolve.model import Gang, GangPart, GroupedPod, Grouping, KaiPodGroup, Workload
from wmaplint.resolve.values import get
from wmaplint.source import to_python

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition, GangMember
    from wmaplint.findings import FileFinding
    from wmaplint.jq.runtime import JqInput, JqRuntime
    from wmaplint.source import Node
    from wmaplint.source.plain import Json

SHOWN_PODS = 3  # pods named in a finding; the count says the rest
MAX_SYNTHESIZED = 500  # beyond this many pods, the first replicas of each instance stand for the rest
_CODE = f"{KAI} pkg/podgrouper/podgrouper/plugins/karta/grouper.go"


# -- the summary of each gang of the definition -------------------------------------------------------------


def preview_gangs(definition: Definition, workload: Workload) -> list[Gang]:
    """The gangs of the definition on the workload; a member that names no component joins its findings."""
    scales = Scales(definition, workload)
    gangs: list[Gang] = []
    if definition.pod_group is not None:
        gangs.append(_v2(definition, workload, scales))
    for group in definition.pod_groups:
        parts = [p for p in (_part(m, definition, workload, scales) for m in group.members) if p is not None]
        # a member without pods on the manifest makes no PodGroup
        values = ({p.min_available for p in parts if _has_pods(workload, p.component)}
                  or {p.min_available for p in parts})
        total = values.pop() if len(values) == 1 else None
        gangs.append(Gang(name=group.name or "", api="podGroups", members=parts, min_available=total))
    return gangs


def _has_pods(workload: Workload, name: str) -> bool:
    node = workload.components.get(name)
    return node is None or node.pods > 0


def _member_values(name: str, definition: Definition, workload: Workload, scales: Scales) -> set[int] | None:
    """What the pods taking member ``name`` compute: of each instance where the member is their own component
    with instance ids and a pod selector, else the member's whole subtree; None when KAI fails to compute it.
    """
    component = definition.component(name)
    node = workload.components.get(name)
    try:
        if (component is not None and component.has_pods and component.instance_id_path is not None
                and component.pod_selector_node is not None and node is not None and node.instances):
            return {scales.subtree(name, inst.id) for inst in node.instances}
        return {scales.subtree(name, None)}
    except GrouperError:
        return None


def _part(member: GangMember, definition: Definition, workload: Workload, scales: Scales) -> GangPart | None:
    if member.component is None or member.component_node is None:
        return None
    if member.component not in scales.by_name:
        workload.findings.append(GangMemberUnknown(workload.definition_path, member.component_node.span,
                                                member.component))
        return None
    values = _member_values(member.component, definition, workload, scales)
    available = values.pop() if values is not None and len(values) == 1 else None
    return GangPart(component=member.component, group_by_key_paths=list(member.group_by_key_paths),
                    filters=list(member.filters), min_available=available)


def _v2(definition: Definition, workload: Workload, scales: Scales) -> Gang:
    assert definition.pod_group is not None
    members: list[GangPart] = []
    for sub in definition.subgroup_refs:
        if sub.component is None or sub.component_node is None:
            continue
        if sub.component not in scales.by_name:
            workload.findings.append(GangMemberUnknown(workload.definition_path, sub.component_node.span,
                                                    sub.component))
            continue
        try:
            available: int | None = scales.subtree(sub.component, None)
        except GrouperError:
            available = None
        members.append(GangPart(component=sub.component, group_by_key_paths=[], filters=[],
                                min_available=available))
    total: int | None
    if definition.subgroup_refs:
        total, min_subgroups = 0, len(definition.subgroup_refs)
    else:
        root = definition.root.name if definition.root is not None else None
        try:
            total = scales.subtree(root or "", None)
        except GrouperError:
            total = None
        min_subgroups = None
    topology = to_python(definition.pod_group.topology_node)
    return Gang(name=definition.pod_group.name or "", api="podGroup", members=members, min_available=total,
                topology=topology or None, min_subgroups=min_subgroups)


# -- which grouper KAI asks ----------------------------------------------------------------------------------


def grouper_for(definition: Definition, workload: Workload) -> Grouping:
    """The grouper KAI uses for the workload's pods and why; the Karta grouper only where KAI would take this
    definition for the workload's exact kind."""
    native = native_grouper(workload.api_version, workload.kind)
    if definition.legacy:
        return Grouping("default", "KAI's Karta grouper reads Karta definitions only", native)
    if not has_gang_instructions(definition):
        return Grouping("default", "the definition has no gang instructions, so KAI's Karta hub passes it by "
                                   "(plugins/karta/hub.go hasGangSchedulingInstructions)", native)
    errors = validator_errors(definition)
    if errors:
        return Grouping("default", f"the library's validator refuses the definition ({errors[0]}), so KAI "
                                   "skips it (plugins/karta/hub.go getKartaForGvk)", native)
    if workload.definition_api_version != workload.api_version:
        return Grouping("default", f"KAI takes a definition only for its exact group, version and kind "
                                   f"(plugins/karta/hub.go getKartaForGvk), and this one is written for "
                                   f"{workload.definition_api_version}", native)
    return Grouping("karta", native=native)


# -- the PodGroups of the pods -------------------------------------------------------------------------------


def group_pods(definition: Definition, workload: Workload, obj: Json, runtime: JqRuntime,
               views: list[PodView], source: str, partial: bool = False) -> Grouping:
    """The PodGroups KAI's pod grouper makes of ``views`` (the workload's pods, ``source`` "synthesized" or
    "listed"); what is wrong with them joins the workload's findings."""
    grouping = grouper_for(definition, workload)
    grouping.pods, grouping.partial = source, partial
    metadata = get(obj, "metadata")
    uid = get(metadata, "uid")
    uid = uid if isinstance(uid, str) and uid else _owner_uid(workload, views)
    if grouping.grouper == "default":
        name = get(metadata, "name")
        group = KaiPodGroup(name=f"{PREFIX}-{name}-{uid or UID}")
        group.pods = [GroupedPod(pod=view.shown, group=group.name, min_available=1) for view in views]
        grouping.groups = [group]
        return grouping
    annotations = get(metadata, "annotations")
    grouper = KartaGrouper(definition, workload, runtime, uid, annotations if isinstance(annotations, dict)
                           else {})
    grouped = [grouper.group(view) for view in views]
    grouping.groups = pod_groups(grouped)
    grouping.failed = [pod for pod in grouped if pod.error is not None]
    grouping.unknown = [pod for pod in grouped if pod.unknown is not None]
    workload.findings.extend(_judge(definition, workload, grouping))
    return grouping


def _owner_uid(workload: Workload, views: list[PodView]) -> str | None:
    """The workload's uid as its listed pods name it, where they name the workload as their owner."""
    for view in views:
        if view.synthetic is not None:
            continue
        for ref in get(view.pod, "metadata", "ownerReferences") or ():
            if (isinstance(ref, dict) and (ref.get("kind"), ref.get("name")) == (workload.kind, workload.name)
                    and isinstance(ref.get("uid"), str)):
                return str(ref["uid"])
    return None


# -- what the PodGroups mean ---------------------------------------------------------------------------------


def _judge(definition: Definition, workload: Workload, grouping: Grouping) -> list[FileFinding]:
    judge = _Judge(definition, workload, grouping)
    for group in grouping.groups:
        judge.pod_group(group)
    judge.failures()
    return judge.findings


class _Judge:
    def __init__(self, definition: Definition, workload: Workload, grouping: Grouping) -> None:
        self.definition = definition
        self.workload = workload
        self.grouping = grouping
        self.native = (f"{workload.api_version} {workload.kind} with its own {grouping.native} grouper"
                       if grouping.native else "")
        self.findings: list[FileFinding] = []
        self.path = workload.definition_path
        self.members = {m.component: m for m in definition.gang_members if m.component}
        self.names = {c.name for c in definition.components if c.name}
        self.whole = f"{workload.kind} {workload.name}"

    def _at(self, node: Node | None) -> Node:
        return node if node is not None else (self.definition.structure_node or self.definition.document_node)

    def pod_group(self, group: KaiPodGroup) -> None:
        computed = group.computed
        first = group.pods[0]
        member = self.members.get(first.member or "")
        where = self._at(member.component_node if member is not None else None)
        named = first.member or ""
        v2 = self.definition.pod_group
        if first.member is None and v2 is not None:  # a podGroup sizes the root's whole subtree
            named, where = (self.definition.root.name if self.definition.root else None) or "", v2.node
        if len(computed) > 1:
            parts = tuple(f"{_who(pods)} {'computes' if len(pods) == 1 else 'compute'} {value} ({_how(pods)})"
                          for value, pods in sorted(computed.items()))
            self.findings.append(PodGroupMinAvailableDiffers(self.path, where.span, group.name, self.whole,
                                                          parts, self.grouping.pods, self.native))
            return
        if group.min_available is None or group.min_subgroups is not None:
            return
        if group.min_available == 0:
            self.findings.append(PodGroupEmpty(self.path, where.span, group.name, named, self.native))
        elif (group.min_available > len(group.pods) and self.grouping.pods == "synthesized"
              and not self.grouping.partial and not self.grouping.unknown and not self.grouping.failed):
            # only every pod the controller makes tells how many join: a pod list may miss some
            keys = member.group_by_key_paths if member is not None else []
            split = (f"its groupByKeyPaths ({', '.join(keys)}) give the other pods other PodGroups" if keys
                     else "the other pods take other members")
            self.findings.append(PodGroupNeverFills(self.path, where.span, group.name, self.whole,
                                                 group.min_available, len(group.pods), named, split,
                                                 self.native))

    def failures(self) -> None:
        by_cause: dict[tuple[str, str], list[GroupedPod]] = {}
        for pod in self.grouping.failed:
            by_cause.setdefault((pod.cause, _shape(pod)), []).append(pod)
        for (cause, _), pods in by_cause.items():
            if (cause in ("scale", "component") or (cause == "instance" and self._instance_said(pods[0]))
                    or (cause == "sub-group" and pods[0].at and pods[0].at not in self.names)):
                # what the tree and the other rules already say: a scale the library cannot read (the jq and
                # instance rules), a pod its own component's selector misses, an instance selector that
                # names another entry (the selector and pod attribution rules), a sub-group of no component
                continue
            error = pods[0].error or ""
            names = tuple(p.pod for p in pods[:SHOWN_PODS])
            if cause in ("sub-group", "topology") and self.definition.pod_group is not None:
                where = self._v2_node(pods[0])
                self.findings.append(PodGroupRejected(self.path, where.span, error, self.native))
            elif cause in ("key", "name"):
                where = self._key_node(pods[0])
                self.findings.append(GangKeyNotAName(self.path, where.span, error, names, len(pods),
                                                  self.native))
            else:
                where = self._failure_node(pods[0], cause)
                self.findings.append(PodNotGrouped(self.path, where.span, cause, error, names, len(pods),
                                                self.native))

    def _instance_said(self, pod: GroupedPod) -> bool:
        said = (InstanceSelectorMismatch, PodInstanceUnknown)
        return any(isinstance(finding, said) and finding.component == pod.component
                   for finding in self.workload.findings)

    def _key_node(self, pod: GroupedPod) -> Node:
        """The groupByKeyPaths entry that gives no name (the first of the member's, for the name they
        make)."""
        member = self.members.get(pod.member or "")
        if member is None:
            return self._at(None)
        paths = pod.at.split("\n")
        for expr in self.definition.gang_expressions:
            if (expr.field == "groupByKeyPaths" and expr.pointer[:len(member.pointer)] == member.pointer
                    and expr.text in paths):
                return expr.node
        return self._at(member.node)

    def _failure_node(self, pod: GroupedPod, cause: str) -> Node:
        component = self.definition.component(pod.component or "")
        if cause == "instance" and component is not None:
            return self._at(component.instance_selector_node or component.node)
        if cause == "member":
            member = next((m for m in self._candidates(pod.component or "")), None)
            groups = self.definition.pod_groups
            if member is not None:
                return self._at(member.component_node)
            return self._at(groups[0].node if groups else None)
        if cause == "scale":
            member = self.members.get(pod.member or "")
            return self._at(member.component_node if member is not None else None)
        return self._at(None)

    def _candidates(self, component: str) -> list[GangMember]:
        """The members a pod of ``component`` may take: of the component, then of its ancestors."""
        parents = {c.name: c.owner_ref for c in self.definition.components if c.name}
        found: list[GangMember] = []
        current: str | None = component
        seen: set[str] = set()
        while current and current not in seen:
            seen.add(current)
            found.extend(m for m in self.definition.gang_members if m.component == current)
            current = parents.get(current)
        return found

    def _v2_node(self, pod: GroupedPod) -> Node:
        group = self.definition.pod_group
        assert group is not None
        if pod.cause == "topology":
            for sub in self.definition.subgroup_refs:
                topology = sub.node.get("topology")
                if topology is not None and json.dumps(to_python(topology)) == pod.at:
                    return topology
            return group.topology_node or group.node
        for sub in self.definition.subgroup_refs:
            if sub.component_node is not None and sub.component == pod.at:
                return sub.component_node
        return group.node


def _shape(pod: GroupedPod) -> str:
    """What makes two failures one finding: the step, the member, the component and what it is about, not
    the pod (whose name and values KAI's words hold)."""
    return f"{pod.member}|{pod.component if pod.cause in ('member', 'instance') else ''}|{pod.at}"


def _who(pods: list[GroupedPod]) -> str:
    """``2 pods of replicatedjob/worker``, or the parts when the pods are of several."""
    parts: dict[str, int] = {}
    for pod in pods:
        part = (pod.component or "?") + (f"/{pod.instance}" if pod.instance else "")
        parts[part] = parts.get(part, 0) + 1
    total = len(pods)
    noun = "pod" if total == 1 else "pods"
    return f"{total} {noun} of " + ", ".join(parts)


def _how(pods: list[GroupedPod]) -> str:
    pod = pods[0]
    if pod.member is None:
        return "the whole workload"
    if pod.instance is not None:
        return f"member {pod.member}, instance {pod.instance}"
    return f"member {pod.member}"


def group_synthesized(definition: Definition, workload: Workload, obj: Json, runtime: JqRuntime,
                      prepared: JqInput | None = None) -> None:
    """The PodGroups of the pods the controller creates for ``obj``, synthesized
    (``wmaplint.resolve.synthesis``): all of them, or beyond MAX_SYNTHESIZED pods the first replicas of each
    instance. ``prepared``: ``obj`` as the tree's expressions ran on it."""
    from wmaplint.resolve.synthesis import MAX_PODS, synthesize
    from wmaplint.resolve.verify import PER_INSTANCE

    views: list[PodView] = []
    partial = False
    if grouper_for(definition, workload).grouper == "karta":
        partial = workload.total_pods > MAX_SYNTHESIZED
        pods = synthesize(workload, obj, PER_INSTANCE if partial else None, runtime, prepared)
        partial = partial or len(pods) >= MAX_PODS
        views = [PodView(pod.pod, pod) for pod in pods]
    workload.grouping = group_pods(definition, workload, obj, runtime, views, "synthesized", partial)


def group_listed(definition: Definition, workload: Workload, obj: Json, pods: list[Json],
                 runtime: JqRuntime) -> None:
    """The PodGroups of the workload's listed pods (``tree --pods``), with their real labels and owners."""
    views = [PodView(pod) for pod in pods]
    workload.grouping = group_pods(definition, workload, obj, runtime, views, "listed")
