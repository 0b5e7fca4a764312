"""A definition drafted from the sites of a kind: components, scale, pod selectors, suspend and gangs.

Each site becomes a component (the root's own, when the kind is a single template at ``.spec.template`` or
a pod itself), one instance per entry when it sits in a list or map. Its replicas are the nearest replica
count beside it (a Job's parallelism, capped by completions, multiplies them); sites sharing one count
outside any list (a LeaderWorkerSet's groups, an LLMInferenceService's replicas) are owned by a logical
group component that carries it. Selectors and gang keys come from the pods' labels of the controller
model; what cannot be derived is left out with a comment saying what to add, never guessed where a rule
would reject it.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from wmaplint.dataclass import dataclass
from wmaplint.definition.fields import shape_of
from wmaplint.draft import jqtext
from wmaplint.draft.created import ModelPods, by_named_entry, model_pods
from wmaplint.draft.created import match as match_created
from wmaplint.draft.shapes import (
    EACH_LIST,
    EACH_MAP,
    FRAGMENTS,
    ITERATIONS,
    POD_SPEC,
    TEMPLATE,
    Location,
    PathObject,
    Site,
    boolean_member,
    count_members,
    fits,
    integer,
    open_object,
    other_multipliers,
    recognise,
    type_at,
)
from wmaplint.draft.status import draft_status
from wmaplint.draft.target import DraftError, DraftTarget
from wmaplint.draft.writer import Entry, Map, Seq, render
from wmaplint.schema.types import ANY_KIND, ARRAY, OBJECT, STRING, SchemaType

if TYPE_CHECKING:
    from wmaplint.controllers import Model, WrittenLabel

FRAGMENT_ORDER = ("containerPath", "containersPath", "resourcesPath", "imagePath", "labelsPath",
                  "annotationsPath", "nodeAffinityPath", "podAffinityPath", "schedulerNamePath",
                  "priorityClassNamePath", "resourceClaimsPath")
_GENERIC = frozenset({"spec", "template", "podTemplate", "podSpec", "templateSpec"})
_SUFFIXES = ("PodTemplate", "Templates", "Template", "PodSpec", "Specs", "Spec", "Groups", "Group")
_ROOT_SITES = ((), ("spec",), ("spec", "template"))
_SHAPE_WORDS = {TEMPLATE: "a pod template (PodTemplateSpec)", POD_SPEC: "a pod spec (PodSpec)",
                FRAGMENTS: "pod fields spread over the object (a fragmented pod spec)"}
PLACEHOLDER_LABEL = "<label naming the entry>"
# the fragments of a pod template's fields, for a pod the controller makes also without the template
_TEMPLATE_FRAGMENTS = (("containersPath", ("spec", "containers")), ("labelsPath", ("metadata", "labels")),
                       ("annotationsPath", ("metadata", "annotations")),
                       ("nodeAffinityPath", ("spec", "affinity", "nodeAffinity")),
                       ("podAffinityPath", ("spec", "affinity", "podAffinity")),
                       ("schedulerNamePath", ("spec", "schedulerName")),
                       ("priorityClassNamePath", ("spec", "priorityClassName")))
# the comments of a count read from the schema, which a count from the controller model replaces
_SCHEMA_COUNT_WORDS = ("a Job's pods", "one pod in each replica", "no replica count beside it",
                       "no replicas field")


@dataclass
class Draft:
    name: str
    text: str
    components: list[str]


@dataclass
class _Counts:
    level: PathObject
    members: dict[str, str]  # "replicas"|"min"|"max" -> member name


@dataclass
class _Component:
    name: str
    owner: str | None
    site: Site | None = None
    counts: _Counts | None = None
    group: bool = False  # a logical component carrying the count of the components it owns
    in_group: bool = False
    kind: dict[str, str] | None = None


def definition_name(group: str, version: str, kind: str) -> str:
    """The catalog's file and metadata.name convention: group with dashes (core), kind, version."""
    return f"{group.replace('.', '-') if group else 'core'}-{kind.lower()}-{version}"


