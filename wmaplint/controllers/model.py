"""The typed controller model: what a kind's controllers do with a workload, one record a kind and version
range, each fact with its source. Built by :mod:`wmaplint.controllers.load` from ``schemas/controllers/``."""

from __future__ import annotations

import difflib

from wmaplint.dataclass import dataclass, field

# What a label's value identifies. `attempt` is the older spelling of `run` (a project's pod labels files).
ROLES = ("workload", "run", "component", "entry", "replica", "revision", "other")
# What an integer field that is not a replica count is.
NOT_COUNT_KINDS = ("retry-limit", "history-limit", "seconds", "limit", "index", "other")
UNKNOWN = "unknown"  # a created object's count that the manifest does not decide


@dataclass(frozen=True)
class CreatedObject:
    """Objects the controller creates: ``count`` of them (jq over the entry, or ``unknown``) for each entry
    ``each`` yields (jq over the workload; the workload itself when None) and each of ``groups`` groups."""

    name: str
    kind: str  # group/version/kind, version/kind in the core group
    count: str
    source: str
    each: str | None = None
    groups: str | None = None
    template: str | None = None
    via: str | None = None

    @property
    def is_pod(self) -> bool:
        return self.kind == "v1/Pod"

    @property
    def group_kind(self) -> tuple[str, str]:
        parts = self.kind.split("/")
        return ("", parts[-1]) if len(parts) == 2 else (parts[0], parts[-1])


@dataclass(frozen=True)
class WrittenLabel:
    """A label (or annotation) the controllers write on the pods: what its value identifies (``role``), how it
    is derived from the manifest (``derive``, jq; None when it cannot be), on which created objects' pods
    (``on``: their names; all when empty)."""

    key: str
    role: str
    value: str
    source: str
    derive: str | None = None
    on: tuple[str, ...] = ()
    of: str | None = None
    lower: bool = False
    values: tuple[tuple[str, str], ...] = ()
    otherwise: str | None = None
    present: str | None = None

    def written_on(self, created: str | None) -> bool:
        return not self.on or created is None or created in self.on


@dataclass(frozen=True)
class PodFacts:
    """The labels and annotations on the pods. ``exhaustive``: they are every key the controllers write
    (beyond the pod template's own); ``domains``: key prefixes the controllers own."""

    source: str
    gang: bool = False
    exhaustive: bool = False
    domains: tuple[str, ...] = ()
    labels: dict[str, WrittenLabel] = field(default_factory=dict)
    annotations: dict[str, WrittenLabel] = field(default_factory=dict)

    def in_domain(self, key: str) -> bool:
        return any(key.startswith(prefix) for prefix in self.domains)


@dataclass(frozen=True)
class WrittenCondition:
    """A condition type the controllers set on the workload's status, with the reasons they give it."""

    type: str
    source: str
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class WrittenPhase:
    """A status field the controllers write a phase into, and its values (all of them when ``exhaustive``)."""

    path: str
    values: tuple[str, ...]
    source: str
    exhaustive: bool = True


@dataclass(frozen=True)
class StatusFacts:
    """What the controller writes into status. ``exhaustive``: the conditions are every type it sets."""

    source: str
    completes: bool = False
    fails: bool = True
    exhaustive: bool = True
    conditions: dict[str, WrittenCondition] = field(default_factory=dict)
    exclusive: tuple[tuple[str, str], ...] = ()
    phases: dict[str, WrittenPhase] = field(default_factory=dict)


@dataclass(frozen=True)
class SuspendSwitch:
    """How the workload suspends: the JSON ``suspend`` value written at ``path`` suspends, ``resume`` resumes.
    ``supported`` False: the kind has no suspend switch."""

    source: str
    supported: bool = True
    path: str | None = None
    suspend: str | None = None
    resume: str | None = None


@dataclass(frozen=True)
class IntegerField:
    """An integer field of the spec: a replica count (``is_count``) or what else it is (``what``)."""

    path: str  # .spec.a[].b: lists written with []
    is_count: bool
    source: str
    what: str = "replica-count"


