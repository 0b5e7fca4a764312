"""Preview of the pod groups a gang scheduler forms (alpha ``podGroups``, v2 ``podGroup``).

Min-available follows the scheduler's subtree scale: per instance, minReplicas if > 0, else replicas if
> 0, times the sum of the children's subtree scales; a leaf without any scale counts as one pod. A result of
0 means the scheduler rejects the group (``component X must expose a replica scale definition``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from wmaplint.resolve import rules
from wmaplint.resolve.model import ComponentNode, Finding, Gang, GangMember, Workload

GANG = ("spec", "optimizationInstructions", "gangScheduling")


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


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _scale_of(
    name: str,
    workload: Workload,
    findings: list[Finding],
    where: tuple[str | int, ...],
    require_positive: bool = True,
) -> int | None:
    """The subtree scale of a member; with require_positive (v2 sub-groups), 0 is the scheduler's error."""
    node = workload.components.get(name)
    if node is None:
        findings.append(
            Finding(
                rules.GANG_MEMBER_UNKNOWN,
                f"gang member component '{name}' is not defined (should be a root or child component)",
                where,
            )
        )
        return None
    scale = subtree_scale(node)
    if scale <= 0 and require_positive:
        findings.append(
            Finding(
                rules.GANG_MIN_AVAILABLE_UNKNOWN,
                f"min-available of '{name}' cannot be computed on this manifest: component {name} "
                "must expose a replica scale definition (its subtree scale is 0)",
                where,
            )
        )
        return None
    return scale


def _total(values: list[int | None]) -> int | None:
    return None if not values or any(v is None for v in values) else sum(v for v in values if v is not None)


def preview_gangs(definition: Mapping[str, Any], workload: Workload, findings: list[Finding]) -> list[Gang]:
    gang_def: Any = definition
    for key in GANG:
        gang_def = gang_def.get(key) if isinstance(gang_def, Mapping) else None
    if not isinstance(gang_def, Mapping):
        return []
    gangs: list[Gang] = []
    group = gang_def.get("podGroup")
    if isinstance(group, Mapping):
        gangs.append(_v2(group, workload, findings))
    groups = gang_def.get("podGroups")
    for index, entry in enumerate(groups if isinstance(groups, list) else []):
        if not isinstance(entry, Mapping):
            continue
        members: list[GangMember] = []
        member_list: list[Any] = entry["members"] if isinstance(entry.get("members"), list) else []
        for m_index, member in enumerate(member_list):
            if not isinstance(member, Mapping) or not isinstance(member.get("componentName"), str):
                continue
            where = (*GANG, "podGroups", index, "members", m_index, "componentName")
            members.append(
                GangMember(
                    component=member["componentName"],
                    group_by_key_paths=_strings(member.get("groupByKeyPaths")),
                    filters=_strings(member.get("filters")),
                    min_available=_scale_of(member["componentName"], workload, findings, where, False),
                )
            )
        # alpha groups: a member without pods on this manifest (scale 0) simply adds none
        total = _total([m.min_available for m in members])
        note = ""
        if total == 0:
            findings.append(
                Finding(
                    rules.GANG_MIN_AVAILABLE_UNKNOWN,
                    f"pod group '{entry.get('name', '')}' gets a min-available of 0 on this manifest: its "
                    "members' replica scale adds up to 0",
                    (*GANG, "podGroups", index),
                )
            )
            total = None
        if total is None:
            note = "min-available cannot be computed"
        if members and any(m.group_by_key_paths for m in members):
            note = (note + "; " if note else "") + "one group per distinct groupByKeyPaths value of the pods"
        gangs.append(
            Gang(
                name=str(entry.get("name", "")),
                api="podGroups",
                members=members,
                min_available=total,
                note=note,
            )
        )
    return gangs


def _v2(group: Mapping[str, Any], workload: Workload, findings: list[Finding]) -> Gang:
    topology = group.get("topology") if isinstance(group.get("topology"), Mapping) else None
    subgroups: list[Any] = group["subGroups"] if isinstance(group.get("subGroups"), list) else []
    members: list[GangMember] = []
    for index, sub in enumerate(subgroups):
        if not isinstance(sub, Mapping) or not isinstance(sub.get("componentName"), str):
            continue
        where = (*GANG, "podGroup", "subGroups", index, "componentName")
        members.append(
            GangMember(
                component=sub["componentName"],
                group_by_key_paths=[],
                filters=[],
                min_available=_scale_of(sub["componentName"], workload, findings, where),
            )
        )
    if members:
        total = _total([m.min_available for m in members])
        min_subgroups: int | None = len(members)
    else:
        root = workload.root
        total = _scale_of(root.name, workload, findings, (*GANG, "podGroup")) if root else None
        min_subgroups = None
    note = "" if total is not None else "min-available cannot be computed"
    return Gang(
        name=str(group.get("name", "")),
        api="podGroup",
        members=members,
        min_available=total,
        topology=dict(topology) if topology else None,
        note=note,
        min_subgroups=min_subgroups,
    )
