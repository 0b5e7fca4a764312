"""Resolve a manifest into its workload tree with a definition (plain dicts in, a Workload out).

Every spec/scale path and ``instanceIdPath`` is evaluated against the root object, also for child
components. A component with ``instanceIdPath`` has one instance per id, and each of its spec/scale paths
must yield as many outputs, in the same order (the zip rule); without it there is one instance with id "".
A child component is built once and shown under every instance of its parent, as the runtime's tree
builder clones child subtrees. Pods of an instance: its replicas × (1 if it has a pod template, plus the
pods of its children), replicas being replicas, else minReplicas, else 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from wmaplint.resolve import rules
from wmaplint.resolve.jqrun import JqInput, JqResult, JqRuntime, default_runtime
from wmaplint.resolve.model import ComponentNode, Finding, Instance, PodTemplate, Pointer, Workload
from wmaplint.resolve.resources import (
    Resources,
    pod_resources,
    requirements,
    scaled,
    split_framework_words,
    summed,
)

STRUCTURE: Pointer = ("spec", "structureDefinition")
FRAGMENT_FIELDS = (
    "schedulerNamePath",
    "labelsPath",
    "annotationsPath",
    "resourcesPath",
    "resourceClaimsPath",
    "podAffinityPath",
    "nodeAffinityPath",
    "containersPath",
    "containerPath",
    "priorityClassNamePath",
    "imagePath",
)
SCALE_FIELDS = (
    ("replicasPath", "replicas"),
    ("minReplicasPath", "min_replicas"),
    ("maxReplicasPath", "max_replicas"),
)
if TYPE_CHECKING:
    from wmaplint.resolve.references import References

MAX_COMPONENTS = 300  # keeps the subtree walks far from Python's recursion limit


def get(value: Any, *keys: str | int) -> Any:
    """value[k1][k2]..., or None when any step is missing or of the wrong type."""
    for key in keys:
        if isinstance(key, int):
            if not isinstance(value, list) or not -len(value) <= key < len(value):
                return None
        elif not isinstance(
            value, dict
        ):  # parsed YAML/JSON gives plain dicts; dict is much faster than Mapping
            return None
        value = value[key] if isinstance(key, int) else value.get(key)
    return value


def component_entries(definition: Mapping[str, Any]) -> list[tuple[Pointer, dict[str, Any], int]]:
    """(pointer, component dict, index) for the root (index -1) and each child, in definition order."""
    entries: list[tuple[Pointer, dict[str, Any], int]] = []
    root = get(definition, *STRUCTURE, "rootComponent")
    if isinstance(root, dict):
        entries.append(((*STRUCTURE, "rootComponent"), root, -1))
    children = get(definition, *STRUCTURE, "childComponents")
    if isinstance(children, list):
        for index, child in enumerate(children[:MAX_COMPONENTS]):
            if isinstance(child, dict):
                entries.append(((*STRUCTURE, "childComponents", index), child, index))
    return entries


class Evaluator:
    """Evaluates definition expressions on one document and turns failures into findings."""

    def __init__(self, runtime: JqRuntime, data: Any, findings: list[Finding], manifest_path: Pointer = ()):
        self.runtime = runtime
        self.input = JqInput(data)
        self.findings = findings
        self.manifest_path = manifest_path
        self._prefetched: dict[str, JqResult] = {}

    def prefetch(self, expressions: list[str]) -> None:
        """Evaluate expressions that will be asked for in one pass over the input (see evaluate_many)."""
        self._prefetched.update(self.runtime.evaluate_many(expressions, self.input))

    def run(self, expression: Any, pointer: Pointer, what: str) -> JqResult | None:
        """Outputs of a definition expression, or None (and a finding) when it failed."""
        if not isinstance(expression, str) or not expression.strip():
            return None
        result = self._prefetched.get(expression)
        if result is None:
            result = self.runtime.evaluate(expression, self.input)
        if result.ok:
            return result
        refused = self.runtime.compile_error(expression)
        if result.limited:
            rule = rules.JQ_LIMIT
        elif refused is not None and "not available in the workload runtime" in refused:
            rule = rules.JQ_NOT_ALLOWED
        else:
            rule = rules.JQ_RUNTIME_ERROR
        self.findings.append(
            Finding(rule, f"{what} `{expression}` failed: {result.error}", pointer, self.manifest_path)
        )
        return None


# Numeric strings as the runtime reads them: strconv.ParseInt(s, 10, 32), a sign and decimal digits without
# spaces, underscores, fractions or exponents; older releases refused strings altogether (FORMAT.md §2.4).
_GO_INT = re.compile(r"[+-]?0*[0-9]{1,10}")
MAX_REPLICAS = 2**31 - 1  # the runtime stores replica counts as int32


def _as_int(value: Any) -> int | None:
    """A replica count as the runtime reads it: an integral JSON number or a base-10 numeric string, within
    int32 and not negative; None otherwise. "1.5", "2.0", -5, NaN and infinity (libjq gives it as the largest
    double) are not counts."""
    if isinstance(value, bool):
        return None
    number: int | float
    if isinstance(value, str):
        if not _GO_INT.fullmatch(value):
            return None
        digits = value.lstrip("+-").lstrip("0") or "0"  # at most 10 digits: no huge int() conversion
        number = -int(digits) if value.startswith("-") else int(digits)
    elif isinstance(value, (int, float)):
        number = value
    else:
        return None
    if isinstance(number, float):
        if not math.isfinite(number) or not number.is_integer():
            return None
        number = int(number)
    return number if 0 <= number <= MAX_REPLICAS else None


def instance_id(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return None


class TreeBuilder:
    def __init__(
        self,
        definition: Mapping[str, Any],
        obj: Any,
        runtime: JqRuntime,
        references: References | None = None,
    ):
        self.definition = definition
        self.obj = obj
        self.references = references
        self.notes: list[str] = []
        self.findings: list[Finding] = []
        self.eval = Evaluator(runtime, obj, self.findings)
        self.entries = component_entries(definition)
        self.built: dict[str, ComponentNode] = {}

    # -- one component -------------------------------------------------------------------------------
    def build_component(self, pointer: Pointer, comp: dict[str, Any], index: int) -> ComponentNode:
        name = str(comp.get("name") or f"<component {index}>")
        kind = comp.get("kind") if isinstance(comp.get("kind"), dict) else None
        owner = comp.get("ownerRef") if isinstance(comp.get("ownerRef"), str) else None
        spec_def = comp.get("specDefinition") if isinstance(comp.get("specDefinition"), dict) else None
        id_expr = comp.get("instanceIdPath")
        node = ComponentNode(
            name=name,
            kind=kind,
            owner=owner,
            index=index,
            has_spec=spec_def is not None,
            multi_instance=isinstance(id_expr, str) and bool(id_expr.strip()),
            pointer=pointer,
        )
        ids: list[str] = [""]
        if node.multi_instance:
            result = self.eval.run(id_expr, (*pointer, "instanceIdPath"), f"instanceIdPath of {name}")
            ids = []
            for position, value in enumerate(result.outputs if result else ()):
                text = instance_id(value)
                if not text:
                    self.findings.append(
                        Finding(
                            rules.INVALID_INSTANCE_ID,
                            f"instanceIdPath of {name} gave {_show(value)} at index {position}; "
                            "an instance id "
                            "must be a non-empty string",
                            (*pointer, "instanceIdPath"),
                        )
                    )
                    text = f"#{position}"
                ids.append(text)
        count = len(ids)
        instances = [Instance(id=iid, index=i) for i, iid in enumerate(ids)]
        if spec_def is not None:
            self._specs(node, pointer, spec_def, instances, count)
        scale = comp.get("scaleDefinition")
        if isinstance(scale, dict):
            self._scales(node, pointer, scale, instances, count)
        node.instances = instances
        return node

    def _aligned(
        self, node: ComponentNode, result: JqResult | None, count: int, pointer: Pointer, field: str
    ) -> list[Any]:
        """Outputs of a spec/scale path aligned with the instances, with a finding when they do not zip."""
        outputs = list(result.outputs) if result else []
        if result is not None and len(outputs) != count:
            self.findings.append(
                Finding(
                    rules.INSTANCE_COUNT_MISMATCH,
                    f"{field} of {node.name} gave {len(outputs)} output(s) but the component has {count} "
                    f"instance(s) (instance ids count ({count}) does not match results count "
                    f"({len(outputs)}))",
                    pointer,
                )
            )
        return outputs[:count] + [None] * (count - len(outputs))

    def _specs(
        self,
        node: ComponentNode,
        pointer: Pointer,
        spec_def: dict[str, Any],
        instances: list[Instance],
        count: int,
    ) -> None:
        base = (*pointer, "specDefinition")
        if isinstance(spec_def.get("podTemplateSpecPath"), str):
            where = (*base, "podTemplateSpecPath")
            result = self.eval.run(
                spec_def["podTemplateSpecPath"], where, f"podTemplateSpecPath of {node.name}"
            )
            aligned = self._aligned(node, result, count, where, "podTemplateSpecPath")
            for inst, value in zip(instances, aligned, strict=True):
                if value is not None:
                    inst.template = self._template(
                        node, inst, get(value, "metadata"), get(value, "spec"), value, where
                    )
        elif isinstance(spec_def.get("podSpecPath"), str):
            where = (*base, "podSpecPath")
            result = self.eval.run(spec_def["podSpecPath"], where, f"podSpecPath of {node.name}")
            specs = self._aligned(node, result, count, where, "podSpecPath")
            metas: list[Any] = [None] * count
            if isinstance(spec_def.get("metadataPath"), str):
                meta_where = (*base, "metadataPath")
                meta = self.eval.run(spec_def["metadataPath"], meta_where, f"metadataPath of {node.name}")
                metas = self._aligned(node, meta, count, meta_where, "metadataPath")
            for inst, value, metadata in zip(instances, specs, metas, strict=True):
                if value is not None:
                    inst.template = self._template(node, inst, metadata, value, value, where)
        elif isinstance(spec_def.get("fragmentedPodSpecDefinition"), dict):
            self._fragments(
                node,
                (*base, "fragmentedPodSpecDefinition"),
                spec_def["fragmentedPodSpecDefinition"],
                instances,
            )

    def _fragments(
        self, node: ComponentNode, base: Pointer, fragments: dict[str, Any], instances: list[Instance]
    ) -> None:
        """Fragment fields merged by index; the instance count is the largest output count."""
        outputs: dict[str, list[Any]] = {}
        for field in FRAGMENT_FIELDS:
            if isinstance(fragments.get(field), str) and fragments[field].strip():
                result = self.eval.run(fragments[field], (*base, field), f"{field} of {node.name}")
                outputs[field] = list(result.outputs) if result else []
        width = max((len(v) for v in outputs.values()), default=0)
        if not node.multi_instance:
            if width != 1 and outputs:
                self.findings.append(
                    Finding(
                        rules.INSTANCE_COUNT_MISMATCH,
                        f"the fragments of {node.name} give {width} pod definition(s); a component without "
                        "instanceIdPath has exactly one",
                        base,
                    )
                )
        elif width != len(instances):
            self.findings.append(
                Finding(
                    rules.INSTANCE_COUNT_MISMATCH,
                    f"the fragments of {node.name} give {width} pod definition(s) but instanceIdPath gives "
                    f"{len(instances)} id(s)",
                    base,
                )
            )
        for field, values in outputs.items():
            if 0 < len(values) < width:
                self.findings.append(
                    Finding(
                        rules.FRAGMENT_MISALIGNED,
                        f"{field} of {node.name} gives {len(values)} output(s) while other fragments "
                        f"give {width}; "
                        "fragments merge by index, so later instances get the wrong values",
                        (*base, field),
                    )
                )
        for inst in instances:
            pieces = {
                field: values[inst.index] for field, values in outputs.items() if inst.index < len(values)
            }
            # null fragments are still outputs: the instance exists with defaults (upstream counts it too)
            pod_spec, metadata, words = _pod_from_fragments(pieces)
            inst.template = self._template(node, inst, metadata, pod_spec, pod_spec, base, words)

    def _template(
        self,
        node: ComponentNode,
        inst: Instance,
        metadata: Any,
        spec: Any,
        raw: Any,
        pointer: Pointer,
        framework_words: Any = None,
    ) -> PodTemplate | None:
        if not isinstance(raw, dict) or (spec is not None and not isinstance(spec, dict)):
            self.findings.append(
                Finding(
                    rules.SPEC_NOT_OBJECT,
                    f"the pod definition of {node.name} instance {inst.index} is {_show(raw)}, not an object",
                    pointer,
                )
            )
            return None
        template, problems = pod_template(metadata, spec, framework_words)
        for problem in problems[:5]:
            self.findings.append(
                Finding(
                    rules.INVALID_QUANTITY,
                    f"{node.name} instance {inst.id or inst.index}: {problem}",
                    pointer,
                )
            )
        return template

    def _scales(
        self,
        node: ComponentNode,
        pointer: Pointer,
        scale: dict[str, Any],
        instances: list[Instance],
        count: int,
    ) -> None:
        for field, attribute in SCALE_FIELDS:
            if not isinstance(scale.get(field), str) or not scale[field].strip():
                continue
            where = (*pointer, "scaleDefinition", field)
            result = self.eval.run(scale[field], where, f"{field} of {node.name}")
            for inst, value in zip(instances, self._aligned(node, result, count, where, field), strict=True):
                if value is None:
                    continue
                number = _as_int(value)
                if number is None:
                    self.findings.append(
                        Finding(
                            rules.REPLICAS_NOT_A_NUMBER,
                            _not_a_count(field, node.name, value, inst.index),
                            where,
                        )
                    )
                    continue
                setattr(inst, attribute, number)

    # -- the whole tree ------------------------------------------------------------------------------
    def build(self) -> ComponentNode | None:
        if not self.entries or self.entries[0][2] != -1:
            return None
        self.eval.prefetch(root_expressions(self.entries))
        for pointer, comp, index in self.entries:
            node = self.build_component(pointer, comp, index)
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
        from wmaplint.resolve.references import resolve_references  # it builds on this module

        resolved = resolve_references(self.obj, self.built, self.references)
        self.notes.extend(resolved.notes)
        self.findings.extend(
            Finding(rules.INVALID_QUANTITY, f"{root.name}, from the object it names: {problem}", root.pointer)
            for problem in resolved.problems[:5]
        )
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


def pod_template(metadata: Any, spec: Any, framework_words: Any = None) -> tuple[PodTemplate, list[str]]:
    """A pod template with what one pod asks for, and the quantity problems met on the way."""
    spec = spec if isinstance(spec, dict) else {}
    resources, problems = pod_resources(spec)
    unseen: Resources = {}
    if framework_words:
        # the framework's own words fill in what the pod's Kubernetes shapes do not ask for
        for name, amount in requirements(framework_words, problems).items():
            if name not in resources:
                resources[name] = unseen[name] = amount
    template = PodTemplate(
        metadata=metadata if isinstance(metadata, dict) else {}, spec=spec, resources=resources, unseen=unseen
    )
    return template, problems


def root_expressions(entries: list[tuple[Pointer, dict[str, Any], int]]) -> list[str]:
    """The root-context expressions resolution will evaluate (status byExpression in its runtime form)."""
    found: list[Any] = []
    for _, comp, index in entries:
        found.append(comp.get("instanceIdPath"))
        spec = comp.get("specDefinition")
        if isinstance(spec, dict):
            found.extend(spec.get(k) for k in ("podTemplateSpecPath", "podSpecPath", "metadataPath"))
            fragments = spec.get("fragmentedPodSpecDefinition")
            if isinstance(fragments, dict):
                found.extend(fragments.get(k) for k in FRAGMENT_FIELDS)
        scale = comp.get("scaleDefinition")
        if isinstance(scale, dict):
            found.extend(scale.get(k) for k, _ in SCALE_FIELDS)
        status = comp.get("statusDefinition")
        if index == -1 and isinstance(status, dict):
            found.append(get(status, "phaseDefinition", "path"))
            found.append(get(status, "conditionsDefinition", "path"))
            mappings = status.get("statusMappings")
            for matchers in mappings.values() if isinstance(mappings, dict) else ():
                for matcher in matchers if isinstance(matchers, list) else ():
                    expression = get(matcher, "byExpression", "expression")
                    if isinstance(expression, str):
                        found.append(f"({expression}) | tostring")
    return [e for e in found if isinstance(e, str) and e.strip()]


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


def _pod_from_fragments(pieces: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A PodSpec and metadata assembled from fragment values (containers+container, else resources), and
    the accelerators the resources fragment asks for in the framework's own words (see
    wmaplint.resolve.resources.split_framework_words), which no Kubernetes reading of the pod sees."""
    spec: dict[str, Any] = {}
    metadata: dict[str, Any] = {}
    resources, words = split_framework_words(pieces.get("resourcesPath"))
    containers = (
        [c for c in (pieces.get("containersPath") or []) if isinstance(c, dict)]
        if isinstance(pieces.get("containersPath"), list)
        else []
    )
    if isinstance(pieces.get("containerPath"), dict):
        containers.append(pieces["containerPath"])
    if not containers:
        container: dict[str, Any] = {"name": "main"}
        if isinstance(resources, dict):
            container["resources"] = resources
        if isinstance(pieces.get("imagePath"), str):
            container["image"] = pieces["imagePath"]
        containers = [container]
    spec["containers"] = containers
    if isinstance(pieces.get("schedulerNamePath"), str):
        spec["schedulerName"] = pieces["schedulerNamePath"]
    if isinstance(pieces.get("priorityClassNamePath"), str):
        spec["priorityClassName"] = pieces["priorityClassNamePath"]
    affinity = {
        key: pieces[field]
        for field, key in (("podAffinityPath", "podAffinity"), ("nodeAffinityPath", "nodeAffinity"))
        if isinstance(pieces.get(field), dict)
    }
    if affinity:
        spec["affinity"] = affinity
    if isinstance(pieces.get("resourceClaimsPath"), list):
        spec["resourceClaims"] = pieces["resourceClaimsPath"]
    for field, key in (("labelsPath", "labels"), ("annotationsPath", "annotations")):
        if isinstance(pieces.get(field), dict):
            metadata[key] = pieces[field]
    return spec, metadata, words


