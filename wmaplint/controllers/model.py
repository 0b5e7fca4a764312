"""The typed controller model: what a kind's controllers do with a workload, one record a kind and version
range, each fact with its source. Built by :mod:`wmaplint.controllers.load` from ``schemas/controllers/``."""

from __future__ import annotations

from wmaplint.controllers.releases import ALWAYS, Releases, before
from wmaplint.dataclass import dataclass, field, replace
from wmaplint.spelling import closest

# What a label's value identifies. `attempt` is the older spelling of `run` (a project's pod labels files).
ROLES = ("workload", "run", "component", "entry", "replica", "revision", "other")
# What an integer field that is not a replica count is.
UNKNOWN = "unknown"  # a created object's count that the manifest does not decide


@dataclass(frozen=True)
class CreatedObject:
    """Objects the controller creates: ``count`` of them (jq over the entry, or ``unknown``) for each entry
    ``each`` yields (jq over the workload; the workload itself when None) and each of ``groups`` groups.
    ``owned``: False where they are made without an owner reference to the workload (a Helm release's
    objects): neither they nor their pods reach the workload through owners."""

    name: str
    kind: str  # group/version/kind, version/kind in the core group
    count: str
    source: str
    each: str | None = None
    groups: str | None = None
    template: str | None = None
    via: str | None = None
    releases: Releases = ALWAYS
    owned: bool = True

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
    releases: Releases = ALWAYS

    def written_on(self, created: str | None) -> bool:
        return not self.on or created is None or created in self.on


@dataclass(frozen=True)
class PodFacts:
    """The labels and annotations on the pods. ``exhaustive``: they are every key the controllers write
    (beyond the pod template's own); ``domains``: key prefixes the controllers own."""

    source: str
    gang: bool = False
    exhaustive: bool | None = None  # None: not said (not exhaustive, and a merge keeps what is under it)
    domains: tuple[str, ...] = ()
    labels: dict[str, WrittenLabel] = field(default_factory=dict)
    annotations: dict[str, WrittenLabel] = field(default_factory=dict)

    def in_domain(self, key: str) -> bool:
        return any(key.startswith(prefix) for prefix in self.domains)


@dataclass(frozen=True)
class WrittenCondition:
    """A condition type the controllers set on the workload's status, with the reasons they give it
    (``reason_releases``: the releases of the reasons that not every release gives)."""

    type: str
    source: str
    reasons: tuple[str, ...] = ()
    releases: Releases = ALWAYS
    reason_releases: tuple[tuple[str, Releases], ...] = ()


@dataclass(frozen=True)
class WrittenPhase:
    """A status field the controllers write a phase into, and its values (all of them when ``exhaustive``)."""

    path: str
    values: tuple[str, ...]
    source: str
    exhaustive: bool | None = None
    releases: Releases = ALWAYS
    value_releases: tuple[tuple[str, Releases], ...] = ()


@dataclass(frozen=True)
class StatusFacts:
    """What the controller writes into status. ``exhaustive``: the conditions are every type it sets;
    ``fails``: False when the controller has no failure state. None: not said (a merge keeps what is under
    it; alone, not exhaustive, not completing, able to fail)."""

    source: str
    completes: bool | None = None
    fails: bool | None = None
    exhaustive: bool | None = None
    conditions: dict[str, WrittenCondition] = field(default_factory=dict)
    exclusive: tuple[tuple[str, str], ...] = ()
    phases: dict[str, WrittenPhase] = field(default_factory=dict)

    def never_sets(self, ctype: str) -> bool:
        """Whether a condition of type ``ctype`` never exists: it is not among the types of an exhaustive
        list, or it is a near-miss of a known type (likely a misspelling) when the list is not the whole
        set."""
        if ctype in self.conditions:
            return False
        return self.exhaustive is True or closest(ctype, self.conditions) is not None

    def never_true_together(self, a: str, b: str) -> bool:
        return (a, b) in self.exclusive or (b, a) in self.exclusive


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
class Admitted:
    """What the API server's admission (the operator's defaulting and validating webhooks) ensures of every
    object it stores, at ``path`` (jq, the places a path of the spec reads): ``set`` (present wherever
    ``when`` says, so a default in a definition never applies there), or ``one-of`` (at most one of the
    keys ``of`` under the object at ``path`` is present)."""

    path: str
    holds: str  # "set" or "one-of"
    source: str
    of: tuple[str, ...] = ()
    when: str = ""


