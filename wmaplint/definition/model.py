"""Typed model of a definition, built leniently from positioned nodes.

Wrongly typed values are left out of the model (the structural check reports them); every field keeps its
node, so checks can point at it. Pointers are key paths from the document root, e.g.
``("spec", "structureDefinition", "childComponents", 0, "scaleDefinition", "replicasPath")``. What each jq
field is (its evaluation context, cardinality, writability) is read from the table of the format's fields,
``wmaplint.definition.fields``.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterator

from wmaplint.dataclass import dataclass, field
from wmaplint.definition.fields import (
    FRAGMENT_FIELDS,
    KARTA,
    LEGACY,
    SCALE_FIELDS,
    SPEC_PATH_FIELDS,
    FormatField,
    JqUse,
    format_field,
)
from wmaplint.jq.roles import ExprRole
from wmaplint.source.nodes import MappingNode, Node, ScalarNode, SequenceNode, to_python

DEFINITION_KINDS = {KARTA[1]: KARTA[0], LEGACY[1]: LEGACY[0]}

Pointer = tuple[str | int, ...]


@dataclass(eq=False)
class Expr:
    """A jq expression in the definition: where it stands, and the format's field it is the value of."""

    text: str
    node: ScalarNode
    pointer: Pointer
    format_field: FormatField
    # whose expressions list this one: held weakly, so that a definition is a tree reference counting frees
    # (a component and its expressions pointing at each other made every checked file garbage for the cyclic
    # collector, 500 objects a file, a tenth of the time of 400 definitions)
    owner: weakref.ref[Component] | None = field(default=None, repr=False)
    selector_value: str | None = None  # componentTypeSelector.value beside a type selector's keyPath
    expected_result: str | None = None  # byExpression.expectedResult beside its expression
    holder: MappingNode | None = None  # the mapping the expression is a value of

    @property
    def component(self) -> Component | None:
        """The component whose expressions list this one (None for an expression of no component)."""
        return self.owner() if self.owner is not None else None

    @property
    def use(self) -> JqUse:
        """How the runtime uses the expression (the format's description of its field)."""
        use = self.format_field.jq
        assert use is not None, self.format_field.key  # the model makes expressions of jq fields only
        return use

    @property
    def field(self) -> str:
        """The field's key, e.g. "replicasPath"."""
        return self.format_field.key

    @property
    def context(self) -> str:
        """"root" or "pod": what the expression is evaluated against."""
        return self.use.context

    @property
    def cardinality(self) -> str:
        """"per-instance" | "instance-ids" | "one" | "first" | "stream"."""
        return self.use.cardinality

    @property
    def writable(self) -> bool:
        return self.use.writable

    @property
    def role(self) -> ExprRole:
        """What the field expects of this expression, as the jq analyses read it."""
        use = self.use
        component = self.component
        return ExprRole(
            field=self.format_field.key,
            context=use.context,
            cardinality=use.cardinality,
            writable=use.writable,
            selector_value=self.selector_value,
            expected_result=self.expected_result,
            has_instances=component is not None and component.instance_id_path is not None,
            instance_ids=(component.instance_id_path.text
                          if component is not None and component.instance_id_path is not None else None),
        )


@dataclass(eq=False)
class GVK:
    group: str
    version: str
    kind: str
    node: MappingNode

    def __str__(self) -> str:
        return f"{self.group}/{self.version}/{self.kind}" if self.group else f"{self.version}/{self.kind}"


@dataclass(eq=False)
class ConditionMatcher:
    """A condition a matcher requires: its type and, where given, status and reason, each as the text the
    runtime compares (a value that is not a string as its YAML value's text; None when absent or null)."""

    node: MappingNode
    type: str | None
    status: str | None
    reason: str | None


@dataclass(eq=False)
class Matcher:
    node: MappingNode
    pointer: Pointer
    by_phase: ScalarNode | None = None
    by_phase_node: Node | None = None  # present even when not a string
    by_conditions: list[MappingNode] = field(default_factory=list)
    by_conditions_node: Node | None = None
    conditions: list[ConditionMatcher] = field(default_factory=list)  # of the entries of byConditions
    by_expression_node: Node | None = None  # present even when not a mapping
    expression: Expr | None = None
    expected_result: ScalarNode | None = None
    expected_result_node: Node | None = None  # present even when not a string


