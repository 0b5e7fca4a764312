"""The definition format's fields: one table that the format's JSON Schema, the typed model and the analyses
read.

Each object of the format (``OBJECTS``) is named once; each field (``FIELDS``) says where it sits (the name
of its parent object), what it holds and, for a jq expression, how the runtime uses it: the object it is
evaluated against, its role, how many outputs it must yield, whether it is also written, and the shape its
value must reach. Adding a field to the format is one entry here; a test ties the schema, the model and the
analyses to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from wmaplint.dataclass import dataclass

KARTA = ("run.ai/v1alpha1", "Karta")
LEGACY = ("optimization.nvidia.com/v1alpha1", "ResourceInterface")

STATUS_KEYS = ("initializing", "running", "completed", "failed", "degraded", "suspended", "suspending",
               "resuming")

#: what a jq expression is evaluated against, by its context
CONTEXTS = {"root": "the root workload object", "pod": "a Pod"}
#: the same, as the editor explains it
CONTEXT_HINTS = {
    "root": "the root workload object (also on child components)",
    "pod": "a Pod (one of the component's pods)",
}

#: what a jq field is for
ROLES = ("spec", "scale", "instance-ids", "status-phase", "status-conditions", "by-expression", "suspend",
         "type-selector", "instance-selector", "replica-selector", "gang-key", "gang-filter")


@dataclass(frozen=True, slots=True, eq=False)
class FormatObject:
    """An object of the format. ``shared``: written once in the JSON Schema's ``$defs`` and referred to
    wherever it is used; ``closed``: keys outside its fields are unknown fields."""

    name: str
    description: str
    shared: bool = False
    closed: bool = True


@dataclass(frozen=True, slots=True, eq=False)
class JqUse:
    """How the runtime uses a jq field: the object it is evaluated against (``context``: ``root`` or
    ``pod``, see ``CONTEXTS``), what it is for (``role``, one of ``ROLES``), how many outputs it must yield
    (``cardinality``, one of ``wmaplint.jq.roles.CARDINALITIES``), whether it is also written through
    ``path(...)`` (``writable``), and the ``shape`` its value must reach (None: any value). A fragment of a
    pod spec says the ``pod_field`` of the pod template it stands for."""

    context: str
    role: str
    cardinality: str
    writable: bool = False
    shape: str | None = None
    pod_field: str | None = None


@dataclass(frozen=True, slots=True, eq=False)
class FormatField:
    """One field of the format.

    ``type``: ``string``, ``object``, ``array``, or ``map`` (string keys to string values). ``holds``: the
    object an object field holds, or that each entry of a list is; ``entry``: what each string of a list of
    strings is. ``values``: the only strings allowed; ``min_size``: the least length of a string, or entries
    of a list or a map; ``list_type`` and ``list_keys``: the Kubernetes list type (``set``, or ``map`` keyed
    by ``list_keys``) whose entries must be unique. ``jq``: how the runtime uses a jq expression (of a list
    of them: each entry). ``alias``: the name analyses know the field by where its key alone is ambiguous
    (the status and suspend ``path``).
    """

    parent: str
    key: str
    type: str
    description: str
    required: bool = False
    holds: str | None = None
    entry: str = ""
    values: tuple[str, ...] = ()
    default: str | None = None
    min_size: int = 0
    list_type: str | None = None
    list_keys: tuple[str, ...] = ()
    jq: JqUse | None = None
    alias: str | None = None

    @property
    def name(self) -> str:
        """The field's name: its key, or its alias where the key alone is ambiguous."""
        return self.alias or self.key


