"""The resolved workload: components, instances, pod templates, totals, status, gangs and findings."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from wmaplint.structs import dataclass, field

Pointer = tuple[str | int, ...]


@dataclass(slots=True)
class Finding:
    """A problem met while resolving; ``definition_path`` points at the expression in the definition."""

    rule: str
    message: str
    definition_path: Pointer = ()
    manifest_path: Pointer = ()


@dataclass(slots=True)
class PodTemplate:
    metadata: dict[str, Any]
    spec: dict[str, Any]
    resources: dict[str, Decimal]  # what one pod asks for
    # the part of ``resources`` asked for in the framework's own fields, outside the Kubernetes shapes the
    # definition points at: a platform reading the definition does not see it
    unseen: dict[str, Decimal] = field(default_factory=dict)


@dataclass(slots=True)
class Instance:
    id: str
    index: int
    replicas: int | None = None
    min_replicas: int | None = None
    max_replicas: int | None = None
    template: PodTemplate | None = None
    children: list[ComponentNode] = field(default_factory=list)
    pods: int = 0  # pods of this instance and its subtree, all replicas
    resources: dict[str, Decimal] = field(default_factory=dict)
    unseen: dict[str, Decimal] = field(default_factory=dict)

    @property
    def effective_replicas(self) -> int:
        """replicas, else minReplicas, else 1 (the CLI's rule for totals)."""
        for value in (self.replicas, self.min_replicas):
            if value is not None:
                return max(value, 0)
        return 1


@dataclass(slots=True)
class ComponentNode:
    name: str
    kind: dict[str, str] | None
    owner: str | None
    index: int  # -1 for the root, else the position in childComponents
    has_spec: bool
    multi_instance: bool
    instances: list[Instance] = field(default_factory=list)
    pods: int = 0
    resources: dict[str, Decimal] = field(default_factory=dict)
    unseen: dict[str, Decimal] = field(default_factory=dict)
    pointer: Pointer = ()


@dataclass(slots=True)
class StatusResult:
    status: str  # the first match in evaluation order, else Undefined (upstream reports every match)
    matches: list[str]
    phase: Any = None
    conditions: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class GangMember:
    component: str
    group_by_key_paths: list[str]
    filters: list[str]
    min_available: int | None


@dataclass(slots=True)
class Gang:
    name: str
    api: str  # "podGroups" (alpha) or "podGroup" (v2)
    members: list[GangMember]
    min_available: int | None
    topology: dict[str, Any] | None = None
    note: str = ""
    min_subgroups: int | None = None


@dataclass(slots=True)
class PodAttribution:
    pod: str
    component: str | None
    instance: str | None
    replica: str | None
    claimed_by: list[str] = field(default_factory=list)


@dataclass(slots=True)
class Workload:
    api_version: str
    kind: str
    name: str
    namespace: str | None
    definition_name: str
    root: ComponentNode | None
    components: dict[str, ComponentNode]
    status: StatusResult | None = None
    gangs: list[Gang] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    pods: list[PodAttribution] = field(default_factory=list)
    # what the tree assumes about the operator where the manifest leaves it open
    # (wmaplint.resolve.assumptions)
    assumptions: list[str] = field(default_factory=list)
    # how pods that live in other objects were resolved, or which object is missing
    # (wmaplint.resolve.references)
    notes: list[str] = field(default_factory=list)

    @property
    def total_pods(self) -> int:
        return self.root.pods if self.root else 0

    @property
    def total_resources(self) -> dict[str, Decimal]:
        return self.root.resources if self.root else {}

    @property
    def total_unseen(self) -> dict[str, Decimal]:
        """Resources counted in the totals that a platform reading the definition does not see."""
        return self.root.unseen if self.root else {}