@dataclass(eq=False)
class StatusDefinition:
    node: MappingNode
    pointer: Pointer
    phase_path: Expr | None = None
    phase_node: MappingNode | None = None
    conditions_path: Expr | None = None
    conditions_node: MappingNode | None = None
    mappings: dict[str, list[Matcher]] = field(default_factory=dict)
    mapping_keys: dict[str, ScalarNode] = field(default_factory=dict)
    # the keys the conditions' entries are read by: the format's default where the key is absent, None where
    # it is set to anything but a string (the runtime then never reads that field)
    type_field: str | None = None
    status_field: str | None = None
    reason_field: str | None = None


@dataclass(eq=False)
class Component:
    node: MappingNode
    pointer: Pointer
    is_root: bool
    name: str | None = None
    name_node: ScalarNode | None = None
    kind: GVK | None = None
    owner_ref: str | None = None
    owner_ref_node: Node | None = None  # present even when empty or null
    spec_node: MappingNode | None = None
    scale_node: MappingNode | None = None
    status: StatusDefinition | None = None
    suspend_node: MappingNode | None = None
    instance_id_path: Expr | None = None
    pod_selector_node: MappingNode | None = None
    type_selector_node: MappingNode | None = None
    instance_selector_node: MappingNode | None = None
    replica_selector_node: MappingNode | None = None
    # the pod selector's expressions, componentTypeSelector's value (present even when not a string) and its
    # matchLabels, each value as the text a pod label is compared with (a value that is not a string as JSON)
    type_selector_path: Expr | None = None
    type_selector_value_node: Node | None = None
    match_labels: dict[str, str] | None = None
    instance_selector_path: Expr | None = None
    replica_selector_path: Expr | None = None
    fragments_node: MappingNode | None = None  # specDefinition.fragmentedPodSpecDefinition
    expressions: list[Expr] = field(default_factory=list)
    # the jq paths by field key: of the pod template or pod spec, of the fragments, of the replica counts
    spec_paths: dict[str, Expr] = field(default_factory=dict)
    fragment_paths: dict[str, Expr] = field(default_factory=dict)
    scale_paths: dict[str, Expr] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return self.name if self.name else ("root component" if self.is_root else "child component")

    def spec_shapes(self) -> list[str]:
        if self.spec_node is None:
            return []
        shapes = ("podTemplateSpecPath", "podSpecPath", "fragmentedPodSpecDefinition")
        return [k for k in shapes if self.spec_node.get(k) is not None]

    @property
    def has_pods(self) -> bool:
        return bool(self.spec_shapes())


@dataclass(eq=False)
class GangMember:
    """A member of a podGroups group, or a sub-group of podGroup: the component it names."""

    node: MappingNode
    pointer: Pointer
    component: str | None
    component_node: ScalarNode | None
    group_by_key_paths: list[str] = field(default_factory=list)  # every string entry, as written
    filters: list[str] = field(default_factory=list)


@dataclass(eq=False)
class PodGroup:
    """A group of gangScheduling.podGroups (the alpha grouping)."""

    node: MappingNode
    pointer: Pointer
    name: str | None
    members: list[GangMember] = field(default_factory=list)


@dataclass(eq=False)
class PodGroupV2:
    """gangScheduling.podGroup: one group, its sub-groups being ``Definition.subgroup_refs``."""

    node: MappingNode
    pointer: Pointer
    name: str | None
    topology_node: MappingNode | None = None