_OBJECT_LIST = (
    FormatObject("Definition", "Describes, for one Kubernetes workload kind, where its pod templates, "
                 "replica counts, status and gang-scheduling groups live, as jq expressions.", closed=False),
    FormatObject("Metadata", "Object metadata; name by convention <group-with-dashes>-<kind>-<version>.",
                 closed=False),
    FormatObject("Spec", "The definition."),
    FormatObject("StructureDefinition", "The component tree of the workload."),
    FormatObject("OptimizationInstructions", "Hints for schedulers and optimizers."),
    FormatObject("GangScheduling", "Gang-scheduling hints for schedulers."),
    FormatObject("PodGroup", "A gang."),
    FormatObject("GangMember", "A gang member."),
    FormatObject("PodGroupV2", "Gang grouping v2: one PodGroup with optional sub-groups and topology."),
    FormatObject("SubGroup", "A sub-group."),
    FormatObject("GroupVersionKind", "Group, version and kind of a Kubernetes object; the core group is "
                 "written as an empty string.", shared=True),
    FormatObject("SpecDefinition", "Where the pod template or pod spec of this component lives; use exactly "
                 "one of podTemplateSpecPath, podSpecPath and fragmentedPodSpecDefinition.", shared=True),
    FormatObject("FragmentedPodSpecDefinition", "Pod fields that the workload's CRD keeps flattened; "
                 "fragments are merged by instance index.", shared=True),
    FormatObject("ScaleDefinition", "Replica counts of this component, one value per instance (numbers or "
                 "numeric strings).", shared=True),
    FormatObject("StatusDefinition", "How to read the workload's status; only read on the root component.",
                 shared=True),
    FormatObject("PhaseDefinition", "Where the phase string lives."),
    FormatObject("ConditionsDefinition", "Where the conditions list lives and how its entries are shaped."),
    FormatObject("StatusMappings", "For each platform status, the matchers that select it: entries are ORed, "
                 "the fields of one entry are ANDed."),
    FormatObject("StatusMatcher", "One matcher; all fields set are ANDed. An empty matcher always matches.",
                 shared=True),
    FormatObject("ConditionMatcher", "A condition that must be present."),
    FormatObject("ByExpression", "A jq expression whose first output, as a string, must equal "
                 "expectedResult."),
    FormatObject("SuspendDefinition", "How to suspend and resume the workload by writing values at paths.",
                 shared=True),
    FormatObject("SuspendAction", "Write a JSON value at a path.", shared=True),
    FormatObject("PodSelector", "How running pods are attributed to this component, its instances and "
                 "replicas.", shared=True),
    FormatObject("ComponentTypeSelector", "Which pods belong to this component: keyPath exists (or equals "
                 "value), or all matchLabels match."),
    FormatObject("ComponentInstanceSelector", "Which instance a pod belongs to; goes with instanceIdPath."),
    FormatObject("ReplicaSelector", "Which replica (group index) a pod belongs to."),
    FormatObject("Component", "A component of the workload: the root object itself or a child (a sub-object "
                 "or a logical group).", shared=True),
    FormatObject("Topology", "Topology-aware scheduling constraint.", shared=True),
)
OBJECTS = {o.name: o for o in _OBJECT_LIST}

ROOT_OBJECT = "Definition"


def _holding(parent: str, key: str, name: str, *, required: bool = False) -> FormatField:
    """A field whose value is the object ``name`` (its description is the object's)."""
    return FormatField(parent, key, "object", OBJECTS[name].description, required=required, holds=name)


def _spec(key: str, description: str, shape: str, pod_field: str | None = None,
          parent: str = "FragmentedPodSpecDefinition") -> FormatField:
    """A path to the pods of a component (or, in a fragmented pod spec, to one of their fields)."""
    use = JqUse("root", "spec", "per-instance", writable=True, shape=shape, pod_field=pod_field)
    return FormatField(parent, key, "string", description, jq=use)


def _scale(key: str, description: str) -> FormatField:
    return FormatField("ScaleDefinition", key, "string", description,
                       jq=JqUse("root", "scale", "per-instance", shape="replicas"))


_BY_NAME = ("name",)
_BY_COMPONENT = ("componentName",)

