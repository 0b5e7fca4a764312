"""Resolve a manifest into its workload tree with a definition (the typed model in, a Workload out).

Every spec/scale path and ``instanceIdPath`` is evaluated against the root object, also for child
components. A component with ``instanceIdPath`` has one instance per id, and each of its spec/scale paths
must yield as many outputs, in the same order (the zip rule); without it there is one instance with id "".
A child component is built once and shown under every instance of its parent, as the runtime's tree
builder clones child subtrees. Pods of an instance: its replicas × (1 if it has a pod template, plus the
pods of its children), replicas being replicas, else minReplicas, else 1.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from wmaplint.definition.fields import SCALE_FIELDS
from wmaplint.jq.runtime import JqResult, JqRuntime, default_runtime
from wmaplint.resolve.counts import as_count, instance_id, why_not_a_count
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.findings import (
    FragmentCountMismatch,
    FragmentMisaligned,
    InvalidInstanceId,
    InvalidQuantity,
    InvalidReferencedQuantity,
    NoRootComponent,
    NotACount,
    OutputCountMismatch,
    SpecNotObject,
)
from wmaplint.resolve.model import ComponentNode, Instance, PodTemplate, Workload, resolved_components
from wmaplint.resolve.quantities import scaled, summed
from wmaplint.resolve.references import References, resolve_references
from wmaplint.resolve.templates import pod_from_fragments, pod_template
from wmaplint.resolve.values import get
from wmaplint.source import Node

if TYPE_CHECKING:
    from wmaplint.controllers import Model
    from wmaplint.definition.model import Component, Definition, Expr

MAX_QUANTITY_FACTS = 5  # per pod template: one broken resource block need not fill the screen
# the Instance attribute each scale field sets: replicasPath -> replicas, minReplicasPath -> min_replicas
SCALE_ATTRIBUTES = {key: re.sub("([A-Z])", r"_\1", key.removesuffix("Path")).lower() for key in SCALE_FIELDS}
# the roles of the expressions a tree evaluates on the root object: of every component, and of the root's
# status
_TREE_ROLES = frozenset({"instance-ids", "spec", "scale"})
_STATUS_ROLES = frozenset({"status-phase", "status-conditions", "by-expression"})


class TreeBuilder:
    def __init__(self, definition: Definition, obj: Any, runtime: JqRuntime, path: str,
                 references: References | None = None):
        self.definition = definition
        self.obj = obj
        self.path = path
        self.references = references
        self.notes: list[str] = []
        self.findings: list[Any] = []
        self.eval = Evaluator(runtime, obj, self.findings, path)
        self.built: dict[str, ComponentNode] = {}

    def _finding(self, kind: type, where: Node, *values: Any) -> None:
        self.findings.append(kind(self.path, where.span, *values))

    # -- one component -------------------------------------------------------------------------------
    def build_component(self, comp: Component, index: int) -> ComponentNode:
        name = comp.name or f"<component {index}>"
        node = ComponentNode(component=comp, name=name, index=index)
        ids: list[str] = [""]
        id_path = comp.instance_id_path
        if id_path is not None:
            result = self.eval.run(id_path, f"instanceIdPath of {name}")
            ids = []
            for position, value in enumerate(result.outputs if result else ()):
                text = instance_id(value)
                if not text:
                    self._finding(InvalidInstanceId, id_path.node, name, value, position)
                    text = f"#{position}"
                ids.append(text)
        count = len(ids)
        instances = [Instance(id=iid, index=i) for i, iid in enumerate(ids)]
        if comp.spec_node is not None:
            self._specs(node, comp, instances, count)
        for field, expr in comp.scale_paths.items():
            self._scale(node, field, expr, instances, count)
        node.instances = instances
        return node

    def _aligned(self, node: ComponentNode, result: JqResult | None, count: int, expr: Expr) -> list[Any]:
        """Outputs of a spec/scale path aligned with the instances, with a finding when they do not zip."""
        outputs = list(result.outputs) if result else []
        if result is not None and len(outputs) != count:
            self._finding(OutputCountMismatch, expr.node, expr.field, node.name, len(outputs), count)
        return outputs[:count] + [None] * (count - len(outputs))

    def _outputs(self, node: ComponentNode, expr: Expr, count: int) -> list[Any]:
        return self._aligned(node, self.eval.run(expr, f"{expr.field} of {node.name}"), count, expr)

    def _specs(self, node: ComponentNode, comp: Component, instances: list[Instance], count: int) -> None:
        paths = comp.spec_paths
        template_path = paths.get("podTemplateSpecPath")
        spec_path = paths.get("podSpecPath")
        if template_path is not None:
            values = self._outputs(node, template_path, count)
            for inst, value in zip(instances, values, strict=True):
                if value is not None:
                    inst.template = self._template(
                        node, inst, get(value, "metadata"), get(value, "spec"), value, template_path.node
                    )
        elif spec_path is not None:
            specs = self._outputs(node, spec_path, count)
            meta_path = paths.get("metadataPath")
            metas = self._outputs(node, meta_path, count) if meta_path is not None else [None] * count
            for inst, value, metadata in zip(instances, specs, metas, strict=True):
                if value is not None:
                    inst.template = self._template(node, inst, metadata, value, value, spec_path.node)
        elif comp.fragments_node is not None:
            self._fragments(node, comp, comp.fragments_node, instances)

    def _fragments(self, node: ComponentNode, comp: Component, base: Node, instances: list[Instance]) -> None:
        """Fragment fields merged by index; the instance count is the largest output count."""
        outputs: dict[str, list[Any]] = {}
        for field, expr in comp.fragment_paths.items():
            result = self.eval.run(expr, f"{field} of {node.name}")
            outputs[field] = list(result.outputs) if result else []
        width = max((len(v) for v in outputs.values()), default=0)
        if not node.multi_instance:
            if width != 1 and outputs:
                self._finding(FragmentCountMismatch, base, node.name, width, None)
        elif width != len(instances):
            self._finding(FragmentCountMismatch, base, node.name, width, len(instances))
        for field, values in outputs.items():
            if 0 < len(values) < width:
                where = comp.fragment_paths[field].node
                self._finding(FragmentMisaligned, where, field, node.name, len(values), width)
        for inst in instances:
            pieces = {
                field: values[inst.index] for field, values in outputs.items() if inst.index < len(values)
            }
            # null fragments are still outputs: the instance exists with defaults (upstream counts it too)
            pod_spec, metadata, words = pod_from_fragments(pieces)
            inst.template = self._template(node, inst, metadata, pod_spec, pod_spec, base, words)

    def _template(self, node: ComponentNode, inst: Instance, metadata: Any, spec: Any, raw: Any, where: Node,
                  framework_words: Any = None) -> PodTemplate | None:
        if not isinstance(raw, dict) or (spec is not None and not isinstance(spec, dict)):
            self._finding(SpecNotObject, where, node.name, inst.index, raw)
            return None
        template, problems = pod_template(metadata, spec, framework_words)
        for problem in problems[:MAX_QUANTITY_FACTS]:
            self._finding(InvalidQuantity, where, node.name, inst.id or str(inst.index), problem)
        return template

    def _scale(self, node: ComponentNode, field: str, expr: Expr, instances: list[Instance],
               count: int) -> None:
        attribute = SCALE_ATTRIBUTES[field]
        for inst, value in zip(instances, self._outputs(node, expr, count), strict=True):
            if value is None:
                continue
            number = as_count(value)
            if number is None:
                why = why_not_a_count(value)
                self._finding(NotACount, expr.node, field, node.name, value, inst.index, why)
                continue
            setattr(inst, attribute, number)

    # -- the whole tree ------------------------------------------------------------------------------
    def build(self) -> ComponentNode | None:
        components = resolved_components(self.definition)
        if not components:
            return None
        self.eval.prefetch(tree_programs(components))
        for index, comp in enumerate(components, start=-1):
            node = self.build_component(comp, index)
            if node.name not in self.built:
                self.built[node.name] = node
        root = self.built[next(iter(self.built))]
        children: dict[str, list[ComponentNode]] = {}
        for node in self.built.values():
            if node is not root and node.owner:
                children.setdefault(node.owner, []).append(node)
        # Attach children level by level from the root; a cycle or a dangling ownerRef never reaches it.
        reached = {root.name}
        frontier = [root]
        while frontier:
            nxt: list[ComponentNode] = []
            for parent in frontier:
                kids = [k for k in children.get(parent.name, []) if k.name not in reached]
                for kid in kids:
                    reached.add(kid.name)
                    nxt.append(kid)
                for inst in parent.instances:
                    inst.children = kids
            frontier = nxt
        resolved = resolve_references(self.obj, self.built, self.references)
        self.notes.extend(resolved.notes)
        for problem in resolved.problems[:MAX_QUANTITY_FACTS]:
            self._finding(InvalidReferencedQuantity, root.component.node, root.name, problem)
        for node in reversed(self._order(root)):
            _total(node)
        return root

    def _order(self, root: ComponentNode) -> list[ComponentNode]:
        order, queue = [], [root]
        while queue:
            node = queue.pop(0)
            order.append(node)
            if node.instances:
                queue.extend(node.instances[0].children)
        return order


def tree_programs(components: list[Component]) -> list[str]:
    """The programs resolution evaluates on the root object (status byExpression in its runtime form)."""
    found: list[str] = []
    for comp in components:
        for expr in comp.expressions:
            role = expr.use.role
            if role in _TREE_ROLES:
                found.append(expr.text)
            elif comp.is_root and role in _STATUS_ROLES:
                found.append(f"({expr.text}) | tostring" if role == "by-expression" else expr.text)
    return found


def _total(node: ComponentNode) -> None:
    """Pods and resources of a component; its children's totals are already known."""
    for inst in node.instances:
        pods = 1 if inst.template is not None else 0
        per_replica = [inst.template.resources] if inst.template is not None else []
        unseen = [inst.template.unseen] if inst.template is not None else []
        for child in inst.children:
            pods += child.pods
            per_replica.append(child.resources)
            unseen.append(child.unseen)
        inst.pods = inst.effective_replicas * pods
        inst.resources = scaled(summed(per_replica), inst.effective_replicas)
        inst.unseen = scaled(summed(unseen), inst.effective_replicas)
    node.pods = sum(inst.pods for inst in node.instances)
    node.resources = summed(inst.resources for inst in node.instances)
    node.unseen = summed(inst.unseen for inst in node.instances)


