"""The workload's tree against the pods `kubectl get pods -o json` lists, offline: which listed pods belong
to the workload, which component claims each, and the predicted pods and GPUs against the listed ones.

A pod belongs to the workload when its ownerReferences lead to it: directly, through objects given beside
the pods (a Job the JobSet owns), or to an object not given whose kind a component of the definition has or
the controller model says the controller creates, and whose name the controller derives from the
workload's (``<workload>-...``). A pod owned by anything else
does not. A pod without owners belongs when it carries a label the controller writes to name the workload
(``jobset.sigs.k8s.io/jobset-name``) with the workload's name, and does not when it lacks it or names
another; where nothing names the workload's pods, the definition's selectors decide, as the runtime does.
A workload whose own spec.selector selects its pods (a StatefulSet's, a Job's) never has an orphan that
selector does not match: its controller would not adopt it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from wmaplint.jq.runtime import default_runtime
from wmaplint.resolve.findings import GpuTotalDiffers, PodCountDiffers, PodUnattributed
from wmaplint.resolve.model import ComponentCount, PodComparison, Workload
from wmaplint.resolve.pods import PodMatcher, attribute_pods, pod_name
from wmaplint.resolve.quantities import pod_resources
from wmaplint.resolve.synthesis import SyntheticPod, synthesize, tree_pods
from wmaplint.resolve.values import get

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition
    from wmaplint.jq.runtime import JqRuntime
    from wmaplint.source.plain import Json

GPU = "nvidia.com/gpu"
MAX_OWNER_STEPS = 10
BY_SELECTORS = "selectors"
# The kinds whose spec.selector is a metav1.LabelSelector over their own pods (../shared/k8s-openapi), which
# their controller (or, for a Deployment, its ReplicaSets', a superset) must match to adopt an orphan.
_POD_SELECTOR_KINDS = {("apps/v1", kind) for kind in ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet")}
_POD_SELECTOR_KINDS.add(("batch/v1", "Job"))


class Owners:
    """The objects given beside the pods, by uid and by kind and name, to follow ownerReferences through."""

    def __init__(self, objects: list[Any]):
        self.by_uid: dict[str, Any] = {}
        self.by_name: dict[tuple[str, str], Any] = {}
        for obj in objects:
            metadata = get(obj, "metadata")
            uid, name, kind = get(metadata, "uid"), get(metadata, "name"), get(obj, "kind")
            if isinstance(uid, str):
                self.by_uid[uid] = obj
            if isinstance(name, str) and isinstance(kind, str):
                self.by_name[(kind, name)] = obj

    def find(self, ref: Mapping[str, Any]) -> Any:
        uid = ref.get("uid")
        if isinstance(uid, str) and uid in self.by_uid:
            return self.by_uid[uid]
        return self.by_name.get((str(ref.get("kind")), str(ref.get("name"))))


def _owner(obj: Json) -> Mapping[str, Any] | None:
    refs = get(get(obj, "metadata"), "ownerReferences")
    refs = [r for r in refs if isinstance(r, Mapping)] if isinstance(refs, list) else []
    return next((r for r in refs if r.get("controller") is True), refs[0] if refs else None)


def _is_workload(ref: Mapping[str, Any], workload: Workload, uid: object) -> bool:
    if isinstance(uid, str) and isinstance(ref.get("uid"), str):
        return bool(ref["uid"] == uid)
    return ref.get("kind") == workload.kind and ref.get("name") == workload.name


def label_selector_matches(selector: Json, labels: Mapping[str, Any]) -> bool | None:
    """Whether a Kubernetes LabelSelector matches ``labels``; None when it is not one Kubernetes accepts.

    As kubernetes/apimachinery reads it (pkg/apis/meta/v1/helpers.go LabelSelectorAsSelector, and
    pkg/labels/selector.go Requirement.Matches): a null selector matches nothing, an empty one everything;
    each matchLabels entry is an In of its one value, ANDed with every matchExpressions requirement: In (the
    key present with one of the values), NotIn (the key absent, or present with none of the values), Exists,
    DoesNotExist. In and NotIn need values, Exists and DoesNotExist none; another operator is an error."""
    if selector is None:
        return False
    if not isinstance(selector, Mapping):
        return None
    match_labels = selector.get("matchLabels") or {}
    expressions = selector.get("matchExpressions") or []
    if not isinstance(match_labels, Mapping) or not isinstance(expressions, list):
        return None
    requirements: list[tuple[Any, Any, Any]] = [(k, "In", [v]) for k, v in match_labels.items()]
    for expression in expressions:
        if not isinstance(expression, Mapping):
            return None
        key, operator = expression.get("key"), expression.get("operator")
        requirements.append((key, operator, expression.get("values") or []))
    matched = True
    for key, operator, values in requirements:
        # keys and values are strings in the API (a YAML number there is refused, not read as its text)
        if not isinstance(key, str) or not isinstance(values, list):
            return None
        if not all(isinstance(value, str) for value in values):
            return None
        if operator in ("In", "NotIn"):
            if not values:
                return None
            held = key in labels and labels[key] in values
            matched = matched and (held if operator == "In" else not held)
        elif operator in ("Exists", "DoesNotExist"):
            if values:
                return None
            matched = matched and ((key in labels) == (operator == "Exists"))
        else:
            return None
    return matched


def belongs(pod: Json, workload: Workload, uid: Any, owners: Owners,
            selector: Json | None = None) -> str | None:
    """How ``pod`` is found to be of the workload ("owner", "owner name", "labels", BY_SELECTORS: not
    known, the selectors decide), or None when it is not of the workload. ``selector``: the workload's own
    LabelSelector over its pods (``pod_selector``; None: it has none), which an orphan must match."""
    ref = _owner(pod)
    steps = 0
    while ref is not None and steps < MAX_OWNER_STEPS:
        steps += 1
        if _is_workload(ref, workload, uid):
            return "owner"
        known = owners.find(ref)
        if known is None:
            kinds = created_kinds(workload)
            name = str(ref.get("name") or "")
            if ref.get("kind") in kinds and (name == workload.name or name.startswith(f"{workload.name}-")):
                return "owner name"
            return None
        ref = _owner(known)
    if steps:
        return None  # owned by something that does not lead to the workload
    if workload.kind == "Pod" and workload.api_version == "v1":
        return "itself" if _is_the_pod(pod, workload) else None
    labels = get(get(pod, "metadata"), "labels")
    labels = labels if isinstance(labels, Mapping) else {}
    if selector is not None and label_selector_matches(selector, labels) is False:
        return None  # no controller of the workload adopts it; a selector Kubernetes refuses decides nothing
    keys = workload_label_keys(workload)
    if keys:
        return "labels" if any(labels.get(key) == workload.name for key in keys) else None
    # Without an owner or a label naming the workload, the labels the controller writes decide: it copies
    # its template's labels onto every pod it makes (a ReplicaSet or Job adopts an orphan its selector
    # matches), and adds its own keys. A pod with every label of one template is of the workload; one with
    # none of them and none of the controller's keys is not; between the two, the definition's selectors do.
    templates = _template_labels(workload)
    if any(all(labels.get(k) == v for k, v in template.items()) for template in templates):
        return "labels"
    written = controller_keys(workload)
    carries = any(labels.get(k) == v for template in templates for k, v in template.items()) or any(
        key in labels for key in written)
    if (templates or written) and not carries:
        return None
    return BY_SELECTORS


def _is_the_pod(pod: Any, workload: Workload) -> bool:
    """Whether the listed pod is the Pod the manifest declares: a Pod is its own workload, the same object by
    its name (and namespace where both give one)."""
    metadata = get(pod, "metadata")
    namespace = get(metadata, "namespace")
    return get(metadata, "name") == workload.name and (
        namespace is None or workload.namespace is None or namespace == workload.namespace)


def _template_labels(workload: Workload) -> list[dict[str, str]]:
    """The labels of each pod template of the tree that has some."""
    found: list[dict[str, str]] = []
    for node in workload.components.values():
        for inst in node.instances:
            labels = get(inst.template.metadata, "labels") if inst.template is not None else None
            if isinstance(labels, Mapping) and labels:
                found.append({str(k): str(v) for k, v in labels.items()})
    return found


def controller_keys(workload: Workload) -> set[str]:
    """The label keys the controller model says the workload's controller writes on its pods."""
    model = workload.controller
    return set(model.pods.labels) if model is not None and model.pods is not None else set()