FIELDS: tuple[FormatField, ...] = (
    # the document
    FormatField("Definition", "apiVersion", "string",
                "run.ai/v1alpha1 (legacy: optimization.nvidia.com/v1alpha1).", required=True,
                values=(KARTA[0], LEGACY[0])),
    FormatField("Definition", "kind", "string", "Karta (legacy: ResourceInterface).", required=True,
                values=(KARTA[1], LEGACY[1])),
    _holding("Definition", "metadata", "Metadata"),
    _holding("Definition", "spec", "Spec", required=True),
    FormatField("Definition", "status", "object", "Written by the operator; not part of a definition."),
    FormatField("Metadata", "name", "string", "Definition name."),
    _holding("Spec", "structureDefinition", "StructureDefinition", required=True),
    _holding("Spec", "optimizationInstructions", "OptimizationInstructions"),
    # the component tree
    _holding("StructureDefinition", "rootComponent", "Component", required=True),
    FormatField("StructureDefinition", "childComponents", "array", "Child components; each names its parent "
                "in ownerRef.", holds="Component", list_type="map", list_keys=_BY_NAME),
    FormatField("StructureDefinition", "additionalChildKinds", "array", "Other kinds the workload creates "
                "that are not modelled as components.", holds="GroupVersionKind", list_type="map",
                list_keys=("kind",)),
    FormatField("Component", "name", "string", "Unique name of the component.", required=True),
    _holding("Component", "kind", "GroupVersionKind"),
    FormatField("Component", "ownerRef", "string", "Name of the parent component (children only)."),
    _holding("Component", "specDefinition", "SpecDefinition"),
    _holding("Component", "scaleDefinition", "ScaleDefinition"),
    _holding("Component", "statusDefinition", "StatusDefinition"),
    _holding("Component", "suspendDefinition", "SuspendDefinition"),
    FormatField("Component", "instanceIdPath", "string", "Yields one id per instance of a multi-instance "
                "component", jq=JqUse("root", "instance-ids", "instance-ids", shape="instance-id")),
    _holding("Component", "podSelector", "PodSelector"),
    FormatField("GroupVersionKind", "group", "string", 'API group, "" for the core group.', required=True),
    FormatField("GroupVersionKind", "version", "string", "API version, for example v1 or v1alpha2.",
                required=True),
    FormatField("GroupVersionKind", "kind", "string", "Kind, for example JobSet.", required=True),
    # pods
    _spec("podTemplateSpecPath", "Yields PodTemplateSpec objects ({metadata, spec}), one per instance",
          "pod-template-spec", parent="SpecDefinition"),
    _spec("podSpecPath", "Yields PodSpec objects, one per instance", "pod-spec", parent="SpecDefinition"),
    _spec("metadataPath", "Yields the pod metadata kept apart from the PodSpec; goes with podSpecPath",
          "object-meta", parent="SpecDefinition"),
    _holding("SpecDefinition", "fragmentedPodSpecDefinition", "FragmentedPodSpecDefinition"),
    _spec("schedulerNamePath", "Yields the scheduler name", "string", "spec.schedulerName"),
    _spec("labelsPath", "Yields the pod labels (string map)", "string-map", "metadata.labels"),
    _spec("annotationsPath", "Yields the pod annotations (string map)", "string-map", "metadata.annotations"),
    _spec("resourcesPath", "Yields a ResourceRequirements object", "resource-requirements",
          "spec.containers[].resources"),
    _spec("resourceClaimsPath", "Yields the pod's resource claims (DRA)", "resource-claims",
          "spec.resourceClaims"),
    _spec("podAffinityPath", "Yields a PodAffinity object", "affinity", "spec.affinity.podAffinity"),
    _spec("nodeAffinityPath", "Yields a NodeAffinity object", "affinity", "spec.affinity.nodeAffinity"),
    _spec("containersPath", "Yields a list of Containers", "containers", "spec.containers"),
    _spec("containerPath", "Yields a single Container", "container", "spec.containers[]"),
    _spec("priorityClassNamePath", "Yields the priority class name", "string", "spec.priorityClassName"),
    _spec("imagePath", "Yields the container image", "string", "spec.containers[].image"),
    _scale("replicasPath", "Current or desired replicas"),
    _scale("minReplicasPath", "Minimum replicas (autoscaling, elastic training)"),
    _scale("maxReplicasPath", "Maximum replicas"),
    # status
    _holding("StatusDefinition", "phaseDefinition", "PhaseDefinition"),
    _holding("StatusDefinition", "conditionsDefinition", "ConditionsDefinition"),
    _holding("StatusDefinition", "statusMappings", "StatusMappings", required=True),
    FormatField("PhaseDefinition", "path", "string", "Yields the phase; the first output is used",
                required=True, jq=JqUse("root", "status-phase", "first", shape="phase"), alias="phasePath"),
    FormatField("ConditionsDefinition", "path", "string", "Yields arrays of condition objects", required=True,
                jq=JqUse("root", "status-conditions", "stream", shape="conditions"), alias="conditionsPath"),
    FormatField("ConditionsDefinition", "typeFieldName", "string", "Key of the condition type.",
                default="type"),
    FormatField("ConditionsDefinition", "statusFieldName", "string", "Key of the condition status.",
                default="status"),
    FormatField("ConditionsDefinition", "messageFieldName", "string", "Key of the condition message.",
                default="message"),
    FormatField("ConditionsDefinition", "reasonFieldName", "string", "Key of the condition reason; reason "
                "matchers need it.", default="reason"),
    *(FormatField("StatusMappings", key, "array", f"Matchers for the {key} status.", holds="StatusMatcher")
      for key in STATUS_KEYS),
    FormatField("StatusMatcher", "byPhase", "string", "Equals the phase (first output of "
                "phaseDefinition.path)."),
    FormatField("StatusMatcher", "byConditions", "array", "Conditions that must all be present with the "
                "given status and reason.", holds="ConditionMatcher"),
    _holding("StatusMatcher", "byExpression", "ByExpression"),
    FormatField("ConditionMatcher", "type", "string", "Condition type.", required=True),
    FormatField("ConditionMatcher", "status", "string", "Condition status: True, False or Unknown."),
    FormatField("ConditionMatcher", "reason", "string", "Condition reason; needs reasonFieldName."),
    FormatField("ByExpression", "expression", "string", "Evaluated as (<expression>) | tostring; the first "
                "output is compared", required=True,
                jq=JqUse("root", "by-expression", "first", shape="by-expression")),
    FormatField("ByExpression", "expectedResult", "string", 'The expected output as text: "true", "3", '
                '"Running".', required=True),
    # suspend and resume
    FormatField("SuspendDefinition", "suspendActions", "array", "Applied in order to suspend.", required=True,
                holds="SuspendAction", min_size=1),
    FormatField("SuspendDefinition", "resumeActions", "array", "Applied in order to resume.", required=True,
                holds="SuspendAction", min_size=1),
    FormatField("SuspendAction", "path", "string", "The field to write; must be an assignable path",
                required=True, jq=JqUse("root", "suspend", "stream", writable=True, shape="suspend"),
                alias="suspendPath"),
    FormatField("SuspendAction", "value", "string", 'The JSON-encoded value to write: "true", "0", '
                '"\\"paused\\"", "null".', required=True),
    # pod attribution
    _holding("PodSelector", "componentTypeSelector", "ComponentTypeSelector"),
    _holding("PodSelector", "componentInstanceSelector", "ComponentInstanceSelector"),
    _holding("PodSelector", "replicaSelector", "ReplicaSelector"),
    FormatField("ComponentTypeSelector", "keyPath", "string", "A pod belongs here if this yields a non-null "
                "value (or equals value)", min_size=1, jq=JqUse("pod", "type-selector", "stream")),
    FormatField("ComponentTypeSelector", "value", "string", "The value keyPath must equal (the runtime tests "
                "<keyPath> == <value>)."),
    FormatField("ComponentTypeSelector", "matchLabels", "map", "Pod labels that must all equal these values.",
                min_size=1),
    FormatField("ComponentInstanceSelector", "idPath", "string", "Yields the pod's instance id, one of the "
                "instanceIdPath outputs", required=True, jq=JqUse("pod", "instance-selector", "one")),
    FormatField("ReplicaSelector", "keyPath", "string", "Yields the pod's replica index or group",
                required=True, jq=JqUse("pod", "replica-selector", "one")),
    # gang scheduling
    _holding("OptimizationInstructions", "gangScheduling", "GangScheduling"),
    FormatField("GangScheduling", "podGroups", "array", "Alpha grouping (deprecated in favour of podGroup).",
                holds="PodGroup", list_type="map", list_keys=_BY_NAME),
    _holding("GangScheduling", "podGroup", "PodGroupV2"),
    FormatField("PodGroup", "name", "string", "Group name, appended to the scheduler's PodGroup name.",
                required=True),
    FormatField("PodGroup", "members", "array", "Components whose pods form the gang.", required=True,
                holds="GangMember", list_type="map", list_keys=_BY_COMPONENT),
    FormatField("GangMember", "componentName", "string", "Name of a component.", required=True),
    FormatField("GangMember", "groupByKeyPaths", "array", "Values that split pods into separate gangs.",
                entry="One value per pod", list_type="set", jq=JqUse("pod", "gang-key", "one")),
    FormatField("GangMember", "filters", "array", "All must yield true for the pod to take part.",
                entry="A boolean per pod", list_type="set", jq=JqUse("pod", "gang-filter", "one")),
    FormatField("GangMember", "groupByExpressions", "array",
                "Experimental CEL grouping (unreleased upstream).",
                entry="A CEL expression evaluated against the Pod."),
    FormatField("PodGroupV2", "name", "string", "Suffix of the scheduler PodGroup name.", required=True),
    FormatField("PodGroupV2", "subGroups", "array", "Component subtrees that form sub-groups with their own "
                "min-available.", holds="SubGroup", list_type="map", list_keys=_BY_COMPONENT),
    _holding("PodGroupV2", "topology", "Topology"),
    FormatField("SubGroup", "componentName", "string", "Name of a component.", required=True),
    _holding("SubGroup", "topology", "Topology"),
    FormatField("Topology", "topologyName", "string", "Name of the topology resource.", required=True),
    FormatField("Topology", "preferredTopologyLevel", "string",
                "Preferred topology level (a node label key).", required=True),
    FormatField("Topology", "requiredTopologyLevel", "string",
                "Required topology level (a node label key).", required=True),
)