def _api_version(definition: Definition) -> str:
    kind = definition.root.kind if definition.root is not None else None
    if kind is None:
        return ""
    return f"{kind.group}/{kind.version}" if kind.group else str(kind.version or "")


def resolve_workload(
    definition: Definition,
    obj: dict[str, Any],
    *,
    path: str = "",
    runtime: JqRuntime | None = None,
    with_status: bool = True,
    with_gangs: bool = True,
    references: References | None = None,
    with_verify: bool = True,
    with_grouping: bool = True,
    model: Model | None = None,
) -> Workload:
    """The workload tree of ``obj`` as ``definition`` (a Karta or ResourceInterface read from file ``path``)
    describes it; ``references`` are objects the workload may name (a TrainJob's runtime,
    wmaplint.resolve.references); ``model``: the controller model (that of the project configured in the
    working directory when None), seen at the release ``obj``'s operator wrote on it or the project pins.
    With ``with_verify``, the selectors are run on the pods synthesized from ``obj`` and, with
    ``with_grouping``, KAI's pod grouper too (without it, the caller groups listed pods).

    Never raises for bad input: what is wrong is in the returned Workload's findings.
    """
    from wmaplint.resolve.assumptions import assumptions_for
    from wmaplint.resolve.gang import preview_gangs
    from wmaplint.resolve.status_match import evaluate_status

    runtime = runtime or default_runtime()
    builder = TreeBuilder(definition, obj, runtime, path, references)
    root = builder.build()
    metadata = get(obj, "metadata")
    if model is None:
        from wmaplint.controllers.project import model_near

        model = model_near()
    workload = Workload(
        controller=model.for_object(obj),
        api_version=str(get(obj, "apiVersion") or ""),
        kind=str(get(obj, "kind") or ""),
        name=str(get(metadata, "name") or ""),
        namespace=get(metadata, "namespace") if isinstance(get(metadata, "namespace"), str) else None,
        definition_name=definition.name or "",
        root=root,
        components=builder.built,
        definition_path=path,
        definition_api_version=_api_version(definition),
        findings=builder.findings,
        notes=builder.notes,
    )
    if root is None:
        where = definition.structure_node or definition.document_node
        workload.findings.append(NoRootComponent(path, where.span))
        return workload
    workload.assumptions = assumptions_for(obj, runtime, workload.controller, builder.eval.input)
    if with_status:
        workload.status = evaluate_status(root.component.status, builder.eval)
    if with_gangs:
        workload.gangs = preview_gangs(definition, workload)
    if with_verify:
        from wmaplint.resolve.verify import verify_selectors

        workload.findings.extend(verify_selectors(definition, workload, obj, runtime, builder.eval.input))
        if with_gangs and with_grouping:
            from wmaplint.resolve.gang import group_synthesized

            group_synthesized(definition, workload, obj, runtime, builder.eval.input)
    return workload
