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
from typing import Any

from wmaplint.resolve import rules
from wmaplint.resolve.jqrun import JqRuntime, default_runtime
from wmaplint.resolve.model import Finding, PodAttribution, Pointer, Workload
from wmaplint.resolve.tree import Evaluator, component_entries, get


def pod_name(pod: Any) -> str:
    metadata = get(pod, "metadata")
    name = get(metadata, "name")
    namespace = get(metadata, "namespace")
    text = str(name) if name is not None else "<unnamed pod>"
    return f"{namespace}/{text}" if isinstance(namespace, str) else text


def _selector_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True)


class _Component:
    def __init__(self, pointer: Pointer, definition: dict[str, Any]):
        self.pointer = pointer
        self.name = str(definition.get("name", ""))
        self.owner = definition.get("ownerRef") if isinstance(definition.get("ownerRef"), str) else None
        self.has_spec = isinstance(definition.get("specDefinition"), dict)
        selector: dict[str, Any] = (
            definition["podSelector"] if isinstance(definition.get("podSelector"), dict) else {}
        )
        self.type_selector = selector.get("componentTypeSelector")
        self.id_path = get(selector, "componentInstanceSelector", "idPath")
        self.replica_path = get(selector, "replicaSelector", "keyPath")
        self.children: list[_Component] = []
        self.parent: _Component | None = None


class PodMatcher:
    def __init__(self, definition: Mapping[str, Any], runtime: JqRuntime | None = None):
        self.runtime = runtime or default_runtime()
        self.components = [_Component(pointer, comp) for pointer, comp, _ in component_entries(definition)]
        by_name = {c.name: c for c in self.components}
        for comp in self.components[1:]:
            parent = by_name.get(comp.owner or "")
            if parent is not None and parent is not comp:
                comp.parent = parent
                parent.children.append(comp)
        self.with_spec = [c for c in self.components if c.has_spec]
        self.leaves = [c for c in self.components if not c.children]

    def _type_matches(self, comp: _Component, ev: Evaluator, pod: Any) -> bool:
        selector = comp.type_selector
        if not isinstance(selector, Mapping):
            return False
        where = (*comp.pointer, "podSelector", "componentTypeSelector")
        key_path = selector.get("keyPath")
        if isinstance(key_path, str) and key_path.strip():
            if "value" in selector:
                program = f"({key_path}) == {json.dumps(selector['value'])}"
                result = ev.run(program, (*where, "keyPath"), f"componentTypeSelector of {comp.name}")
                if result is None or not any(v is True for v in result.outputs):
                    return False
            else:
                result = ev.run(key_path, (*where, "keyPath"), f"componentTypeSelector of {comp.name}")
                if result is None or not any(v is not None for v in result.outputs):
                    return False
        labels = selector.get("matchLabels")
        if isinstance(labels, Mapping):
            pod_labels = get(pod, "metadata", "labels")
            pod_labels = pod_labels if isinstance(pod_labels, Mapping) else {}
            if any(pod_labels.get(k) != _selector_text(v) for k, v in labels.items()):
                return False
        return isinstance(key_path, str) or isinstance(labels, Mapping)

    def _single(
        self, comp: _Component, attribute: str, field: Pointer, ev: Evaluator, pod: Any
    ) -> str | None:
        """The one non-empty value a pod gives for an instance or replica selector of comp or an ancestor."""
        node: _Component | None = comp
        while node is not None and not isinstance(getattr(node, attribute), str):
            node = node.parent
        if node is None:
            return None
        where = (*node.pointer, "podSelector", *field)
        result = ev.run(getattr(node, attribute), where, f"{field[0]} of {node.name}")
        values = [v for v in (result.outputs if result else ()) if v not in (None, "")]
        if len(values) != 1:
            ev.findings.append(
                Finding(
                    rules.SELECTOR_NOT_SINGLE,
                    f"{'.'.join(map(str, field))} of {node.name} gives {len(values)} non-empty value(s) "
                    f"on pod "
                    f"{pod_name(pod)}; exactly one is needed",
                    where,
                )
            )
            return None
        return _selector_text(values[0])

    def attribute(self, pod: Any, findings: list[Finding]) -> PodAttribution:
        ev = Evaluator(self.runtime, pod, findings)
        name = pod_name(pod)
        if len(self.with_spec) == 1:
            claimed = [self.with_spec[0]]
        else:
            claimed = [leaf for leaf in self.leaves if self._type_matches(leaf, ev, pod)]
        if not claimed:
            return PodAttribution(pod=name, component=None, instance=None, replica=None)
        comp = claimed[0]
        return PodAttribution(
            pod=name,
            component=comp.name,
            instance=self._single(comp, "id_path", ("componentInstanceSelector", "idPath"), ev, pod),
            replica=self._single(comp, "replica_path", ("replicaSelector", "keyPath"), ev, pod),
            claimed_by=[c.name for c in claimed],
        )


def attribute_pods(
    definition: Mapping[str, Any], workload: Workload, pods: list[Any], runtime: JqRuntime | None = None
) -> list[PodAttribution]:
    """Attribute every pod; unclaimed and doubly claimed pods become findings on the workload."""
    matcher = PodMatcher(definition, runtime)
    attributions: list[PodAttribution] = []
    for pod in pods:
        result = matcher.attribute(pod, workload.findings)
        attributions.append(result)
        if result.component is None:
            workload.findings.append(
                Finding(
                    rules.POD_UNATTRIBUTED,
                    f"pod {result.pod} is claimed by no component of {workload.kind} {workload.name}",
                    ("spec", "structureDefinition"),
                )
            )
        elif len(result.claimed_by) > 1:
            workload.findings.append(
                Finding(
                    rules.POD_CLAIMED_TWICE,
                    f"pod {result.pod} matches the componentTypeSelector of {', '.join(result.claimed_by)}; "
                    f"KAI takes {result.claimed_by[0]}, and kli describe lists it under each",
                    ("spec", "structureDefinition"),
                )
            )
        elif result.instance is not None:
            node = workload.components.get(result.component)
            if (
                node is not None
                and node.multi_instance
                and result.instance not in {i.id for i in node.instances}
            ):
                workload.findings.append(
                    Finding(
                        rules.POD_UNATTRIBUTED,
                        f"pod {result.pod} names instance {result.instance!r} of {node.name}, "
                        "which the manifest "
                        f"does not have ({', '.join(i.id for i in node.instances) or 'no instances'})",
                        (*node.pointer, "podSelector", "componentInstanceSelector", "idPath"),
                    )
                )
    workload.pods = attributions
    return attributions


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
