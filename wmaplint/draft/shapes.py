"""Where a workload kind keeps its pods, recognised from the structure of its schema.

A pod-bearing location (a *site*) has one of three shapes, told apart by structure, not by names:

- a pod template: an object whose ``spec`` is a pod spec (``metadata`` + ``spec``, a PodTemplateSpec);
- a pod spec: an object with ``containers``; when it also has members shaped like a single container (a
  KServe predictor's model), its pod is drafted from fragments;
- flattened pod fields: an object with a ResourceRequirements-shaped ``resources`` member and a replica
  count beside it (Milvus components, a NIMService, a Dynamo service), drafted from fragments.

The walk starts at the root, leaves ``metadata`` and ``status`` alone, enters lists and maps as iterations
(one instance per entry) and stops at a site. Locations in lists of patches or overrides are not pods of
their own; sites below two iterations (a list inside a list) are reported, not drafted.
"""

from __future__ import annotations

import re
from typing import TypeGuard

from wmaplint.dataclass import dataclass, field
from wmaplint.schema.shapes import shape_ok
from wmaplint.schema.types import ANY_KIND, ARRAY, BOOLEAN, INTEGER, NUMBER, OBJECT, STRING, SchemaType

TEMPLATE, POD_SPEC, FRAGMENTS = "template", "pod-spec", "fragments"
# iteration steps in a location (property names of that spelling are skipped)
EACH_LIST, EACH_MAP = "[]", "{}"
ITERATIONS = (EACH_LIST, EACH_MAP)
MAX_DEPTH = 16  # deeper than any pod template sits in a real CRD; bounds the walk of recursive schemas
MAX_VISITS = 200_000  # objects looked at in one schema: far more than real CRDs have, bounds hostile ones

Location = tuple[str, ...]

# Integer members that count pods or replicas beside a template (Kueue's podSets say `count`, TrainJob
# `numNodes`); minimum and maximum as elastic and autoscaled kinds write them.
REPLICA_NAMES = ("replicas", "numNodes", "numReplicas", "count")
MIN_NAMES = ("minReplicas", "minCount", "minAvailable")
MAX_NAMES = ("maxReplicas",)
# Other integers beside a template that may multiply its pods (a LeaderWorkerSet's `size`, Ray's
# `numOfHosts`): named in the draft's comments, never multiplied in.
_MAYBE_MULTIPLIER = re.compile(r"(size|count|parallelism)\Z|num(Of)?[A-Z]|(Size|Count|Hosts|Nodes)\Z")
# Members holding changes to objects defined elsewhere, not pods of their own (a TrainJob's runtimePatches).
_NOT_PODS = re.compile(r"patch|override", re.IGNORECASE)
_ROOT_SKIPPED = frozenset({"apiVersion", "kind", "metadata", "status"})


@dataclass(frozen=True)
class PathObject:
    """An object on the way from the root to a site: its location, type, and whether it always exists (its
    parent requires it, or it is an entry of a list or map)."""

    location: Location
    type: SchemaType
    always: bool


@dataclass
class Site:
    """A pod-bearing location. ``levels`` run from the root to the site itself; ``job`` is the index of the
    Job spec holding a template (a JobSet's or CronJob's); ``fragments`` map fragment fields to their
    locations, alternatives first to last (``// ``); ``metadata`` is a pod spec's labels holder; ``defaults``
    the object whose members the fragments fall back to (Milvus' ``.spec.components``)."""

    shape: str
    levels: tuple[PathObject, ...]
    job: int | None = None
    fragments: dict[str, tuple[Location, ...]] = field(default_factory=dict)
    metadata: Location | None = None
    defaults: PathObject | None = None

    @property
    def location(self) -> Location:
        return self.levels[-1].location

    @property
    def iteration(self) -> int | None:
        """Index in ``location`` of the iteration step, when the site is one per entry of a list or map."""
        steps = [i for i, step in enumerate(self.location) if step in ITERATIONS]
        return steps[0] if steps else None

    def entry(self) -> PathObject | None:
        """The list or map entry the site belongs to."""
        index = self.iteration
        if index is None:
            return None
        return next(level for level in self.levels if len(level.location) == index + 1)


