"""The gang of a resolved workload, as text lines and JSON: each gang of the definition and the PodGroups
KAI's
pod grouper makes of the workload's pods (``wmaplint.resolve.gang``)."""

from __future__ import annotations

from typing import Any

from wmaplint.plural import plural
from wmaplint.resolve.grouper import UID
from wmaplint.resolve.model import Gang, GroupedPod, Grouping, KaiPodGroup, KaiSubGroup, Workload

MAX_GROUPS = 12  # PodGroups listed per workload; a key per pod makes as many as there are pods
MAX_PARTS = 6  # components or instances named per PodGroup


def _parts(pods: list[GroupedPod]) -> str:
    """``master 1, worker 2``: how many pods of each component (and instance) a PodGroup holds; "" where the
    grouper infers no component (a podGroup)."""
    if all(pod.component is None for pod in pods):
        return ""
    counts: dict[str, int] = {}
    for pod in pods:
        part = (pod.component or "pod") + (f"/{pod.instance}" if pod.instance else "")
        counts[part] = counts.get(part, 0) + 1
    shown = [f"{part} {count}" for part, count in list(counts.items())[:MAX_PARTS]]
    return ", ".join(shown) + (", ..." if len(counts) > MAX_PARTS else "")


def _topology(topology: dict[str, Any] | None) -> str:
    if not topology:
        return ""
    levels = [f"{word} {topology[key]}" for key, word in (("preferredTopologyLevel", "preferred"),
                                                          ("requiredTopologyLevel", "required"))
              if topology.get(key)]
    return f"; topology {topology.get('topologyName')}" + (f" ({', '.join(levels)})" if levels else "")


def _summary(gang: Gang) -> str:
    members = ", ".join(
        f"{m.component} ({m.min_available if m.min_available is not None else 'per pod'})"
        for m in gang.members
    ) or "(whole workload)"
    if gang.min_subgroups is not None:
        size = f"min-subgroups {gang.min_subgroups}, min-available 0"
    elif gang.min_available is not None:
        size = f"min-available {gang.min_available}"
    else:
        size = ("min-available differs by PodGroup or pod" if gang.members
                else "min-available cannot be computed")
    return f"  gang {gang.name} ({gang.api}): members {members}; {size}{_topology(gang.topology)}"


def _size(group: KaiPodGroup) -> str:
    if group.min_subgroups is not None:
        return f"min-subgroups {group.min_subgroups}, min-available 0"
    if group.min_available is not None:
        return f"min-available {group.min_available}"
    computed = "; ".join(f"{value} ({_parts(pods)})" for value, pods in sorted(group.computed.items()))
    return f"min-available differs by pod: {computed}; KAI keeps the last pod's"


def _sub_group_line(sub: KaiSubGroup) -> str:
    pods = f"{plural(len(sub.pods), 'pod')}" if sub.pods else "no pod"
    return f"      sub-group {sub.name}: min-available {sub.min_available}; {pods}{_topology(sub.topology)}"


def _head(workload: Workload, grouping: Grouping) -> str | None:
    kind = f"{workload.api_version} {workload.kind}"
    if grouping.native is not None and grouping.grouper == "karta":
        return (f"  KAI groups {kind} with its own {grouping.native} grouper first; as the Karta grouper "
                "reads this gang:")
    if grouping.native is not None:
        return (f"  KAI groups {kind} with its own {grouping.native} grouper; the definition's gang is not "
                "read")
    if grouping.grouper == "default":
        name = grouping.groups[0].name if grouping.groups else "?"
        return (f"  KAI's default grouper: PodGroup {name}, min-available 1 for every pod: {grouping.why}")
    return None


def gang_lines(workload: Workload) -> list[str]:
    """The gangs of the definition and, where KAI's grouper was run, the PodGroups it makes."""
    grouping = workload.grouping
    lines = [_summary(gang) for gang in workload.gangs]
    if grouping is None:
        return lines
    head = _head(workload, grouping)
    if grouping.grouper == "default":
        return [*lines, head] if head else lines
    if head:
        lines.append(head)
    groups = grouping.groups
    for group in groups[:MAX_GROUPS]:
        parts = _parts(group.pods)
        lines.append(f"    PodGroup {group.name}: {_size(group)}; {plural(len(group.pods), 'pod')}"
                     f"{f' ({parts})' if parts else ''}{_topology(group.topology)}")
        lines.extend(_sub_group_line(sub) for sub in group.sub_groups)
    if len(groups) > MAX_GROUPS:
        lines.append(f"    ... and {plural(len(groups) - MAX_GROUPS, 'more PodGroup')}")
    if grouping.failed:
        parts = _parts(grouping.failed)
        lines.append(f"    KAI's grouper fails for {plural(len(grouping.failed), 'pod')}"
                     f"{f' ({parts})' if parts else ''}: see the findings")
    if grouping.unknown:
        reads = sorted({pod.unknown or "" for pod in grouping.unknown})
        lines.append(f"    PodGroup not known offline for {plural(len(grouping.unknown), 'pod')}: the "
                     f"grouper reads {', '.join(reads[:3])}, which the manifest does not tell")
    source = "the listed pods" if grouping.pods == "listed" else "the pods synthesized from the manifest"
    if grouping.partial:
        source += " (the first replicas of each instance)"
    if any(UID in group.name for group in groups):
        source += f"; {UID}: the workload's uid, given by the API server when the workload is created"
    lines.append(f"    pods: {source}")
    return lines


def _pod_json(pod: GroupedPod) -> dict[str, Any]:
    return {"pod": pod.pod, "component": pod.component, "instance": pod.instance, "member": pod.member,
            "minAvailable": pod.min_available}


def _group_json(group: KaiPodGroup) -> dict[str, Any]:
    return {
        "name": group.name,
        "minAvailable": group.min_available,
        "minAvailableByPod": {str(value): [p.pod for p in pods] for value, pods in group.computed.items()},
        "minSubGroups": group.min_subgroups,
        "topology": group.topology,
        "subGroups": [{"name": s.name, "minAvailable": s.min_available, "pods": s.pods,
                       "topology": s.topology} for s in group.sub_groups],
        "pods": [_pod_json(pod) for pod in group.pods],
    }


def grouping_json(grouping: Grouping | None) -> dict[str, Any] | None:
    if grouping is None:
        return None
    return {
        "grouper": grouping.grouper,
        "why": grouping.why or None,
        "nativeGrouper": grouping.native,
        "pods": grouping.pods,
        "partial": grouping.partial,
        "podGroups": [_group_json(group) for group in grouping.groups],
        "failed": [{"pod": p.pod, "cause": p.cause, "error": p.error} for p in grouping.failed],
        "unknown": [{"pod": p.pod, "reads": p.unknown} for p in grouping.unknown],
    }