def pod_selector(workload: Workload, obj: Json) -> Json | None:
    """The workload's own LabelSelector over its pods, for the kinds that have one; None when the kind has
    none or the manifest gives none (a Job's is set by the API server, which the pods carry)."""
    if (workload.api_version, workload.kind) not in _POD_SELECTOR_KINDS:
        return None
    selector: Json | None = get(get(obj, "spec"), "selector")
    return selector


def pods_of(workload: Workload, obj: Json, pods: list[Any], owners: Owners) -> set[int]:
    """The ids of the pods found (by owner or label) to be of the workload."""
    uid = get(get(obj, "metadata"), "uid")
    selector = pod_selector(workload, obj)
    return {id(pod) for pod in pods
            if belongs(pod, workload, uid, owners, selector) not in (None, BY_SELECTORS)}


def created_kinds(workload: Workload) -> set[str]:
    """The kinds of the objects the workload's controllers create: its components' and the model's."""
    kinds = {node.kind.kind for node in workload.components.values() if node.kind is not None}
    if workload.controller is not None:
        kinds |= {kind for _, kind in workload.controller.created_kinds()}
    return kinds


def workload_label_keys(workload: Workload) -> list[str]:
    """The labels the controller writes on every pod with the workload's name as the value."""
    model = workload.controller
    if model is None or model.pods is None:
        return []
    return [label.key for label in model.pods.labels.values()
            if label.role == "workload" and label.derive == ".metadata.name" and not label.on]