class Composer:
    """The drafting of one kind: ``facts`` is what the controller model (the project's, at the release the
    CRD or the project names) says of it, or of another version of it (which ``notes`` then say)."""

    def __init__(self, target: DraftTarget, model: Model) -> None:
        self.target = target
        group, version, kind = target.gvk
        # the model of this very version: another version's counts may read fields this one lacks
        self.model = model.model_for(group, kind, version, release=target.release)
        self.facts = self.model or model.closest(group, kind, version)
        self.types = [target.type, *target.others]
        self.notes: list[str] = []
        self.facts_note = "the controller model"
        if self.facts is not None and self.model is None:
            other = self.facts.gvk()
            self.facts_note = f"the controller model, {other}"
            self.notes.append(f"pod labels and status: what the controller model says of {other}, assumed "
                              "for this version too")
        if self.facts is not None and self.facts.at_release is not None:
            self.notes.append(f"the controller model at {self.facts.framework or self.facts.repository} "
                              f"{self.facts.at_release}")
        self.pods = self.facts.pods if self.facts is not None else None
        self.model_pods = model_pods(self.model)
        self.recognition = recognise(target.type)
        declared = [s for s in self.recognition.sites if self.exists(s.location)]
        self.sites = by_named_entry(declared, self.model_pods)
        for site in self.recognition.sites:
            if site not in declared:
                self.recognition.skipped.append((site.location, "not declared by every schema source serving "
                                                 "the kind"))

    # -- what every source declares --------------------------------------------------------------------------

    def exists(self, location: Location, shape: str | None = None) -> bool:
        """The location is declared by every source serving the kind (a path `check` accepts), with the
        ``shape`` a definition field needs (``wmaplint.definition.fields``) where a source says."""
        for t in self.types:
            found = type_at(t, location)
            if found is None:
                return False
            if shape is None or found.kind == ANY_KIND or open_object(found):
                continue
            if not fits(shape, found):
                return False
        return True

    def _counts(self, site: Site) -> _Counts | None:
        """The nearest replica counts beside a site: in its own object (flattened pod fields, a pod spec
        with extras), the object holding it, or the one above, never beyond its list entry; beside the
        Job template for a Job's template."""
        last = len(site.levels) - 1
        start = site.job - 2 if site.job is not None else (last - 1 if site.shape == TEMPLATE else last)
        entry = site.entry()
        for index in (start, start - 1, start - 2)[: 2 if site.shape == TEMPLATE else 3]:
            if index <= 0:
                break
            level = site.levels[index]
            if entry is not None and len(level.location) < len(entry.location):
                break
            members = {role: name for role, name in count_members(level.type).items()
                       if self.exists((*level.location, name))}
            if members:
                return _Counts(level, members)
        return None

    # -- jq text ---------------------------------------------------------------------------------------------

    @staticmethod
    def _entry_location(site: Site | None) -> Location | None:
        entry = site.entry() if site is not None else None
        return entry.location if entry is not None else None

    def _autoscaled_minimum(self, counts: _Counts) -> Location | None:
        """The minReplicas of an autoscaling object beside a replica count that has no minimum of its own
        (an LLMInferenceService's ``scaling``): without the count, the autoscaler's minimum runs."""
        if "min" in counts.members:
            return None
        for name, prop in counts.level.type.properties.items():
            t = prop.type
            if t.kind == OBJECT and "minReplicas" in t.properties and \
                    integer(t.properties["minReplicas"].type) and \
                    self.exists((*counts.level.location, name, "minReplicas")):
                return (*counts.level.location, name, "minReplicas")
        return None

    def _count_term(self, counts: _Counts, role: str, entry: Location | None, with_default: bool) -> str:
        member = counts.members[role]
        location = (*counts.level.location, member)
        term = jqtext.relative(location, entry)
        minimum = self._autoscaled_minimum(counts) if role == "replicas" else None
        if minimum is not None:
            term = f"{term} // {jqtext.relative(minimum, entry)}"
        found = type_at(self.target.type, location)
        if found is not None and found.has_default and isinstance(found.default, int):
            return f"({jqtext.default(term, found.default)})"
        return f"({jqtext.default(term, 1)})" if with_default else term

    def _job_term(self, site: Site, entry: Location | None) -> str | None:
        if site.job is None:
            return None
        job = site.levels[site.job].location
        parallelism = jqtext.relative((*job, "parallelism"), entry)
        completions = jqtext.relative((*job, "completions"), entry)
        return f"([({parallelism} // 1), ({completions} // empty)] | min)"

    @staticmethod
    def _expression(terms: list[str], entry: Location | None) -> str:
        if entry is not None:
            collection = entry[:-1]
            return jqtext.per_entry(collection, terms)
        if len(terms) == 1:
            term = terms[0]
            return term[1:-1] if term.startswith("(") and jqtext.grouped(term) == term else term
        return jqtext.product(terms)

    # -- components ------------------------------------------------------------------------------------------

    def plan(self, sites: list[Site]) -> list[_Component]:
        group, version, kind = self.target.gvk
        root = _Component(kind.lower(), None, kind={"group": group, "version": version, "kind": kind})
        if len(sites) == 1 and sites[0].iteration is None and sites[0].location in _ROOT_SITES:
            root.site = sites[0]
            root.counts = self._counts(sites[0])
            return [root]
        planned = [root]
        taken = {root.name}
        shared: dict[Location, list[Site]] = {}
        counted: dict[int, _Counts | None] = {}
        for site in sites:
            counts = self._counts(site)
            counted[id(site)] = counts
            if counts is not None and site.iteration is None and counts.level.location != site.location:
                shared.setdefault(counts.level.location, []).append(site)
        groups: dict[int, _Component] = {}
        for location, members in shared.items():
            if len(members) < 2:
                continue
            name = self._unique(self._group_name(location), taken)
            component = _Component(name, root.name, counts=counted[id(members[0])], group=True)
            planned.append(component)
            for site in members:
                groups[id(site)] = component
        for site in sites:
            owner = groups.get(id(site))
            name = self._unique(self._site_name(site), taken, site)
            counts = None if owner is not None else counted[id(site)]
            component = _Component(name, owner.name if owner else root.name, site, counts,
                                   in_group=owner is not None, kind=self._kind(site))
            if owner is None:
                planned.append(component)
            else:  # after its group and the group's other members
                last = max(i for i, c in enumerate(planned) if c is owner or c.owner == owner.name)
                planned.insert(last + 1, component)
        return planned

    @staticmethod
    def _kind(site: Site) -> dict[str, str] | None:
        if site.job is not None and site.job >= 2:
            return {"group": "batch", "version": "v1", "kind": "Job"}
        return None

    @staticmethod
    def _words(location: Location) -> list[str]:
        return [step for step in location if step not in ITERATIONS]

    def _site_name(self, site: Site) -> str:
        steps = self._words(site.location)
        if site.job is not None:
            steps = self._words(site.levels[site.job - 1].location)  # the Job template names its pods
        named = [s for s in steps if s not in _GENERIC]
        if not named:
            return "main"
        word = _stem(named[-1])
        parts = jqtext.split(site.location)
        if parts is not None and parts[0] and parts[0][-1] in named:
            entry = _stem(parts[0][-1])
            entry = entry[:-1] if entry.endswith("s") else entry  # one component per entry: the singular
            return _slug(entry if parts[0][-1] == named[-1] else f"{entry}-{word}")
        return _slug(word)

    def _group_name(self, location: Location) -> str:
        named = [s for s in self._words(location) if s not in _GENERIC]
        return f"{_slug(named[-1])}-group" if named else "group"

    def _unique(self, name: str, taken: set[str], site: Site | None = None) -> str:
        candidate = name
        if candidate in taken and site is not None:
            named = [s for s in self._words(site.location) if s not in _GENERIC]
            if len(named) > 1:
                candidate = f"{_slug(named[-2])}-{name}"
        number = 2
        while candidate in taken:
            candidate = f"{name}-{number}"
            number += 1
        taken.add(candidate)
        return candidate

    # -- one component's fields ------------------------------------------------------------------------------

    def created(self, site: Site | None) -> ModelPods | None:
        """The controller model's pod object whose template is at ``site``."""
        return match_created(self.model_pods, site, len(self.sites)) if site is not None else None

    def spec_definition(self, site: Site) -> tuple[Map, list[str]]:
        spec = Map()
        comments = [f"{_SHAPE_WORDS[site.shape]} at {jqtext.shown(site.location)}"]
        created = self.created(site)
        fallback = created.template() if created is not None else None
        if site.shape == TEMPLATE and created is not None and fallback is not None:
            spec.add("podTemplateSpecPath", fallback)
            comments.append(f"the controller falls back to another template ({created.created.source})")
        elif site.shape == TEMPLATE and created is not None and created.default_pod:
            # a template path gives no pod where the template is absent; fields read one by one always do
            fragments = Map()
            for name, inside in _TEMPLATE_FRAGMENTS:
                location = (*site.location, *inside)
                if self.exists(location, shape_of(name)):
                    fragments.add(name, jqtext.path(location))
            spec.add("fragmentedPodSpecDefinition", fragments)
            comments.append("without it the controller runs a default pod of its own, so the pod is read "
                            f"field by field ({created.created.source})")
        elif site.shape == TEMPLATE:
            spec.add("podTemplateSpecPath", jqtext.path(site.location))
        elif site.shape == POD_SPEC:
            spec.add("podSpecPath", jqtext.path(site.location))
            if site.metadata is not None and self.exists(site.metadata, shape_of("metadataPath")):
                spec.add("metadataPath", jqtext.path(site.metadata), "the pods' labels and annotations")
        else:
            fragments = Map()
            for name in FRAGMENT_ORDER:
                locations = [loc for loc in site.fragments.get(name, ())
                             if self.exists(loc, shape_of(name))]
                if locations:
                    fragments.add(name, self._fragment(site, name, locations))
            spec.add("fragmentedPodSpecDefinition", fragments)
        return spec, comments

    def _fragment(self, site: Site, field_name: str, locations: list[Location]) -> str:
        if len(locations) > 1:
            base = site.location
            alternatives = " // ".join(jqtext.nav(loc[len(base):]) for loc in locations)
            return f"{jqtext.path(base)} | ({alternatives})"
        location = locations[0]
        text = jqtext.path(location)
        defaults = site.defaults
        if defaults is not None and site.iteration is None:
            shared = (*defaults.location, *location[len(site.location):])
            if shared != location and self.exists(shared, shape_of(field_name)):
                text = f"{text} // {jqtext.nav(shared)}"  # the value all components share
        return text

    def scale_definition(self, component: _Component) -> tuple[Map | None, list[str]]:
        site, counts = component.site, component.counts
        entry = self._entry_location(site)
        scale = Map()
        comments: list[str] = []
        terms: list[str] = []
        if counts is not None and "replicas" in counts.members:
            terms.append(self._count_term(counts, "replicas", entry, with_default=True))
            member = (*counts.level.location, counts.members["replicas"])
            found = type_at(self.target.type, member)
            if found is None or not found.has_default:
                comments.append(f"{counts.members['replicas']} has no default in the schema: 1 assumed when "
                                "it is not set")
            minimum = self._autoscaled_minimum(counts)
            if minimum is not None:
                comments.append(f"without {counts.members['replicas']}, the autoscaler's minimum "
                                f"({jqtext.shown(minimum)}) runs")
        job = self._job_term(site, entry) if site is not None else None
        if job is not None:
            terms.append(job)
            comments.append("a Job's pods: parallelism at a time (default 1), never more than completions")
        # pod fields of one of several parts the object may leave out (a Milvus component, a KServe
        # explainer): no pods without it; the only pod fields of a kind (a TrainJob's trainer) are defaults
        guard = site is not None and site.shape == FRAGMENTS and site.iteration is None \
            and not site.levels[-1].always and len(self.sites) > 1
        if guard and not terms:
            if counts is not None and "min" in counts.members:
                terms.append(self._count_term(counts, "min", entry, with_default=True))
                comments.append("no replicas field: the minimum runs")
            else:
                terms.append("1")
        if terms:
            text = self._expression(terms, entry)
            if guard:
                where = jqtext.nav(site.location)  # type: ignore[union-attr]  # a guard needs a site
                text = f"if {where} == null then 0 else {jqtext.grouped(text)} end"
                comments.append(f"no pods while {where} is not set")
            scale.add("replicasPath", text)
        elif counts is None and (component.group or site is not None):
            scale.add("replicasPath", "1")
            comments.append("one pod in each replica of the group" if component.in_group
                            else "no replica count beside it: one pod per instance")
        for role, field_name in (("min", "minReplicasPath"), ("max", "maxReplicasPath")):
            if counts is not None and role in counts.members:
                term = self._count_term(counts, role, entry, with_default=False)
                scale.add(field_name, self._expression([term], entry))
        created = self.created(site)
        if created is not None and component.in_group and not created.created.groups:
            created = None  # the model counts the group's replicas in: the group component carries them
        if created is not None and created.known:
            scale.entries = [e for e in scale.entries if e.key != "replicasPath"]
            scale.entries.insert(0, Entry("replicasPath", created.count(component.in_group)))
            comments = [c for c in comments
                        if not c.startswith(_SCHEMA_COUNT_WORDS) and "has no default in the schema" not in c]
            comments.append(f"pods a replica as the controller model counts them ({created.created.source})")
            return scale, comments
        if created is not None:
            comments.append("TODO: the controller model cannot tell how many pods the controller makes here: "
                            "check replicasPath against it")
        extra = self._multipliers(component)
        if extra:
            comments.append(f"also beside it: {', '.join(extra)}; if that multiplies the pods, multiply "
                            "replicasPath by it")
        return (scale if scale.entries else None), comments

    @staticmethod
    def _multipliers(component: _Component) -> list[str]:
        """Integers beside a component's count or its pods' holder that may multiply its pods."""
        levels: list[PathObject] = []
        if component.counts is not None:
            levels.append(component.counts.level)
        site = component.site
        if site is not None and len(site.levels) > 2 and site.shape == TEMPLATE and site.job is None:
            levels.append(site.levels[-2])
        used = set(component.counts.members.values()) if component.counts is not None else set()
        found: dict[str, None] = {}
        for level in levels:
            found.update(dict.fromkeys(other_multipliers(level.type, used)))
        return list(found)

    def instance_ids(self, site: Site) -> tuple[str, str] | None:
        """(instanceIdPath, what the ids are) of a site that is one per entry."""
        parts = jqtext.split(site.location)
        if parts is None:
            return None
        collection = parts[0]
        kind = site.location[len(collection)]
        entry = type_at(self.target.type, (*collection, kind))
        label = self.entry_label(collection)
        lower = label.lower if label is not None else False
        if kind == EACH_MAP:
            keys = "the map's keys" + (", lower-cased" if lower else "")
            return jqtext.ids(collection, kind, None, lower), keys
        key = self._entry_key(collection, entry)
        if key is None:
            return jqtext.ids(collection, kind, None, lower), "the entries' positions (they have no name)"
        return jqtext.ids(collection, kind, key, lower), f"the entries' {key}"

    def _entry_key(self, collection: Location, entry: SchemaType | None) -> str | None:
        listed = type_at(self.target.type, collection)
        keys = listed.list_map_keys if listed is not None and listed.kind == ARRAY else ()
        if len(keys) == 1 and self._string(entry, keys[0]):
            return keys[0]
        if entry is None or entry.kind != OBJECT:
            return None
        names = [n for n in entry.properties if n == "name" or n.endswith("Name")]
        for name in sorted(names, key=lambda n: (n != "name", n not in entry.required, n)):
            if self._string(entry, name) and (name == "name" or name in entry.required) \
                    and self.exists((*collection, EACH_LIST, name)):
                return name
        return None

    @staticmethod
    def _string(t: SchemaType | None, name: str) -> bool:
        if t is None or t.kind != OBJECT or name not in t.properties:
            return False
        member = t.properties[name].type
        return STRING in member.kinds() and member.kind != ANY_KIND

    # -- pod labels ------------------------------------------------------------------------------------------

    def with_role(self, *roles: str) -> list[WrittenLabel]:
        """The labels the controller writes on the kind's pods that identify one of ``roles``."""
        return self.facts.labels_with_role(*roles) if self.facts is not None else []

    def entry_label(self, collection: Location) -> WrittenLabel | None:
        where = jqtext.nav(collection)
        return next((label for label in self.with_role("entry") if label.of == where), None)

    def type_label(self, site: Site) -> WrittenLabel | None:
        found = self.type_match(site)
        return found[1] if found is not None else None

    def type_selector(self, site: Site) -> Map | None:
        best = self.type_match(site)
        if best is None:
            return None
        _, label, values = best
        if label.role == "entry":  # a site split at the entry its controller names (by_named_entry)
            return Map().add("keyPath", jqtext.label(label.key)).add("value", values[0])
        key = jqtext.label(label.key)
        selector = Map()
        if values == ["present"]:
            selector.add("keyPath", key)
        elif values == ["otherwise"]:
            others = " and ".join(f". != {json.dumps(v)}" for v, _ in label.values)
            selector.add("keyPath", f"{key} | select({others})")
        elif len(values) == 1:
            selector.add("keyPath", key).add("value", values[0])
        else:
            tests = " or ".join(f". == {json.dumps(v)}" for v in values)
            selector.add("keyPath", f"{key} | select({tests})")
        return selector

    def type_match(self, site: Site) -> tuple[int, WrittenLabel, list[str]] | None:
        """The component label whose location holds the site most closely, and the values its pods carry
        (``present``/``otherwise`` for those rules)."""
        if self.pods is None:
            return None
        named = self._named_entry(site)
        if named is not None:
            return named
        at = _segments(site.location)
        best: tuple[int, WrittenLabel, list[str]] | None = None
        for label in self.with_role("component"):
            matched = [(len(_segments_of(loc)), value) for value, loc in label.values if _within(at, loc)]
            if matched:
                depth = max(d for d, _ in matched)
                values = [v for d, v in matched if d == depth]
                if best is None or depth > best[0]:
                    best = (depth, label, values)
            for loc, rule in ((label.otherwise, "otherwise"), (label.present, "present")):
                depth = len(_segments_of(loc)) if loc is not None else -1
                if loc is not None and _within(at, loc) and (best is None or depth > best[0]):
                    best = (depth, label, [rule])
        return best

    def _named_entry(self, site: Site) -> tuple[int, WrittenLabel, list[str]] | None:
        """The entry label of a map the site is a named entry of (an MPIJob's Launcher), with the value its
        pods carry: the entry's key, lower-cased where the controller lowers it."""
        if self.pods is None or site.iteration is not None:
            return None
        for level in site.levels:
            if not level.location:
                continue
            label = self.entry_label(level.location[:-1])
            if label is not None and any(s is not site and s.location[:len(level.location) - 1]
                                         == level.location[:-1] for s in self.sites):
                key = level.location[-1]
                return len(level.location), label, [key.lower() if label.lower else key]
        return None

    def replica_label(self, counts: _Counts | None) -> WrittenLabel | None:
        if counts is None or "replicas" not in counts.members:
            return None
        where = jqtext.nav((*counts.level.location, counts.members["replicas"]))
        return next((label for label in self.with_role("replica") if label.of == where), None)

    # -- the whole definition --------------------------------------------------------------------------------

    def _holds_site(self, location: Location) -> bool:
        return any(site.location[: len(location)] == location for site in self.recognition.sites)

    def asked(self) -> str | None:
        """The replicas the root's spec asks for (jq), when it has a count ``.spec.replicas``."""
        location = ("spec", "replicas")
        found = type_at(self.target.type, location)
        if found is None or not integer(found) or not self.exists(location):
            return None
        default = found.default if found.has_default and isinstance(found.default, int) else 1
        return f"({jqtext.default(jqtext.path(location), default)})"

    def suspend_switch(self) -> str | None:
        """The path of the spec's suspend switch, when it has one."""
        actions = self.suspend()
        if actions is None:
            return None
        first = actions.get("suspendActions")
        switch = first.items[0].value if isinstance(first, Seq) else None
        return str(switch.get("path")) if isinstance(switch, Map) else None

    def suspend(self) -> Map | None:
        """Suspend and resume actions on a boolean ``suspend`` of the spec (shallowest first)."""
        spec = type_at(self.target.type, ("spec",))
        queue: list[tuple[Location, SchemaType]] = [(("spec",), spec)] if spec is not None else []
        while queue:
            location, t = queue.pop(0)
            if t.kind != OBJECT or len(location) > 3:
                continue
            if boolean_member(t, "suspend") and self.exists((*location, "suspend")):
                target = jqtext.nav((*location, "suspend"))
                return Map().add(
                    "suspendActions", Seq().add(Map(flow=True).add("path", target).add("value", "true"))
                ).add("resumeActions", Seq().add(Map(flow=True).add("path", target).add("value", "false")))
            # a switch inside an embedded workload's spec (a RayService's cluster) is that workload's
            queue.extend(((*location, name), p.type) for name, p in t.properties.items()
                         if not self._holds_site((*location, name)))
        return None


