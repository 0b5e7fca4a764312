"""What the controller model says a drafted component's controller creates: the pod object (``creates``) whose
template sits where the component's pods are, its pod count and, where the controller falls back to another
template, the template expression. The draft takes the count from the model, not from the schema, wherever
the model knows it: the pods a controller makes beyond what its schema says (multi-node replicas, groups of
a given size, scaling groups) are counted then.
"""

from __future__ import annotations

import re

from wmaplint.controllers import UNKNOWN, CreatedObject, KindModel
from wmaplint.dataclass import dataclass, replace
from wmaplint.draft.shapes import EACH_MAP, ITERATIONS, Location, PathObject, Site


@dataclass(frozen=True)
class ModelPods:
    created: CreatedObject
    locations: tuple[Location, ...]  # where its template sits, without iteration steps; alternatives in order

    @property
    def known(self) -> bool:
        return self.created.count != UNKNOWN

    @property
    def default_pod(self) -> bool:
        """The controller makes a pod of its own where the template is absent (an object the model builds)."""
        template = self.created.template or ""
        return "//" in template and any(_location(alt) is None for alt in template.split("//"))

    def template(self) -> str | None:
        """The template expression over the workload, when it falls back to another template."""
        created = self.created
        if created.template is None or "//" not in created.template or self.default_pod:
            return None
        return f"{created.each} | ({created.template})" if created.each else created.template

    def count(self, in_group: bool) -> str:
        """The pods of one instance (one entry of ``each``), over the workload; ``in_group``: the component
        is owned by a group component that carries ``groups``."""
        created = self.created
        groups = created.groups if created.groups and not in_group else None
        bound = ". as $workload | " if "$workload" in created.count or "$workload" in (groups or "") else ""
        if created.each:
            if groups:
                return f"{bound}({groups}) as $groups | {created.each} | $groups * ({created.count})"
            return f"{bound}{created.each} | ({created.count})"
        if groups:
            return f"{bound}({groups}) * ({created.count})"
        return f"{bound}{created.count}"


_PATH = re.compile(r"\s*(\.[A-Za-z_][A-Za-z0-9_]*(\[\]\??|\?)?)+\s*\Z")


def _location(text: str) -> Location | None:
    if not _PATH.match(text):
        return None
    return tuple(step for step in re.sub(r"\[\]|\?|\s", "", text).strip(".").split(".") if step)


def _locations(created: CreatedObject) -> tuple[Location, ...]:
    if created.template is None:
        return ()
    each: Location = ()
    if created.each:
        found = _location(created.each)
        if found is None:
            return ()
        each = found
    located = []
    for alternative in created.template.split("//"):
        found = _location(alternative)
        if found is not None:
            located.append((*each, *found))
    return tuple(located)


def model_pods(model: KindModel | None) -> list[ModelPods]:
    if model is None:
        return []
    return [ModelPods(c, _locations(c)) for c in model.pods_created()]


def plain(location: Location) -> Location:
    return tuple(step for step in location if step not in ITERATIONS)


def match(pods: list[ModelPods], site: Site, sites: int) -> ModelPods | None:
    """The model's pod object whose template is at ``site``; with one pod object and one site (``sites``),
    that one; None when none or several fit, or the model has entries where the site has none."""
    where = plain(site.location)
    found = [p for p in pods if p.locations[:1] == (where,)]  # its own template first, then a fallback
    if not found:
        found = [p for p in pods if where in p.locations]
    if not found and len(pods) == 1 and sites == 1:
        found = pods
    if len(found) != 1:
        return None
    one = found[0]
    if bool(one.created.each) != (site.iteration is not None):
        return None  # the count would not zip with the component's instances
    return one


def by_named_entry(sites: list[Site], pods: list[ModelPods]) -> list[Site]:
    """``sites`` with each site that is one per entry of a map split into one site per entry the controller
    model names: a controller that makes each part of its own (an MPIJob's Launcher and Worker, counted
    differently) is drafted as one component each, as it counts them. A site no pod object names stays."""
    split: list[Site] = []
    for site in sites:
        index = site.iteration
        named = _named_entries(site, index, pods) if index is not None else []
        if not named:
            split.append(site)
            continue
        assert index is not None
        for key in named:
            split.append(replace(site, levels=tuple(_at_entry(level, index, key) for level in site.levels)))
    return split


def _named_entries(site: Site, index: int, pods: list[ModelPods]) -> list[str]:
    where = site.location
    if where[index] != EACH_MAP:
        return []
    return [p.locations[0][index] for p in pods if not p.created.each and p.locations
            and len(p.locations[0]) == len(where) and p.locations[0][:index] == where[:index]
            and p.locations[0][index + 1:] == where[index + 1:]]


def _at_entry(level: PathObject, index: int, key: str) -> PathObject:
    location = level.location
    if len(location) <= index:
        return level
    # the named entry may be left out, where an entry of the map always exists once there
    always = level.always and len(location) != index + 1
    return PathObject((*location[:index], key, *location[index + 1:]), level.type, always)