def _gpus(pod: Json) -> Decimal:
    resources, _ = pod_resources(get(pod, "spec"))
    return resources.get(GPU, Decimal(0))


def compare_pods(definition: Definition, workload: Workload, obj: Any, pods: list[Any], owners: Owners,
                 runtime: JqRuntime | None = None, taken: set[int] | None = None) -> list[Any]:
    """Attribute the listed pods of the workload and compare them with its tree; the comparison is set on
    the workload and its mismatches join its findings. Returns the pods it took (``taken``: ids of pods an
    earlier workload of the run took, which it leaves)."""
    taken = taken if taken is not None else set()
    uid = get(get(obj, "metadata"), "uid")
    selector = pod_selector(workload, obj)
    how: dict[int, str] = {}
    foreign: list[str] = []
    for pod in pods:
        found = belongs(pod, workload, uid, owners, selector) if id(pod) not in taken else None
        if found is None:
            foreign.append(pod_name(pod))
        else:
            how[id(pod)] = found
    candidates = [pod for pod in pods if id(pod) in how]
    attributions = attribute_pods(definition, workload, candidates, runtime)
    kept, keep_pods = [], []
    for pod, attribution in zip(candidates, attributions, strict=True):
        if how[id(pod)] == BY_SELECTORS and attribution.component is None:
            foreign.append(attribution.pod)  # nothing says it is of the workload, and no selector claims it
            workload.findings = [f for f in workload.findings
                              if not (isinstance(f, PodUnattributed) and f.pod == attribution.pod)]
            continue
        kept.append(attribution)
        keep_pods.append(pod)
    workload.pods = kept
    runtime = runtime or default_runtime()
    predicted = tree_pods(workload, obj, None, runtime)
    uncounted = _uncounted(definition, workload, obj, runtime)
    predicted.extend(uncounted)
    comparison = PodComparison(
        predicted=workload.total_pods + len(uncounted),
        listed=len(kept),
        predicted_gpus=workload.total_resources.get(GPU, Decimal(0)) + sum(
            (_gpus(p.pod) for p in uncounted), Decimal(0)),
        listed_gpus=sum((_gpus(p) for p in keep_pods), Decimal(0)),
        belonging={a.pod: how[id(p)] for a, p in zip(kept, keep_pods, strict=True)},
        unclaimed=[a.pod for a in kept if a.component is None],
        claimed_twice=[a.pod for a in kept if len(a.claimed_by) > 1],
        foreign=foreign,
    )
    comparison.components = _counts(workload, predicted, kept)
    workload.comparison = comparison
    _findings(definition, workload, comparison)
    return keep_pods