@dataclass
class Recognition:
    """Every site of a kind, and the locations passed by with the reason. ``barren``: type id -> the depth
    left when it was walked without finding anything (shared subtrees of a schema are walked once)."""

    sites: list[Site] = field(default_factory=list)
    skipped: list[tuple[Location, str]] = field(default_factory=list)
    barren: dict[int, int] = field(default_factory=dict)
    visits: int = 0


# -- shapes of single types ----------------------------------------------------------------------------------

def closed(t: SchemaType | None) -> TypeGuard[SchemaType]:
    """An object whose members are declared: only such types say anything about shape."""
    return t is not None and t.kind == OBJECT and bool(t.properties)


def is_pod_spec(t: SchemaType | None) -> bool:
    return closed(t) and shape_ok("pod-spec", t) and _member_kind(t, "containers") == ARRAY


def is_pod_template(t: SchemaType | None) -> bool:
    return closed(t) and "spec" in t.properties and is_pod_spec(t.properties["spec"].type)


def is_container(t: SchemaType | None) -> bool:
    return closed(t) and shape_ok("container", t)


def fits(shape: str, t: SchemaType | None) -> bool:
    """``t`` is declared and has the shape a definition field needs (``wmaplint.definition.fields``)."""
    if t is None or t.kind == ANY_KIND:
        return False
    if t.kind == OBJECT and not t.properties and t.additional is None:
        return False
    return shape_ok(shape, t)


def open_object(t: SchemaType) -> bool:
    """Members not declared: whatever a path reads there, `check` accepts."""
    return t.kind == OBJECT and not t.properties and t.preserve_unknown


def _member_kind(t: SchemaType, name: str) -> str | None:
    prop = t.properties.get(name)
    return prop.type.kind if prop is not None else None


def integer(t: SchemaType | None) -> bool:
    return t is not None and bool(t.kinds() & {INTEGER, NUMBER}) and t.kind != ANY_KIND


def is_job_spec(t: SchemaType) -> bool:
    """A batch/v1 JobSpec: its pods are ``parallelism`` at a time, never more than ``completions``."""
    return (closed(t) and is_pod_template(_member(t, "template")) and integer(_member(t, "parallelism"))
            and integer(_member(t, "completions")))


def _member(t: SchemaType, name: str) -> SchemaType | None:
    prop = t.properties.get(name)
    return prop.type if prop is not None else None


def count_members(t: SchemaType) -> dict[str, str]:
    """``{"replicas"|"min"|"max": member name}`` of the replica counts an object declares."""
    found: dict[str, str] = {}
    for role, names in (("replicas", REPLICA_NAMES), ("min", MIN_NAMES), ("max", MAX_NAMES)):
        name = next((n for n in names if integer(_member(t, n))), None)
        if name is not None:
            found[role] = name
    return found


def other_multipliers(t: SchemaType, used: set[str]) -> list[str]:
    """Integer members of ``t`` whose names suggest they multiply pods, other than ``used``."""
    return [n for n, p in t.properties.items()
            if n not in used and integer(p.type) and _MAYBE_MULTIPLIER.match(n)]


def _resources_member(t: SchemaType) -> str | None:
    names = sorted((n for n in t.properties if n.startswith("resources")),
                   key=lambda n: (n != "resources", n))
    return next((n for n in names if fits("resource-requirements", t.properties[n].type)), None)


def _pod_fields(t: SchemaType) -> bool:
    """Pod fields spread over the object itself: resources of a pod, not of one container."""
    return closed(t) and _resources_member(t) is not None and not is_container(t)


def _flattened(t: SchemaType) -> bool:
    """The pod fields of pods of their own: beside a replica count."""
    return _pod_fields(t) and "replicas" in count_members(t)


# -- the walk ------------------------------------------------------------------------------------------------

