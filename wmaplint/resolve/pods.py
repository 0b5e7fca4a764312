"""Attribute live pods to components, instances and replicas with the definition's pod selectors.

Inference as the runtime does it: a definition with exactly one component that has a specDefinition takes
every pod; otherwise the first leaf component (root first, then children in definition order) whose
componentTypeSelector matches wins, and leaves without one are skipped. A type selector matches when its
keyPath yields a non-null value (or, with ``value``, ``<keyPath> == <json value>`` is true) and every
``matchLabels`` entry equals the pod's label. Instance and replica come from the component's (or its
nearest ancestor's) ``componentInstanceSelector.idPath`` and ``replicaSelector.keyPath``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from wmaplint.jq.runtime import JqRuntime, default_runtime
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.findings import PodClaimedTwice, PodInstanceUnknown, PodUnattributed, SelectorNotSingle
from wmaplint.resolve.model import PodAttribution, Workload, resolved_components
from wmaplint.resolve.values import get
from wmaplint.source import to_python

if TYPE_CHECKING:
    from wmaplint.definition.model import Component, Definition, Expr
    from wmaplint.findings import FileFinding
    from wmaplint.source.plain import Json


def pod_name(pod: Json) -> str:
    metadata = get(pod, "metadata")
    name = get(metadata, "name")
    namespace = get(metadata, "namespace")
    text = str(name) if name is not None else "<unnamed pod>"
    return f"{namespace}/{text}" if isinstance(namespace, str) else text


def _selector_text(value: Json) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


class _Selecting:
    """A component as pod attribution sees it: its selectors, and its parent and children by ownerRef."""

    def __init__(self, component: Component):
        self.component = component
        self.name = component.name or ""
        self.children: list[_Selecting] = []
        self.parent: _Selecting | None = None


def _instance_selector(component: Component) -> Expr | None:
    return component.instance_selector_path


def _replica_selector(component: Component) -> Expr | None:
    return component.replica_selector_path


class PodMatcher:
    def __init__(self, definition: Definition, runtime: JqRuntime | None = None, path: str = ""):
        self.runtime = runtime or default_runtime()
        self.path = path
        self.components = [_Selecting(c) for c in resolved_components(definition)]
        by_name = {c.name: c for c in self.components}
        for comp in self.components[1:]:
            parent = by_name.get(comp.component.owner_ref or "")
            if parent is not None and parent is not comp:
                comp.parent = parent
                parent.children.append(comp)
        self.with_spec = [c for c in self.components if c.component.spec_node is not None]
        self.leaves = [c for c in self.components if not c.children]
        self._programs: dict[int, str | None] = {}

    def type_program(self, comp: _Selecting) -> str | None:
        """The program a type selector's keyPath runs on a pod (compared with its value when it has one),
        made once per component: a pod after another asks for the same text."""
        key = id(comp)
        if key not in self._programs:
            component = comp.component
            key_path = component.type_selector_path
            program = None
            if component.type_selector_node is not None and key_path is not None:
                program = key_path.text
                value = component.type_selector_value_node
                if value is not None:
                    program = f"({key_path.text}) == {json.dumps(to_python(value))}"
            self._programs[key] = program
        return self._programs[key]

    def type_matches(self, comp: _Selecting, ev: Evaluator, pod: object) -> bool:
        component = comp.component
        if component.type_selector_node is None:
            return False
        key_path = component.type_selector_path
        what = f"componentTypeSelector of {comp.name}"
        if key_path is not None:
            result = ev.run(key_path, what, self.type_program(comp))
            if result is None:
                return False
            if component.type_selector_value_node is not None:
                if not any(v is True for v in result.outputs):
                    return False
            elif not any(v is not None for v in result.outputs):
                return False
        labels = component.match_labels
        if labels is not None:
            pod_labels = get(pod, "metadata", "labels")
            pod_labels = pod_labels if isinstance(pod_labels, Mapping) else {}
            if any(pod_labels.get(k) != v for k, v in labels.items()):
                return False
        return key_path is not None or labels is not None

    def _single(self, comp: _Selecting, selector: Any, ev: Evaluator, pod: Json) -> str | None:
        """The one non-empty value a pod gives for an instance or replica selector of comp or an ancestor."""
        node: _Selecting | None = comp
        while node is not None and selector(node.component) is None:
            node = node.parent
        if node is None:
            return None
        expr = selector(node.component)
        field = ".".join(str(step) for step in expr.pointer[-2:])  # "componentInstanceSelector.idPath"
        result = ev.run(expr, f"{expr.pointer[-2]} of {node.name}")
        values = [v for v in (result.outputs if result else ()) if v not in (None, "")]
        if len(values) != 1:
            ev.findings.append(SelectorNotSingle(self.path, expr.node.span, field, node.name, len(values),
                                              pod_name(pod)))
            return None
        return _selector_text(values[0])

    def attribute(self, pod: Json, findings: list[FileFinding]) -> PodAttribution:
        ev = Evaluator(self.runtime, pod, findings, self.path)
        name = pod_name(pod)
        if len(self.with_spec) == 1:
            claimed = [self.with_spec[0]]
        else:
            claimed = [leaf for leaf in self.leaves if self.type_matches(leaf, ev, pod)]
        if not claimed:
            return PodAttribution(pod=name, component=None, instance=None, replica=None)
        comp = claimed[0]
        return PodAttribution(
            pod=name,
            component=comp.name,
            instance=self._single(comp, _instance_selector, ev, pod),
            replica=self._single(comp, _replica_selector, ev, pod),
            claimed_by=[c.name for c in claimed],
        )


def attribute_pods(
    definition: Definition, workload: Workload, pods: list[Any], runtime: JqRuntime | None = None
) -> list[PodAttribution]:
    """Attribute every pod; unclaimed and doubly claimed pods become findings of the workload."""
    path = workload.definition_path
    matcher = PodMatcher(definition, runtime, path)
    structure = definition.structure_node or definition.document_node
    attributions: list[PodAttribution] = []
    for pod in pods:
        result = matcher.attribute(pod, workload.findings)
        attributions.append(result)
        if result.component is None:
            unclaimed = PodUnattributed(path, structure.span, result.pod, workload.kind, workload.name)
            workload.findings.append(unclaimed)
        elif len(result.claimed_by) > 1:
            twice = PodClaimedTwice(path, structure.span, result.pod, tuple(result.claimed_by))
            workload.findings.append(twice)
        elif result.instance is not None:
            node = workload.components.get(result.component)
            id_path = node.component.instance_selector_path if node is not None else None
            if (
                node is not None
                and node.multi_instance
                and result.instance not in {i.id for i in node.instances}
            ):
                where = id_path.node if id_path is not None else node.component.node
                known = tuple(i.id for i in node.instances)
                workload.findings.append(
                    PodInstanceUnknown(path, where.span, result.pod, result.instance, node.name, known)
                )
    workload.pods = attributions
    return attributions


def controller_owned(pod: object) -> bool:
    """Whether a controller owns the pod: an ownerReferences entry with ``controller: true``
    (k8s.io/apimachinery pkg/apis/meta/v1 OwnerReference.Controller; metav1.GetControllerOf reads the same).
    A Pod without one is a workload of its own, of the Pod definition."""
    references = get(get(pod, "metadata"), "ownerReferences")
    return isinstance(references, list) and any(
        isinstance(r, Mapping) and r.get("controller") is True for r in references
    )


def pods_from_documents(documents: list[Any]) -> list[Any]:
    """Pods from parsed documents: Pod objects and the items of PodList / List documents."""
    pods: list[Any] = []
    for doc in documents:
        if not isinstance(doc, Mapping):
            continue
        if doc.get("kind") == "Pod":
            pods.append(doc)
        elif isinstance(doc.get("items"), list):
            pods.extend(
                item
                for item in doc["items"]
                if isinstance(item, Mapping) and item.get("kind", "Pod") == "Pod"
            )
    return pods


def owner_objects(documents: list[Any]) -> list[Any]:
    """The objects other than Pods among parsed documents and List items: the owners pods may name."""
    found: list[Any] = []
    for doc in documents:
        if not isinstance(doc, Mapping):
            continue
        listed = doc.get("items")
        items: list[Any] = listed if isinstance(listed, list) else [doc]
        found.extend(item for item in items if isinstance(item, Mapping) and isinstance(item.get("kind"), str)
                     and item.get("kind") not in ("Pod", "List", "PodList"))
    return found