def _uncounted(definition: Definition, workload: Workload, obj: Any, runtime: JqRuntime
               ) -> list[SyntheticPod]:
    """The pods the controller model says are made from a template of the controller's own (a preset's: an
    LLMInferenceService's scheduler), which the tree cannot count: the manifest holds no template for them.
    Each is the prediction of the one component whose selectors claim it and whose instances have none."""
    found: list[SyntheticPod] = []
    if workload.controller is None:
        return found
    matcher = PodMatcher(definition, runtime, workload.definition_path)
    for pod in synthesize(workload, obj, None, runtime):
        if pod.component:
            continue
        claimed = matcher.attribute(pod.pod, []).claimed_by
        node = workload.components.get(claimed[0]) if len(claimed) == 1 else None
        if node is not None and not any(inst.template is not None for inst in node.instances):
            pod.component = node.name
            found.append(pod)
    return found


def _counts(workload: Workload, predicted: list[Any], kept: list[Any]) -> list[ComponentCount]:
    expected = Counter(p.component for p in predicted)
    listed = Counter(a.component for a in kept if a.component is not None)
    expected_inst = Counter((p.component, p.instance) for p in predicted
                            if workload.components[p.component].multi_instance)
    listed_inst = Counter((a.component, a.instance) for a in kept if a.component in workload.components
                          and workload.components[a.component].multi_instance)
    counts: list[ComponentCount] = []
    for name, node in workload.components.items():
        if name not in expected and name not in listed:
            continue
        counts.append(ComponentCount(name, "", expected[name], listed[name]))
        if node.multi_instance:
            # a pod in no instance (its instance selector gave nothing) counts in the component's row only
            known = {i.id for i in node.instances}
            ids = [i.id for i in node.instances] + sorted(
                {str(i) for (c, i) in listed_inst if c == name and i is not None} - known)
            counts.extend(ComponentCount(name, i, expected_inst[(name, i)], listed_inst[(name, i)])
                          for i in ids)
    return counts


def _findings(definition: Definition, workload: Workload, comparison: PodComparison) -> None:
    path = workload.definition_path
    structure = definition.structure_node or definition.document_node
    for count in comparison.components:
        if count.predicted == count.listed:
            continue
        node = workload.components[count.component]
        where = node.component.name_node or node.component.node
        which = ""
        if count.predicted == 0:  # every listed pod is one too many: name them
            extra = [a.pod for a in workload.pods if a.component == count.component
                     and (not count.instance or a.instance == count.instance)]
            which = ", ".join(extra[:5])
        workload.findings.append(PodCountDiffers(path, where.span, count.component, count.instance,
                                              count.predicted, count.listed, which))
    if comparison.predicted_gpus != comparison.listed_gpus:
        workload.findings.append(GpuTotalDiffers(path, structure.span, workload.kind, workload.name,
                                              comparison.predicted_gpus, comparison.listed_gpus))