def recognise(root: SchemaType) -> Recognition:
    """The sites of a kind whose schema is ``root``."""
    found = Recognition()
    _walk(root, (PathObject((), root, True),), found, set())
    for site in list(found.sites):
        if sum(step in ITERATIONS for step in site.location) > 1:
            found.sites.remove(site)
            found.skipped.append((site.location, "inside a list or map within another: one instance per "
                                  "entry of both cannot be drafted"))
    return found


def _walk(t: SchemaType, levels: tuple[PathObject, ...], found: Recognition, seen: set[int]) -> None:
    here = levels[-1]
    left = MAX_DEPTH - len(here.location)
    if left < 0 or id(t) in seen or found.barren.get(id(t), -1) >= left:
        return
    found.visits += 1
    if found.visits > MAX_VISITS:
        if found.visits == MAX_VISITS + 1:
            found.skipped.append((here.location, "the schema is too large to look at whole; what lies beyond "
                                  "here is not drafted"))
        return
    before = (len(found.sites), len(found.skipped))
    _look(t, levels, found, seen)
    if (len(found.sites), len(found.skipped)) == before:
        found.barren[id(t)] = left


def _look(t: SchemaType, levels: tuple[PathObject, ...], found: Recognition, seen: set[int]) -> None:
    here = levels[-1]
    if t.kind == ARRAY:
        if t.items is not None and t.items.kind in (OBJECT, ARRAY):
            _enter(t.items, (*here.location, EACH_LIST), True, levels[:-1], found, seen | {id(t)})
        return
    if t.kind != OBJECT:
        return
    if not t.properties:
        if t.additional is not None and t.additional.kind in (OBJECT, ARRAY):
            _enter(t.additional, (*here.location, EACH_MAP), True, levels[:-1], found, seen | {id(t)})
        return
    site = _site(t, levels)
    if site is not None:
        found.sites.append(site)
        return
    before = len(found.sites)
    for name, prop in t.properties.items():
        if name in ITERATIONS or (not here.location and name in _ROOT_SKIPPED):
            continue
        if _NOT_PODS.search(name):
            if holds_pods(prop.type):
                found.skipped.append(((*here.location, name), "changes to objects defined elsewhere, not "
                                      "pods of their own"))
            continue
        _enter(prop.type, (*here.location, name), name in t.required, levels, found, seen | {id(t)})
    if len(found.sites) == before and _flattened(t):
        found.sites.append(_fragment_site(t, levels))
    elif len(found.sites) > before and _pod_fields(t):  # values shared by the pod-bearing objects below
            for below in found.sites[before:]:
                if below.shape == FRAGMENTS and below.defaults is None:
                    below.defaults = here


def _enter(t: SchemaType, location: Location, always: bool, levels: tuple[PathObject, ...],
           found: Recognition, seen: set[int]) -> None:
    _walk(t, (*levels, PathObject(location, t, always)), found, seen)


def holds_pods(t: SchemaType) -> bool:
    """Whether a type holds a site anywhere below it."""
    probe = Recognition()
    _walk(t, (PathObject(("probe",), t, True),), probe, set())
    return bool(probe.sites)


def _site(t: SchemaType, levels: tuple[PathObject, ...]) -> Site | None:
    if is_pod_template(t):
        holder = levels[-2].type if len(levels) > 1 else None
        job = len(levels) - 2 if holder is not None and is_job_spec(holder) else None
        return Site(TEMPLATE, levels, job=job)
    if is_pod_spec(t):
        singles = [n for n, p in t.properties.items() if n != "containers" and is_container(p.type)]
        if singles:
            return _pod_spec_fragments(t, levels, singles)
        return Site(POD_SPEC, levels, metadata=_metadata(levels))
    if _flattened(t) and any(is_pod_spec(p.type) for p in t.properties.values()):
        return _fragment_site(t, levels)
    return None


def _metadata(levels: tuple[PathObject, ...]) -> Location | None:
    """Where the labels of a pod spec's pods are: a metadata member beside it, else the spec itself or an
    object holding it within its entry, when that has labels."""
    if len(levels) > 1:
        for name, prop in levels[-2].type.properties.items():
            if "etadata" in name and fits("object-meta", prop.type) and "labels" in prop.type.properties:
                return (*levels[-2].location, name)
    for level in reversed(levels[-3:]):
        if not level.location:
            break
        if fits("string-map", _member(level.type, "labels")):
            return level.location
        if level.location[-1] in ITERATIONS:
            break
    return None


