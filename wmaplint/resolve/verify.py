"""Run a definition's pod selectors on the pods the controller would create for a manifest
(``wmaplint.resolve.synthesis``): a component whose type selector claims none of its pods or pods of another
component, an instance selector naming the wrong entry. A selector is run on a synthesized pod only when every
label key it reads is determined on that pod (its value, or its absence, follows from the manifest and the
model); otherwise nothing is said. The gang keys are run by the model of KAI's grouper
(``wmaplint.resolve.grouper``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.jq.runtime import JqInput, JqRuntime
from wmaplint.resolve.evaluate import Evaluator
from wmaplint.resolve.findings import (
    InstanceSelectorMismatch,
    SelectorClaimsNoPod,
    SelectorClaimsOtherPods,
)
from wmaplint.resolve.pods import PodMatcher
from wmaplint.resolve.synthesis import SyntheticPod, synthesize

if TYPE_CHECKING:
    from wmaplint.definition.model import Component, Definition, Expr
    from wmaplint.findings import FileFinding
    from wmaplint.resolve.model import Workload
    from wmaplint.source.plain import Json

PER_INSTANCE = 2  # replicas synthesized per instance: labels differ by replica index only
_KEY = re.compile(r"""\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\.labels\.([A-Za-z_][A-Za-z0-9_]*)""")


@memo.lru_cache(maxsize=4096, pure=True)
def label_keys(text: str) -> frozenset[str] | None:
    """The label keys a selector expression reads, None when it reads labels it does not name (``.[$k]``,
    ``to_entries``) or reads something other than labels."""
    if "labels" not in text:
        return None
    keys = frozenset(a or b for a, b in _KEY.findall(text))
    rest = _KEY.sub("", text)
    if not keys or re.search(r"\.\[|to_entries|keys|\$__loc__|\.\.|getpath|paths", rest):
        return None
    if re.search(r"\.(spec|status|annotations|name|namespace|ownerReferences)\b", rest):
        return None
    return keys


def _source(workload: Workload) -> str:
    model = workload.controller
    return model.pods.source if model is not None and model.pods is not None else "the pod templates"


def type_keys(component: Component) -> frozenset[str] | None:
    keys: set[str] = set(component.match_labels or {})
    if component.type_selector_path is not None:
        read = label_keys(component.type_selector_path.text)
        if read is None:
            return None
        keys |= read
    return frozenset(keys) if keys else None


def _carried(pod: SyntheticPod, keys: frozenset[str]) -> str:
    labels = pod.pod["metadata"]["labels"]
    text = ", ".join(f"{key}={labels[key]!r}" if key in labels else f"no {key}" for key in sorted(keys))
    if any(key not in labels for key in keys):
        written = sorted(set(labels) | (pod.undetermined & pod.listed))
        shown = ", ".join(written[:8]) + (", ..." if len(written) > 8 else "")
        text += f" (the keys its pods carry: {shown or 'none'})"
    return text


class _Verifier:
    def __init__(self, definition: Definition, workload: Workload, runtime: JqRuntime):
        self.definition = definition
        self.workload = workload
        self.pods: list[SyntheticPod] = []
        self.runtime = runtime
        self.matcher = PodMatcher(definition, runtime, workload.definition_path)
        # evaluation failures on synthesized pods: the real ones are reported
        self.scratch: list[FileFinding] = []
        self.findings: list[FileFinding] = []
        self.source = _source(workload)
        self._evaluators: dict[int, Evaluator] = {}
        self._programs: list[str] | None = None

    def _evaluator(self, pod: SyntheticPod) -> Evaluator:
        """The pod's evaluator, its text made once and every type selector's program run on it in one pass:
        each pod is asked by every type-selecting component."""
        found = self._evaluators.get(id(pod))
        if found is None:
            found = self._evaluators[id(pod)] = Evaluator(self.runtime, pod.pod, self.scratch,
                                                          self.workload.definition_path)
            if self._programs is None:
                self._programs = [program for leaf in self._type_selecting()
                                  if (program := self.matcher.type_program(leaf)) is not None]
            found.prefetch(self._programs)
        return found

    def _finding(self, kind: type, where: Any, *values: Any) -> None:
        self.findings.append(kind(self.workload.definition_path, where.span, *values, self.source))

    def checks_anything(self) -> bool:
        """Whether some check below could find something on some pods: a type selector whose label keys are
        told, beside other components with a pod template; an instance selector reading told keys, of a
        component with several instances; a gang key reading told keys. Without one no pod need be made."""
        return bool(self._type_selecting()) or any(
            (found := self._instance_selector(name)) is not None
            and (owner := self.workload.components.get(found[0])) is not None and owner.multi_instance
            and label_keys(found[1].text) is not None
            for name in self.workload.components
        )

    def _type_selecting(self) -> list[Any]:
        if len(self.matcher.with_spec) == 1:
            return []  # the runtime gives every pod to the one component with a pod template
        return [leaf for leaf in self.matcher.leaves
                if leaf.component.type_selector_node is not None and type_keys(leaf.component) is not None]

    def type_selectors(self) -> None:
        for leaf in self._type_selecting():
            keys = type_keys(leaf.component)
            own = [p for p in self.pods if p.component == leaf.name]
            checked = [p for p in self.pods if p.determined(keys)]
            if keys is None or not checked:
                continue
            where = leaf.component.type_selector_node
            claimed = [p for p in checked if self._claims(leaf, p)]
            others = [p for p in claimed if p.component not in (leaf.name, "")]
            if others:
                self._finding(SelectorClaimsOtherPods, where, leaf.name, others[0].component, others[0].name)
            own_checked = [p for p in own if p.determined(keys)]
            if own and len(own_checked) == len(own) and not any(p.component == leaf.name for p in claimed):
                node = self.workload.components.get(leaf.name)
                total = node.pods if node is not None else len(own)
                self._finding(SelectorClaimsNoPod, where, leaf.name, total, _carried(own[0], keys))

    def _claims(self, leaf: Any, pod: SyntheticPod) -> bool:
        return self.matcher.type_matches(leaf, self._evaluator(pod), pod.pod)

    def instance_selectors(self) -> None:
        reported: set[str] = set()
        for pod in self.pods:
            node = self.workload.components.get(pod.component)
            if node is None or pod.component in reported:
                continue
            found = self._instance_selector(pod.component)
            if found is None:
                continue
            owner, expr = found
            owner_node = self.workload.components.get(owner)
            if owner_node is None or not owner_node.multi_instance:
                continue
            if not pod.determined(label_keys(expr.text)):
                continue
            instance = pod.instances.get(owner)
            if instance is None:
                continue
            result = self.runtime.evaluate(expr.text, self._evaluator(pod).input)
            values = [v for v in (result.outputs if result.ok else ()) if v not in (None, "")]
            given = str(values[0]) if len(values) == 1 else None
            if given != instance:
                reported.add(pod.component)
                self._finding(InstanceSelectorMismatch, expr.node, owner, instance, given, pod.name)

    def _instance_selector(self, name: str) -> tuple[str, Expr] | None:
        selecting = next((c for c in self.matcher.components if c.name == name), None)
        seen: set[int] = set()  # ownerRefs may form a cycle, whose components have no pod
        while selecting is not None and selecting.component.instance_selector_path is None:
            if id(selecting) in seen:
                return None
            seen.add(id(selecting))
            selecting = selecting.parent
        if selecting is None or selecting.component.instance_selector_path is None:
            return None
        return selecting.name, selecting.component.instance_selector_path


def verify_selectors(definition: Definition, workload: Workload, obj: Json,
                     runtime: JqRuntime, prepared: JqInput | None = None) -> list[FileFinding]:
    """What the definition's selectors get wrong on the pods the controller creates for ``obj``
    (``prepared``: ``obj`` as the tree's expressions ran on it)."""
    verifier = _Verifier(definition, workload, runtime)
    if not verifier.checks_anything():
        return []  # the pods are not made for nothing: their synthesis is most of what verifying costs
    verifier.pods = synthesize(workload, obj, PER_INSTANCE, runtime, prepared)
    if not verifier.pods:
        return []
    verifier.type_selectors()
    verifier.instance_selectors()
    return verifier.findings
