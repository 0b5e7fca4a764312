"""The resolved workload: components, instances, pod templates, totals, status, gangs and what was found."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass, field

if TYPE_CHECKING:
    from wmaplint.controllers import KindModel
    from wmaplint.definition.model import GVK, Component, Definition
    from wmaplint.diagnostics import Diagnostic
    from wmaplint.findings import FileFinding


MAX_COMPONENTS = 300  # keeps the subtree walks far from Python's recursion limit


def resolved_components(definition: Definition) -> list[Component]:
    """The root and the children resolution builds, in definition order (at most MAX_COMPONENTS children)."""
    if definition.root is None:
        return []
    return [definition.root, *definition.children[:MAX_COMPONENTS]]


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
    """A component of the definition (``component``) as resolved on one manifest."""

    component: Component
    name: str
    index: int  # -1 for the root, else the position in childComponents
    instances: list[Instance] = field(default_factory=list)
    pods: int = 0
    resources: dict[str, Decimal] = field(default_factory=dict)
    unseen: dict[str, Decimal] = field(default_factory=dict)

    @property
    def kind(self) -> GVK | None:
        return self.component.kind

    @property
    def owner(self) -> str | None:
        return self.component.owner_ref

    @property
    def has_spec(self) -> bool:
        return self.component.spec_node is not None

    @property
    def multi_instance(self) -> bool:
        return self.component.instance_id_path is not None


@dataclass(slots=True)
class StatusResult:
    status: str  # the first match in evaluation order, else Undefined (upstream reports every match)
    matches: list[str]
    phase: Any = None
    conditions: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class GangPart:
    """A member (podGroups) or sub-group (podGroup) of a gang, with the min-available its pods compute on the
    manifest (None where that differs by instance, or cannot be computed)."""

    component: str
    group_by_key_paths: list[str]
    filters: list[str]
    min_available: int | None


@dataclass(slots=True)
class Gang:
    """A gang of the definition (a podGroups entry, or the podGroup) on the manifest: its members and the
    min-available every PodGroup of it gets, None where that differs by PodGroup or pod."""

    name: str
    api: str  # "podGroups" (alpha) or "podGroup" (v2)
    members: list[GangPart]
    min_available: int | None
    topology: dict[str, Any] | None = None
    min_subgroups: int | None = None


@dataclass(slots=True)
class KaiSubGroup:
    """A sub-group of a podGroup (v2) gang as KAI builds it: its component, min-available, the pods the
    grouper put in it and its topology."""

    name: str
    min_available: int
    pods: list[str] = field(default_factory=list)
    topology: dict[str, Any] | None = None


@dataclass(slots=True)
class GroupedPod:
    """One pod as KAI's Karta grouper computes it (``wmaplint.resolve.grouper``): its component, instance and
    the member it takes, the PodGroup's name and the min-available it writes there; or KAI's error for it
    (``cause``: the step that fails), or what could not be told offline (``unknown``)."""

    pod: str
    component: str | None = None
    instance: str | None = None
    member: str | None = None
    group: str | None = None
    min_available: int | None = None
    min_subgroups: int | None = None
    sub_groups: list[KaiSubGroup] = field(default_factory=list)
    topology: dict[str, Any] | None = None
    error: str | None = None
    cause: str = ""
    at: str = ""  # what the error is about: a groupByKeyPaths entry, a sub-group's component
    unknown: str | None = None


@dataclass(slots=True)
class KaiPodGroup:
    """A PodGroup as KAI names it, with the pods the grouper put in it. Each pod writes its own computation
    over the PodGroup's spec (KAI podgroup/updater.go), so the min-available it gets is the last pod's."""

    name: str
    min_subgroups: int | None = None
    topology: dict[str, Any] | None = None
    sub_groups: list[KaiSubGroup] = field(default_factory=list)
    pods: list[GroupedPod] = field(default_factory=list)

    @property
    def computed(self) -> dict[int, list[GroupedPod]]:
        """Each min-available the pods compute, with the pods that compute it."""
        found: dict[int, list[GroupedPod]] = {}
        for pod in self.pods:
            if pod.min_available is not None:
                found.setdefault(pod.min_available, []).append(pod)
        return found

    @property
    def min_available(self) -> int | None:
        """The min-available every pod computes; None when they differ (the last pod's stands)."""
        values = list(self.computed)
        return values[0] if len(values) == 1 else None


@dataclass(slots=True)
class Grouping:
    """What KAI's pod grouper does with a workload's pods: ``grouper`` "karta" (the definition's gang, as
    the Karta grouper reads it) or "default" (one PodGroup, min-available 1) and why; ``native``: the grouper
    of KAI's own that takes the kind first, if any; the PodGroups, and the pods KAI fails for or that could
    not be told offline. ``pods``: "synthesized" from the manifest or "listed" with ``--pods``."""

    grouper: str
    why: str = ""
    native: str | None = None
    pods: str = "synthesized"
    partial: bool = False  # the synthesis stopped before the last pod
    groups: list[KaiPodGroup] = field(default_factory=list)
    failed: list[GroupedPod] = field(default_factory=list)
    unknown: list[GroupedPod] = field(default_factory=list)


@dataclass(slots=True)
class PodAttribution:
    pod: str
    component: str | None
    instance: str | None
    replica: str | None
    claimed_by: list[str] = field(default_factory=list)


@dataclass(slots=True)
class ComponentCount:
    """The pods the tree predicts for a component (``instance``: one of its instances, "" for all) and how
    many of the listed pods it claims."""

    component: str
    instance: str
    predicted: int
    listed: int


@dataclass(slots=True)
class PodComparison:
    """The workload's tree against the pods a pod list (``kubectl get pods -o json``) holds."""

    predicted: int
    listed: int  # pods of the list found to belong to the workload
    predicted_gpus: Decimal
    listed_gpus: Decimal
    components: list[ComponentCount] = field(default_factory=list)
    belonging: dict[str, str] = field(default_factory=dict)  # pod -> how it was found to be of the workload
    unclaimed: list[str] = field(default_factory=list)  # of the workload, claimed by no component
    claimed_twice: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)  # listed pods not of the workload

    @property
    def agrees(self) -> bool:
        return (self.predicted == self.listed and self.predicted_gpus == self.listed_gpus
                and not self.unclaimed and not self.claimed_twice
                and all(c.predicted == c.listed for c in self.components))


@dataclass(slots=True)
class Workload:
    api_version: str
    kind: str
    name: str
    namespace: str | None
    definition_name: str
    root: ComponentNode | None
    components: dict[str, ComponentNode]
    definition_path: str = ""  # the file the definition was read from: where its findings stand
    definition_api_version: str = ""  # the root kind's group/version the definition is written for
    status: StatusResult | None = None
    gangs: list[Gang] = field(default_factory=list)
    grouping: Grouping | None = None  # the PodGroups KAI's pod grouper makes (wmaplint.resolve.gang)
    findings: list[FileFinding] = field(default_factory=list)  # what resolving found (resolve/findings.py)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # the findings as a run reports them
    pods: list[PodAttribution] = field(default_factory=list)
    comparison: PodComparison | None = None  # with a pod list: the prediction against the listed pods
    # what the tree assumes about the operator where the manifest leaves it open
    # (wmaplint.resolve.assumptions)
    assumptions: list[str] = field(default_factory=list)
    # how pods that live in other objects were resolved, or which object is missing
    # (wmaplint.resolve.references)
    notes: list[str] = field(default_factory=list)
    # what the controller model says of the workload's kind, at the release in use (the project's model)
    controller: KindModel | None = None

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