def _segments(location: Location) -> tuple[str, ...]:
    return tuple(step for step in location if step not in ITERATIONS)


def _segments_of(text: str) -> tuple[str, ...]:
    return tuple(part for part in text.lstrip(".").split(".") if part)


def _within(location: tuple[str, ...], text: str) -> bool:
    prefix = _segments_of(text)
    return location[: len(prefix)] == prefix


def _stem(word: str) -> str:
    """A member name without the words every pod-bearing member has (workerGroupSpecs: worker)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            word = word[: -len(suffix)]
    return word


def _slug(word: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-") or "main"


# -- the document --------------------------------------------------------------------------------------------

def draft(target: DraftTarget, model: Model) -> Draft:
    """The drafted definition of ``target``'s kind, from ``model`` (the project's controller model);
    raises DraftError when its schema has no pods."""
    composer = Composer(target, model)
    if not composer.sites:
        raise DraftError(f"{target.source}: {target.label} has no pod template, pod spec or pod fields with "
                         "a replica count in its schema; there is nothing to draft")
    components = composer.plan(composer.sites)
    group, version, kind = target.gvk
    name = definition_name(group, version, kind)
    leaves = [c for c in components if c.site is not None]
    bodies = [_component(composer, c, components, len(leaves) > 1) for c in components]
    structure = Map().add("rootComponent", bodies[0])
    if len(bodies) > 1:
        children = Seq()
        for component, body in zip(components[1:], bodies[1:], strict=True):
            children.add(body, *_component_comments(component))
        structure.add("childComponents", children)
    spec = Map().add("structureDefinition", structure)
    instructions, note = _gang(composer, components)
    spec.add("optimizationInstructions", instructions, note)
    document = Map().add("apiVersion", "run.ai/v1alpha1").add("kind", "Karta")
    document.add("metadata", Map(flow=True).add("name", name)).add("spec", spec)
    header = [
        f"{target.label}: drafted by `wmaplint new` from {target.source}.",
        "Review every comment marked guess or TODO, then check it (`wmaplint check --strict`) and resolve a",
        "real manifest with it (`wmaplint tree --definition THIS MANIFEST`).",
    ]
    header.extend(composer.notes)
    made = composer.model
    if made is not None and any(not p.known for p in composer.model_pods):
        where = made.file or "schemas/controllers/"
        header.append(f"TODO: the controller model ({where}) does not say how many pods the controller "
                      "makes: every replicasPath below reads the schema alone; check it against the "
                      "controller")
    for location, reason in composer.recognition.skipped:
        header.append(f"not drafted: {jqtext.shown(location)}: {reason}")
    text = render(document, header)
    return Draft(name, text, [c.name for c in components])


def _component_comments(component: _Component) -> list[str]:
    if component.group:
        assert component.counts is not None
        where = jqtext.nav(component.counts.level.location)
        count = jqtext.nav((*component.counts.level.location, component.counts.members["replicas"]))
        return [f"a logical component with {count} replicas, each running the pods of the components it "
                f"owns (their templates are in {where})"]
    return []


def _component(composer: Composer, component: _Component, components: list[_Component], several: bool) -> Map:
    body = Map().add("name", component.name)
    if component.kind is not None:
        body.add("kind", Map(flow=True).add("group", component.kind["group"]).add(
            "version", component.kind["version"]).add("kind", component.kind["kind"]))
    if component.owner is not None:
        body.add("ownerRef", component.owner)
    site = component.site
    if component.owner is None:
        actions = composer.suspend()
        if actions is not None:
            body.add("suspendDefinition", actions, "the schema's suspend switch")
        status = draft_status(composer.types, composer.facts, composer.facts_note, actions is not None,
                              composer.asked(), composer.suspend_switch())
        body.add("statusDefinition", status.definition, *status.comments)
    ids = composer.instance_ids(site) if site is not None else None
    if ids is not None:
        body.add("instanceIdPath", ids[0], f"one instance per entry, identified by {ids[1]}")
    if site is not None:
        spec, comments = composer.spec_definition(site)
        body.add("specDefinition", spec, *comments)
    scale, comments = composer.scale_definition(component)
    if scale is not None:
        body.add("scaleDefinition", scale, *comments)
    selector, comments = _selector(composer, component, several, ids is not None)
    if selector is not None:
        body.add("podSelector", selector, *comments)
    elif comments:
        body.note(*comments)
    return body


def _selector(composer: Composer, component: _Component, several: bool,
              multi: bool) -> tuple[Map | None, list[str]]:
    site = component.site
    selector = Map()
    comments: list[str] = []
    source = "the controller model"
    if component.group:
        label = composer.replica_label(component.counts)
        if label is not None:
            selector.add("replicaSelector", Map().add("keyPath", jqtext.label(label.key)))
            comments.append(f"{label.key}: {label.value} ({source})")
    if site is not None and several:
        typed = composer.type_selector(site)
        if typed is not None:
            selector.add("componentTypeSelector", typed)
            label = composer.type_label(site)
            if label is not None:
                comments.append(f"{label.key}: {label.value} ({source})")
        else:
            comments.append("TODO: no pod label known to tell these pods from the others: add a podSelector "
                            "componentTypeSelector with the label the controller sets on them")
    if multi and site is not None:
        parts = jqtext.split(site.location)
        label = composer.entry_label(parts[0]) if parts is not None else None
        if label is not None:
            selector.add("componentInstanceSelector", Map().add("idPath", jqtext.label(label.key)))
            comments.append(f"{label.key}: {label.value} ({source})")
        else:
            selector.add("componentInstanceSelector", Map().add("idPath", jqtext.label(PLACEHOLDER_LABEL)))
            comments.append("TODO: no pod label known to carry the entry's id: replace the placeholder with "
                            "the label the controller sets to it (instanceIdPath requires this selector)")
    return (selector if selector.entries else None), comments


def _gang(composer: Composer, components: list[_Component]) -> tuple[Map, str]:
    labels = composer.pods
    kind = composer.target.gvk[2]
    if labels is None:
        return Map(), (f"TODO: nothing is known of {kind}'s pods: if they must start together, add "
                       "gangScheduling podGroups (the pods of one workload, grouped by a label they carry)")
    if not labels.gang:
        return Map(), (f"{kind} does not run its pods as one gang (the controller model): no gang "
                       "instructions")
    # KAI's Karta grouper sizes each pod's PodGroup by the subtree scale of the member it takes (of the pod's
    # own instance where the member is its component): members for the parts give the pods of one PodGroup
    # different min-available, and a key per group or replica asks each PodGroup for every group's pods
    # (kai-scheduler/KAI-Scheduler@d5bc503 pkg/podgrouper/podgrouper/plugins/karta/grouper.go). The root as
    # the one member sizes every pod's gang by the whole workload.
    keys = (composer.with_role("run") or composer.with_role("workload"))[:1]
    root = components[0]
    if not any(c.site is not None for c in components):
        return Map(), ""
    members = Seq().add(_member(root.name, keys), _gang_keys(keys))
    group_map = Map().add("name", root.name).add("members", members)
    why = [f"guess: the pods of a {kind} start together (the controller model)",
           "the root is the one member: KAI's Karta grouper gives each pod the subtree scale of the member "
           "it takes, so one member for the whole workload gives every pod of the gang one min-available"]
    return Map().add("gangScheduling", Map().add("podGroups", Seq().add(group_map, *why))), ""


def _gang_keys(keys: list[WrittenLabel]) -> str:
    if not keys:
        return "one gang per workload (the pods' owner)"
    return "one gang per " + " and ".join(f"{k.key} ({k.value})" for k in keys)


def _member(name: str, keys: list[WrittenLabel]) -> Map:
    member = Map().add("componentName", name)
    if keys:
        paths = Seq()
        for key in keys:
            paths.add(jqtext.label(key.key))
        member.add("groupByKeyPaths", paths)
    return member