@dataclass(frozen=True)
class KindModel:
    """The model of one kind for the versions ``versions``; ``file`` is the model file it comes from.

    ``read``: the releases whose code the facts were read at, oldest first (``release`` the newest); a fact
    that not all of them have says in which it holds (``releases``). ``at_release``: the release this view
    is of (None: every release read, each fact present in any of them). ``release_labels`` and
    ``release_annotations``: the keys under which the operator writes on the workload the release that made
    it. ``creates_exhaustive``: ``creates``
    is every kind of object that runs pods the controllers make as the workload's own (``creates_source``
    says where that was read); objects made without an owner reference (``owned`` False) are listed where
    known."""

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
    admission: tuple[Admitted, ...] = ()
    creates_exhaustive: bool | None = None
    creates_source: str = ""
    read: tuple[str, ...] = ()
    release_labels: tuple[str, ...] = ()
    release_annotations: tuple[str, ...] = ()
    at_release: str | None = None

    def knows(self, release: str) -> bool:
        """Whether ``release`` lies within the releases read (from the oldest to the newest)."""
        if not self.read:
            return False
        return not before(release, self.read[0]) and not before(self.read[-1], release)

    def at(self, release: str | None, *, onward: bool = False) -> KindModel:
        """The model as the controllers of ``release`` behave: each fact that holds in it (``onward``: in it
        or any later release, for a workload that names the release of the operator that made it, which a
        later one may manage now). None (the release in use is not known): every fact of any release read,
        so that a fact's absence holds in all of them. A release outside those read: the same facts, none of
        its lists taken as whole (nothing is known of what that release writes, so nothing is reported from
        an absence)."""
        if release is None or (release == self.at_release and not onward):
            return self
        if not self.knows(release):
            return _unread(self, release)
        return _filtered(self, release, onward)

    def gvk(self, version: str | None = None) -> str:
        v = version or self.versions[0]
        return f"{self.group}/{v}/{self.kind}" if self.group else f"{v}/{self.kind}"

    @property
    def where(self) -> str:
        """The model file and the release its facts were checked against, for a message's source."""
        release = f" {self.repository}@{self.release}" if self.repository and self.release else ""
        return f"{self.file}{release}" if self.file else release.strip()

    def admitted(self, path: str) -> tuple[Admitted, ...]:
        """What admission ensures at ``path`` (written as the model writes it)."""
        return tuple(a for a in self.admission if a.path == path)

    def created(self, name: str) -> CreatedObject | None:
        return next((c for c in self.creates if c.name == name), None)

    def created_kinds(self) -> set[tuple[str, str]]:
        """(group, kind) of every object the controllers create as the workload's own (with an owner
        reference to it, or to an object so created)."""
        return {c.group_kind for c in self.creates if c.owned}

    def unowned_kinds(self) -> set[tuple[str, str]]:
        """(group, kind) of the objects the controllers make without an owner reference to the workload."""
        return {c.group_kind for c in self.creates if not c.owned}

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


def _unread(kind: KindModel, release: str) -> KindModel:
    pods = replace(kind.pods, exhaustive=False) if kind.pods is not None else None
    status = kind.status
    if status is not None:
        status = replace(status, exhaustive=False,
                         phases={k: replace(p, exhaustive=False) for k, p in status.phases.items()})
    return replace(kind, pods=pods, status=status, creates_exhaustive=False, at_release=release)


def _filtered(kind: KindModel, release: str, onward: bool) -> KindModel:
    def holds(releases: Releases) -> bool:
        return releases.holds_from(release) if onward else releases.holds_at(release)

    def kept(items: tuple[str, ...], ranges: tuple[tuple[str, Releases], ...]) -> tuple[str, ...]:
        ranged = dict(ranges)
        return tuple(i for i in items if i not in ranged or holds(ranged[i]))

    def holding(labels: dict[str, WrittenLabel]) -> dict[str, WrittenLabel]:
        return {k: v for k, v in labels.items() if holds(v.releases)}

    pods = kind.pods
    if pods is not None:
        pods = replace(pods, labels=holding(pods.labels), annotations=holding(pods.annotations))
    status = kind.status
    if status is not None:
        conditions = {t: replace(c, reasons=kept(c.reasons, c.reason_releases))
                      for t, c in status.conditions.items() if holds(c.releases)}
        phases = {k: replace(p, values=kept(p.values, p.value_releases))
                  for k, p in status.phases.items() if holds(p.releases)}
        status = replace(status, conditions=conditions, phases=phases)
    creates = tuple(c for c in kind.creates if holds(c.releases))
    return replace(kind, pods=pods, status=status, creates=creates,
                   at_release=f"{release} or later" if onward else release)