def _by_parent() -> dict[str, dict[str, FormatField]]:
    found: dict[str, dict[str, FormatField]] = {name: {} for name in OBJECTS}
    for f in FIELDS:
        found[f.parent][f.key] = f
    return found


#: each object's fields by key, in table order
FIELDS_OF = _by_parent()
JQ_FIELDS = tuple(f for f in FIELDS if f.jq is not None)


def format_field(parent: str, key: str) -> FormatField:
    """The field ``key`` of the object ``parent`` (KeyError when the format has none)."""
    return FIELDS_OF[parent][key]


def jq_keys(parent: str) -> tuple[str, ...]:
    """The keys of an object's jq fields, in table order."""
    return tuple(k for k, f in FIELDS_OF[parent].items() if f.jq is not None)


SPEC_PATH_FIELDS = jq_keys("SpecDefinition")
FRAGMENT_FIELDS = jq_keys("FragmentedPodSpecDefinition")
SCALE_FIELDS = jq_keys("ScaleDefinition")

#: the shape each jq field's value must reach, by the field's name (fields that need none are left out)
SHAPES = {f.name: f.jq.shape for f in JQ_FIELDS if f.jq is not None and f.jq.shape is not None}


def shape_of(name: str) -> str:
    """The shape a field's value must reach, by the field's name; ``any`` for a field that needs none."""
    return SHAPES.get(name, "any")


def fragment_pod_fields() -> tuple[tuple[str, str], ...]:
    """Each fragment field of a fragmented pod spec with the pod template field it stands for."""
    return tuple((f.key, f.jq.pod_field) for f in FIELDS_OF["FragmentedPodSpecDefinition"].values()
                 if f.jq is not None and f.jq.pod_field is not None)


def field_at(path: Sequence[str | int]) -> FormatField | None:
    """The field of the value at a key path from the document root (list indexes as ints; the list's own
    field for an entry of a list of strings), or None where the format has no field."""
    found: FormatField | None = None
    current: str | None = ROOT_OBJECT  # the object the next key is a field of
    listed = False  # found is a list, whose entry the next index picks
    for step in path:
        if isinstance(step, int):
            if not listed or found is None:
                return None
            listed = False
            current = found.holds  # an object, or None: a string of the list, whose field is the list's
            continue
        if current is None:
            return None
        found = FIELDS_OF[current].get(step)
        if found is None:
            return None
        listed = found.type == "array"
        current = found.holds if found.type == "object" else None
    return found