@dataclass(eq=False)
class Definition:
    document_node: MappingNode
    kind: str  # Karta or ResourceInterface
    api_version: str | None
    name: str | None
    root: Component | None
    children: list[Component] = field(default_factory=list)
    gang_members: list[GangMember] = field(default_factory=list)
    subgroup_refs: list[GangMember] = field(default_factory=list)
    gang_expressions: list[Expr] = field(default_factory=list)
    structure_node: MappingNode | None = None  # spec.structureDefinition
    pod_groups: list[PodGroup] = field(default_factory=list)
    pod_group: PodGroupV2 | None = None

    @property
    def legacy(self) -> bool:
        return self.kind == LEGACY[1]

    @property
    def components(self) -> list[Component]:
        return ([self.root] if self.root is not None else []) + self.children

    def component(self, name: str) -> Component | None:
        for c in self.components:
            if c.name == name:
                return c
        return None

    def expressions(self) -> Iterator[Expr]:
        for c in self.components:
            yield from c.expressions
        yield from self.gang_expressions


def _map(node: Node | None) -> MappingNode | None:
    return node if isinstance(node, MappingNode) else None


def _seq(node: Node | None) -> list[Node]:
    return node.items if isinstance(node, SequenceNode) else []


def _str(node: Node | None) -> ScalarNode | None:
    return node if isinstance(node, ScalarNode) and isinstance(node.value, str) else None


def _strings(node: Node | None) -> list[str]:
    """The string entries of a list, as written."""
    return [item.value for item in _seq(node) if isinstance(item, ScalarNode) and isinstance(item.value, str)]


def recognise(root: Node | None) -> tuple[str, str | None] | None:
    """(kind, apiVersion) when a document is a definition, else None."""
    m = _map(root)
    if m is None:
        return None
    kind = _str(m.get("kind"))
    if kind is None or kind.value not in DEFINITION_KINDS:
        return None
    api = _str(m.get("apiVersion"))
    return kind.value, (api.value if api else None)


def build(root: Node | None) -> Definition | None:
    found = recognise(root)
    if found is None:
        return None
    assert isinstance(root, MappingNode)
    kind, api = found
    meta = _map(root.get("metadata"))
    name = _str(meta.get("name")) if meta else None
    structure = _map((_map(root.get("spec")) or MappingNode(root.span, 0, 0, [])).get("structureDefinition"))
    base: Pointer = ("spec", "structureDefinition")
    definition = Definition(document_node=root, kind=kind, api_version=api, name=name.value if name else None,
                            root=None, structure_node=structure)
    if structure is not None:
        root_node = _map(structure.get("rootComponent"))
        if root_node is not None:
            definition.root = _component(root_node, (*base, "rootComponent"), True)
        for i, child in enumerate(_seq(structure.get("childComponents"))):
            if isinstance(child, MappingNode):
                definition.children.append(_component(child, (*base, "childComponents", i), False))
    _gang(definition, root)
    return definition


def _expr(component: Component | None, holder: MappingNode | None, of: FormatField, pointer: Pointer,
          **values: str | None) -> Expr | None:
    """The expression of the jq field ``of`` in ``holder``, when it is a string that is not blank."""
    if holder is None:
        return None
    node = _str(holder.get(of.key))
    if node is None or not node.value.strip():
        return None
    expr = Expr(text=node.value, node=node, pointer=(*pointer, of.key), format_field=of,
                owner=weakref.ref(component) if component is not None else None, holder=holder, **values)
    if component is not None:
        component.expressions.append(expr)
    return expr


def _paths(c: Component, holder: MappingNode | None, parent: str, keys: tuple[str, ...], pointer: Pointer
           ) -> dict[str, Expr]:
    found = {}
    for key in keys:
        expr = _expr(c, holder, format_field(parent, key), pointer)
        if expr is not None:
            found[key] = expr
    return found