@dataclass(frozen=True)
class Model:
    """Every kind's model, with the files it was read from (shipped first, then a project's).

    ``pinned``: the release of each framework a project runs (configuration ``releases``: repository or
    framework name, then release), by which the model of its kinds is seen (``KindModel.at``)."""

    kinds: tuple[KindModel, ...]
    files: tuple[str, ...] = ()
    pinned: tuple[tuple[str, str], ...] = ()

    def _find(self, group: str, kind: str, version: str) -> KindModel | None:
        return next((k for k in self.kinds
                     if k.group == group and k.kind == kind and version in k.versions), None)

    def pinned_release(self, kind: KindModel) -> str | None:
        """The release of ``kind``'s operator the project pins (configuration ``releases``), by the
        repository of its model file (``ray-project/kuberay``), the repository's name (``kuberay``) or the
        framework's name (``KubeRay``), in any case."""
        repository = kind.repository.lower()
        names = {repository, repository.rpartition("/")[2], kind.framework.lower()} - {""}
        return next((release for name, release in self.pinned if name.lower() in names), None)

    def _seen(self, kind: KindModel, workload: object, release: str | None) -> KindModel:
        if release is not None:
            return kind.at(release)
        pinned = self.pinned_release(kind)
        if pinned is not None:
            return kind.at(pinned)
        made_by = made_by_release(kind, workload)
        return kind.at(made_by, onward=True)

    def model_for(self, group: str, kind: str, version: str, workload: object = None,
                  release: str | None = None) -> KindModel | None:
        """The model of the kind at that version, else None; seen at ``release``, else at the release the
        project pins, else from the release of the operator that made ``workload`` on (``made_by_release``),
        else over every release read."""
        found = self._find(group, kind, version)
        if found is None:
            return None
        if len(found.versions) > 1:  # the view of the one version asked for (its messages name it)
            found = replace(found, versions=(version,))
        return self._seen(found, workload, release)

    def closest(self, group: str, kind: str, version: str, workload: object = None) -> KindModel | None:
        """The model at that version, else that of another version of the kind (one controller serves
        them all)."""
        found = self.model_for(group, kind, version, workload)
        if found is not None:
            return found
        other = next((k for k in self.kinds if k.group == group and k.kind == kind), None)
        return self._seen(other, workload, None) if other is not None else None

    def of(self, api_version: str, kind: str, workload: object = None) -> KindModel | None:
        """The model of the kind of apiVersion ``api_version`` (``closest``), at the release in use."""
        group, _, version = api_version.rpartition("/")
        return self.closest(group, kind, version, workload)

    def for_object(self, workload: object) -> KindModel | None:
        """The model of the kind of a workload object (its apiVersion and kind), at the release its operator
        wrote on it or the project pins."""
        if not isinstance(workload, dict):
            return None
        api, kind = workload.get("apiVersion"), workload.get("kind")
        return self.of(api, kind, workload) if isinstance(api, str) and isinstance(kind, str) else None

    def gvks(self) -> list[str]:
        return [k.gvk(v) for k in self.kinds for v in k.versions]


def made_by_release(kind: KindModel, workload: object) -> str | None:
    """The release of the operator that made ``workload``, as it wrote it on the object (a label of
    ``kind.release_labels`` or an annotation of ``kind.release_annotations``); None when it wrote none."""
    metadata = workload.get("metadata") if isinstance(workload, dict) else None
    if not isinstance(metadata, dict):
        return None
    for field_name, keys in (("labels", kind.release_labels), ("annotations", kind.release_annotations)):
        found = metadata.get(field_name)
        for key in keys:
            value = found.get(key) if isinstance(found, dict) else None
            if isinstance(value, str) and value:
                return value
    return None


# Every data class a model is made of, in a fixed order (the compiled model stores an object as its class's
# number here and its fields' values)
MODEL_CLASSES: tuple[type, ...] = (Model, KindModel, CreatedObject, PodFacts, WrittenLabel, StatusFacts,
                                   WrittenCondition, WrittenPhase, SuspendSwitch, IntegerField, Assumption,
                                   Admitted, Releases)
