"""Preview of the pod groups a gang scheduler forms (alpha ``podGroups``, v2 ``podGroup``).

Min-available follows the scheduler's subtree scale: per instance, minReplicas if > 0, else replicas if
> 0, times the sum of the children's subtree scales; a leaf without any scale counts as one pod. A result of
0 means the scheduler rejects the group (``component X must expose a replica scale definition``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wmaplint.resolve.facts import GangMemberUnknown, GangScaleZero, PodGroupEmpty
from wmaplint.resolve.model import ComponentNode, Gang, GangPart, Workload
from wmaplint.source import Node, to_python

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition, GangMember, PodGroup, PodGroupV2


def subtree_scale(node: ComponentNode, memo: dict[int, int] | None = None) -> int:
    """Subtree scale; a child shared by every parent instance is computed once."""
    memo = {} if memo is None else memo
    if id(node) in memo:
        return memo[id(node)]
    total = 0
    for inst in node.instances:
        own = next((v for v in (inst.min_replicas, inst.replicas) if v is not None and v > 0), None)
        if inst.children:
            kids = sum(subtree_scale(child, memo) for child in inst.children)
            total += (own if own is not None else 1) * kids
        elif own is not None:
            total += own
        elif (inst.min_replicas, inst.replicas) == (None, None):
            total += 1  # no scale at all: the leaf counts once
    memo[id(node)] = total
    return total


def _scale_of(name: str, workload: Workload, where: Node, require_positive: bool = True) -> int | None:
    """The subtree scale of a member; with require_positive (v2 sub-groups), 0 is the scheduler's error."""
    node = workload.components.get(name)
    if node is None:
        workload.facts.append(GangMemberUnknown(workload.definition_path, where.span, name))
        return None
    scale = subtree_scale(node)
    if scale <= 0 and require_positive:
        workload.facts.append(GangScaleZero(workload.definition_path, where.span, name))
        return None
    return scale


def _total(values: list[int | None]) -> int | None:
    return None if not values or any(v is None for v in values) else sum(v for v in values if v is not None)


def _part(member: GangMember, workload: Workload, require_positive: bool) -> GangPart | None:
    if member.component is None or member.component_node is None:
        return None
    return GangPart(
        component=member.component,
        group_by_key_paths=list(member.group_by_key_paths),
        filters=list(member.filters),
        min_available=_scale_of(member.component, workload, member.component_node, require_positive),
    )


def preview_gangs(definition: Definition, workload: Workload) -> list[Gang]:
    """The gangs of the definition's gangScheduling on the workload; what is wrong joins its facts."""
    gangs: list[Gang] = []
    if definition.pod_group is not None:
        gangs.append(_v2(definition.pod_group, definition.subgroup_refs, workload))
    for group in definition.pod_groups:
        gangs.append(_alpha(group, workload))
    return gangs


def _alpha(group: PodGroup, workload: Workload) -> Gang:
    # alpha groups: a member without pods on this manifest (scale 0) simply adds none
    members = [p for p in (_part(m, workload, False) for m in group.members) if p is not None]
    name = group.name or ""
    total = _total([m.min_available for m in members])
    # a min-available that cannot be computed is said by min_available None, not again in the note
    note = ""
    if total == 0:
        workload.facts.append(PodGroupEmpty(workload.definition_path, group.node.span, name))
        total = None
    if members and any(m.group_by_key_paths for m in members):
        note = "one group per distinct groupByKeyPaths value of the pods"
    return Gang(name=name, api="podGroups", members=members, min_available=total, note=note)


def _v2(group: PodGroupV2, subgroups: list[GangMember], workload: Workload) -> Gang:
    members = [p for p in (_part(sub, workload, True) for sub in subgroups) if p is not None]
    if members:
        total = _total([m.min_available for m in members])
        min_subgroups: int | None = len(members)
    else:
        root = workload.root
        total = _scale_of(root.name, workload, group.node) if root else None
        min_subgroups = None
    topology = to_python(group.topology_node)
    return Gang(
        name=group.name or "",
        api="podGroup",
        members=members,
        min_available=total,
        topology=topology or None,
        min_subgroups=min_subgroups,
    )