def _component(node: MappingNode, pointer: Pointer, is_root: bool) -> Component:
    c = Component(node=node, pointer=pointer, is_root=is_root)
    c.name_node = _str(node.get("name"))
    c.name = c.name_node.value if c.name_node else None
    kind = _map(node.get("kind"))
    if kind is not None:
        parts = [_str(kind.get(k)) for k in ("group", "version", "kind")]
        group, version, kind_name = (p.value if p else "" for p in parts)
        c.kind = GVK(group, version, kind_name, node=kind)
    if node.key_node("ownerRef") is not None:
        c.owner_ref_node = node.get("ownerRef")
        ref = _str(c.owner_ref_node)
        c.owner_ref = ref.value if ref else None
    c.instance_id_path = _expr(c, node, format_field("Component", "instanceIdPath"), pointer)

    c.spec_node = _map(node.get("specDefinition"))
    spec_ptr = (*pointer, "specDefinition")
    c.spec_paths = _paths(c, c.spec_node, "SpecDefinition", SPEC_PATH_FIELDS, spec_ptr)
    fragments = _map(c.spec_node.get("fragmentedPodSpecDefinition")) if c.spec_node else None
    c.fragments_node = fragments
    c.fragment_paths = _paths(c, fragments, "FragmentedPodSpecDefinition", FRAGMENT_FIELDS,
                              (*spec_ptr, "fragmentedPodSpecDefinition"))

    c.scale_node = _map(node.get("scaleDefinition"))
    c.scale_paths = _paths(c, c.scale_node, "ScaleDefinition", SCALE_FIELDS, (*pointer, "scaleDefinition"))

    status = _map(node.get("statusDefinition"))
    if status is not None:
        c.status = _status(c, status, (*pointer, "statusDefinition"))

    c.suspend_node = _map(node.get("suspendDefinition"))
    if c.suspend_node is not None:
        action_path = format_field("SuspendAction", "path")
        for list_key in ("suspendActions", "resumeActions"):
            for i, action in enumerate(_seq(c.suspend_node.get(list_key))):
                _expr(c, _map(action), action_path, (*pointer, "suspendDefinition", list_key, i))

    c.pod_selector_node = _map(node.get("podSelector"))
    sel = c.pod_selector_node
    sel_ptr = (*pointer, "podSelector")
    if sel is not None:
        c.type_selector_node = _map(sel.get("componentTypeSelector"))
        c.instance_selector_node = _map(sel.get("componentInstanceSelector"))
        c.replica_selector_node = _map(sel.get("replicaSelector"))
        types = c.type_selector_node
        if types is not None and types.key_node("value") is not None:
            c.type_selector_value_node = types.get("value")
        value = _str(c.type_selector_value_node)
        c.type_selector_path = _expr(c, types, format_field("ComponentTypeSelector", "keyPath"),
                                     (*sel_ptr, "componentTypeSelector"),
                                     selector_value=value.value if value else None)
        labels = _map(types.get("matchLabels")) if types else None
        if labels is not None:
            c.match_labels = {str(k.value): _as_text(v) for k, v in labels.pairs}
        c.instance_selector_path = _expr(c, c.instance_selector_node,
                                         format_field("ComponentInstanceSelector", "idPath"),
                                         (*sel_ptr, "componentInstanceSelector"))
        replica_key = format_field("ReplicaSelector", "keyPath")
        c.replica_selector_path = _expr(c, c.replica_selector_node, replica_key,
                                        (*sel_ptr, "replicaSelector"))
    c.expressions.sort(key=lambda e: e.node.start)
    return c


def _as_text(node: Node | None) -> str:
    """A value as text: a string as it is, anything else as JSON (keys sorted)."""
    value = to_python(node)
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


def _scalar_text(node: Node | None) -> str | None:
    """A scalar's value as text, None when it is absent or null (a mapping or list as its text too)."""
    value = to_python(node)
    return None if value is None else str(value)


def _field_name(holder: MappingNode, key: str) -> str | None:
    """The key a conditionsDefinition names for a condition's field: the default where it is absent."""
    if holder.key_node(key) is None:
        return format_field("ConditionsDefinition", key).default
    found = _str(holder.get(key))
    return found.value if found else None