@dataclass(frozen=True)
class Assumption:
    source: str
    note: str  # jq program over the manifest yielding the sentence to show


@dataclass(frozen=True)
class KindModel:
    """The model of one kind for the versions ``versions``; ``file`` is the model file it comes from."""

    group: str
    kind: str
    versions: tuple[str, ...]
    source: str
    framework: str = ""
    repository: str = ""
    release: str = ""
    file: str = ""
    creates: tuple[CreatedObject, ...] = ()
    pods: PodFacts | None = None
    status: StatusFacts | None = None
    suspend: SuspendSwitch | None = None
    fields: tuple[IntegerField, ...] = ()
    assumptions: tuple[Assumption, ...] = ()

    def gvk(self, version: str | None = None) -> str:
        v = version or self.versions[0]
        return f"{self.group}/{v}/{self.kind}" if self.group else f"{v}/{self.kind}"

    @property
    def where(self) -> str:
        """The model file and the release its facts were checked against, for a message's source."""
        release = f" {self.repository}@{self.release}" if self.repository and self.release else ""
        return f"{self.file}{release}" if self.file else release.strip()

    def created(self, name: str) -> CreatedObject | None:
        return next((c for c in self.creates if c.name == name), None)

    def created_kinds(self) -> set[tuple[str, str]]:
        """(group, kind) of every object the controllers create."""
        return {c.group_kind for c in self.creates}

    def pods_created(self) -> tuple[CreatedObject, ...]:
        return tuple(c for c in self.creates if c.is_pod)

    def pod_labels(self, created: str | None = None) -> dict[str, WrittenLabel]:
        """The labels written on the pods of the created object ``created`` (every pod when None)."""
        if self.pods is None:
            return {}
        return {k: v for k, v in self.pods.labels.items() if v.written_on(created)}

    def label(self, key: str) -> WrittenLabel | None:
        return self.pods.labels.get(key) if self.pods else None

    def labels_with_role(self, *roles: str) -> list[WrittenLabel]:
        return [label for label in self.pod_labels().values() if label.role in roles]

    def condition(self, ctype: str) -> WrittenCondition | None:
        return self.status.conditions.get(ctype) if self.status else None

    def condition_types(self) -> tuple[str, ...]:
        return tuple(self.status.conditions) if self.status else ()

    def phase(self, path: str) -> WrittenPhase | None:
        from wmaplint.controllers.paths import normalise_path

        return self.status.phases.get(normalise_path(path)) if self.status else None

    def integer_field(self, path: str) -> IntegerField | None:
        from wmaplint.controllers.paths import field_path

        key = field_path(path)
        return next((f for f in self.fields if f.path == key), None) if key else None

    def replica_count_fields(self) -> tuple[IntegerField, ...]:
        return tuple(f for f in self.fields if f.is_count)


@dataclass(frozen=True)
class Model:
    """Every kind's model, with the files it was read from (shipped first, then a project's)."""

    kinds: tuple[KindModel, ...]
    files: tuple[str, ...] = ()

    def model_for(self, group: str, kind: str, version: str) -> KindModel | None:
        """The model of the kind at that version, else None."""
        return next((k for k in self.kinds
                     if k.group == group and k.kind == kind and version in k.versions), None)

    def closest(self, group: str, kind: str, version: str) -> KindModel | None:
        """The model at that version, else that of another version of the kind (one controller serves
        them all)."""
        found = self.model_for(group, kind, version)
        return found or next((k for k in self.kinds if k.group == group and k.kind == kind), None)

    def gvks(self) -> list[str]:
        return [k.gvk(v) for k in self.kinds for v in k.versions]


def closest_name(name: str, known: list[str] | tuple[str, ...]) -> str | None:
    """The known name that ``name`` most likely means: the same but for case, else the closest spelling."""
    lowered = {k.lower(): k for k in known}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return close[0] if close else None