def _not_a_count(field: str, component: str, value: Any, index: int) -> str:
    head = f"{field} of {component}: replicas value {_show(value)} at index {index}"
    if isinstance(value, float) and value >= 1.7976931348623157e308:
        return f"{head} is infinite (jq's `infinite`), not a replica count"
    if isinstance(value, float) and math.isnan(value):
        return f"{head} is NaN, not a replica count"
    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
    if numeric or isinstance(value, str) and _GO_INT.fullmatch(value):
        return f"{head} is not a non-negative integer within int32"
    return f"{head} is not a number"


def _show(value: Any) -> str:
    import json

    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def resolve_workload(
    definition: dict[str, Any],
    obj: dict[str, Any],
    *,
    runtime: JqRuntime | None = None,
    with_status: bool = True,
    with_gangs: bool = True,
    references: References | None = None,
) -> Workload:
    """The workload tree of ``obj`` as ``definition`` (a Karta or ResourceInterface dict) describes it;
    ``references`` are objects the workload may name (a TrainJob's runtime, wmaplint.resolve.references).

    Never raises for bad input: problems are findings on the returned Workload.
    """
    from wmaplint.resolve.assumptions import assumptions_for
    from wmaplint.resolve.gang import preview_gangs
    from wmaplint.resolve.status import evaluate_status

    runtime = runtime or default_runtime()
    builder = TreeBuilder(definition if isinstance(definition, Mapping) else {}, obj, runtime, references)
    root = builder.build()
    metadata = get(obj, "metadata")
    workload = Workload(
        api_version=str(get(obj, "apiVersion") or ""),
        kind=str(get(obj, "kind") or ""),
        name=str(get(metadata, "name") or ""),
        namespace=get(metadata, "namespace") if isinstance(get(metadata, "namespace"), str) else None,
        definition_name=str(get(definition, "metadata", "name") or ""),
        root=root,
        components=builder.built,
        findings=builder.findings,
        notes=builder.notes,
    )
    if root is None:
        workload.findings.append(
            Finding(
                rules.JQ_RUNTIME_ERROR, "the definition has no rootComponent", (*STRUCTURE, "rootComponent")
            )
        )
        return workload
    workload.assumptions = assumptions_for(obj, runtime)
    if with_status:
        root_pointer, root_def, _ = builder.entries[0]
        workload.status = evaluate_status(
            root_def.get("statusDefinition"), (*root_pointer, "statusDefinition"), builder.eval
        )
    if with_gangs:
        workload.gangs = preview_gangs(definition, workload, builder.findings)
    return workload


def zero() -> Decimal:
    return Decimal(0)