def _status(c: Component, node: MappingNode, pointer: Pointer) -> StatusDefinition:
    s = StatusDefinition(node=node, pointer=pointer)
    s.phase_node = _map(node.get("phaseDefinition"))
    s.phase_path = _expr(c, s.phase_node, format_field("PhaseDefinition", "path"),
                         (*pointer, "phaseDefinition"))
    s.conditions_node = _map(node.get("conditionsDefinition"))
    s.conditions_path = _expr(c, s.conditions_node, format_field("ConditionsDefinition", "path"),
                              (*pointer, "conditionsDefinition"))
    if s.conditions_node is not None:
        s.type_field = _field_name(s.conditions_node, "typeFieldName")
        s.status_field = _field_name(s.conditions_node, "statusFieldName")
        s.reason_field = _field_name(s.conditions_node, "reasonFieldName")
    mappings = _map(node.get("statusMappings"))
    if mappings is None:
        return s
    expression = format_field("ByExpression", "expression")
    for key_node, value in mappings.pairs:
        key = str(key_node.value)
        s.mapping_keys[key] = key_node
        matchers: list[Matcher] = []
        for i, entry in enumerate(_seq(value)):
            m = _map(entry)
            if m is None:
                continue
            mp: Pointer = (*pointer, "statusMappings", key, i)
            matcher = Matcher(node=m, pointer=mp, by_phase=_str(m.get("byPhase")))
            if m.key_node("byPhase") is not None:
                matcher.by_phase_node = m.get("byPhase")
            matcher.by_conditions_node = m.get("byConditions")
            matcher.by_conditions = [x for x in _seq(matcher.by_conditions_node)
                                     if isinstance(x, MappingNode)]
            matcher.conditions = [
                ConditionMatcher(x, _scalar_text(x.get("type")), _scalar_text(x.get("status")),
                                 _scalar_text(x.get("reason")))
                for x in matcher.by_conditions
            ]
            if m.key_node("byExpression") is not None:
                matcher.by_expression_node = m.get("byExpression")
            by_expr = _map(matcher.by_expression_node)
            if by_expr is not None:
                matcher.expected_result = _str(by_expr.get("expectedResult"))
                matcher.expected_result_node = by_expr.get("expectedResult")
                matcher.expression = _expr(
                    c, by_expr, expression, (*mp, "byExpression"),
                    expected_result=matcher.expected_result.value if matcher.expected_result else None,
                )
            matchers.append(matcher)
        s.mappings[key] = matchers
    return s


def _gang(definition: Definition, root: MappingNode) -> None:
    spec = _map(root.get("spec"))
    instructions = _map(spec.get("optimizationInstructions")) if spec else None
    gang = _map(instructions.get("gangScheduling")) if instructions else None
    if gang is None:
        return
    gptr: Pointer = ("spec", "optimizationInstructions", "gangScheduling")
    member_paths = [format_field("GangMember", key) for key in ("groupByKeyPaths", "filters")]
    for gi, group in enumerate(_seq(gang.get("podGroups"))):
        g = _map(group)
        if g is None:
            continue
        group_name = _str(g.get("name"))
        alpha_group = PodGroup(g, (*gptr, "podGroups", gi), group_name.value if group_name else None)
        definition.pod_groups.append(alpha_group)
        for mi, member in enumerate(_seq(g.get("members"))):
            m = _map(member)
            if m is None:
                continue
            mptr: Pointer = (*gptr, "podGroups", gi, "members", mi)
            name = _str(m.get("componentName"))
            gang_member = GangMember(m, mptr, name.value if name else None, name,
                                     group_by_key_paths=_strings(m.get("groupByKeyPaths")),
                                     filters=_strings(m.get("filters")))
            definition.gang_members.append(gang_member)
            alpha_group.members.append(gang_member)
            for of in member_paths:
                for pi, item in enumerate(_seq(m.get(of.key))):
                    text = _str(item)
                    if text is None or not text.value.strip():
                        continue
                    definition.gang_expressions.append(
                        Expr(text=text.value, node=text, pointer=(*mptr, of.key, pi), format_field=of))
    pod_group = _map(gang.get("podGroup"))
    if pod_group is not None:
        group_name = _str(pod_group.get("name"))
        topology = _map(pod_group.get("topology"))
        definition.pod_group = PodGroupV2(pod_group, (*gptr, "podGroup"),
                                          group_name.value if group_name else None, topology)
        for si, sub in enumerate(_seq(pod_group.get("subGroups"))):
            s = _map(sub)
            if s is None:
                continue
            name = _str(s.get("componentName"))
            definition.subgroup_refs.append(
                GangMember(s, (*gptr, "podGroup", "subGroups", si), name.value if name else None, name)
            )