_SINGLE_FRAGMENTS = (
    ("imagePath", "string", ("image",)),
    ("labelsPath", "string-map", ("podLabels", "labels")),
    ("annotationsPath", "string-map", ("podAnnotations", "annotations")),
    ("schedulerNamePath", "string", ("schedulerName",)),
    ("priorityClassNamePath", "string", ("priorityClassName",)),
    ("resourceClaimsPath", "resource-claims", ("resourceClaims",)),
)


def _fragment_fields(t: SchemaType, at: Location) -> dict[str, tuple[Location, ...]]:
    """Fragment fields an object's own members fill."""
    out: dict[str, tuple[Location, ...]] = {}
    resources = _resources_member(t)
    if resources is not None:
        out["resourcesPath"] = ((*at, resources),)
    for field_name, shape, names in _SINGLE_FRAGMENTS:
        name = next((n for n in names if fits(shape, _member(t, n))), None)
        if name is not None:
            out[field_name] = ((*at, name),)
    affinity = _member(t, "affinity")
    if closed(affinity):
        for field_name, member in (("nodeAffinityPath", "nodeAffinity"), ("podAffinityPath", "podAffinity")):
            if fits("affinity", _member(affinity, member)):
                out[field_name] = ((*at, "affinity", member),)
    return out


def _fragment_site(t: SchemaType, levels: tuple[PathObject, ...]) -> Site:
    at = levels[-1].location
    fragments = _fragment_fields(t, at)
    for name, prop in t.properties.items():
        if not is_pod_spec(prop.type):
            continue
        # a pod spec of extras beside the object's own resources: its containers and scheduling fields
        spec = prop.type
        fragments.setdefault("containersPath", ((*at, name, "containers"),))
        singles = [n for n, p in spec.properties.items() if n != "containers" and is_container(p.type)]
        if singles:
            fragments.setdefault("containerPath", tuple((*at, name, n) for n in singles))
        for field_name, locations in _fragment_fields(spec, (*at, name)).items():
            if field_name not in ("resourcesPath", "labelsPath", "annotationsPath", "imagePath"):
                fragments.setdefault(field_name, locations)
        for meta_name, meta in t.properties.items():
            if "etadata" in meta_name and closed(meta.type):
                for field_name, locations in _fragment_fields(meta.type, (*at, meta_name)).items():
                    if field_name in ("labelsPath", "annotationsPath"):
                        fragments.setdefault(field_name, locations)
        break
    return Site(FRAGMENTS, levels, fragments=fragments)


def _pod_spec_fragments(t: SchemaType, levels: tuple[PathObject, ...], singles: list[str]) -> Site:
    at = levels[-1].location
    fragments = {k: v for k, v in _fragment_fields(t, at).items() if k != "resourcesPath"}
    fragments["containersPath"] = ((*at, "containers"),)
    fragments["containerPath"] = tuple((*at, n) for n in singles)
    return Site(FRAGMENTS, levels, fragments=fragments)


def boolean_member(t: SchemaType, name: str) -> bool:
    member = _member(t, name)
    return member is not None and BOOLEAN in member.kinds() and member.kind != ANY_KIND


def string_member(t: SchemaType | None, name: str) -> bool:
    if t is None or t.kind != OBJECT:
        return False
    member = _member(t, name)
    return member is not None and STRING in member.kinds() and member.kind != ANY_KIND


def type_at(root: SchemaType, location: Location) -> SchemaType | None:
    """The type at a location, None where the schema has nothing."""
    t: SchemaType | None = root
    for step in location:
        if t is None:
            return None
        if step == EACH_LIST:
            t = t.items if t.kind == ARRAY else None
        elif step == EACH_MAP:
            t = t.additional if t.kind == OBJECT else None
        else:
            t = t.member(step) if t.kind == OBJECT else None
        if t is not None and t.kind == ANY_KIND:
            return t
    return t
