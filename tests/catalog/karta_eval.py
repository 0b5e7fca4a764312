"""A small, test-only evaluator for Karta definitions, built on the libjq binding.

It mirrors the runtime semantics described in ../shared/FORMAT.md closely enough to check the shipped catalog:
which jq fields are evaluated against the root object (R) or a pod (P), the zip rule for multi-instance
components, status matching (phase, conditions, byExpression) and pod attribution by type selectors.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jq
import yaml

_jq: Any = jq  # the binding ships no type information

CATALOG = Path(__file__).resolve().parents[2] / "catalog"
EXAMPLES = CATALOG / "examples"

SPEC_FIELDS = ("podTemplateSpecPath", "podSpecPath", "metadataPath")
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
SCALE_FIELDS = ("replicasPath", "minReplicasPath", "maxReplicasPath")
STATUS_KEYS = (
    "initializing",
    "running",
    "completed",
    "failed",
    "degraded",
    "suspended",
    "suspending",
    "resuming",
)
# order in which the runtime lists matching statuses
STATUS_ORDER = (
    "resuming",
    "suspending",
    "suspended",
    "running",
    "failed",
    "completed",
    "initializing",
    "degraded",
)


@dataclass(frozen=True)
class JqField:
    """One jq expression inside a definition, with where it sits and what it is evaluated against."""

    where: str
    expr: str
    context: str  # "R" (root workload object) or "P" (a pod)
    kind: str  # "spec", "scale", "instance", "status", "suspend", "selector", "gang"


def load_yaml_documents(path: Path) -> list[Any]:
    with path.open() as fh:
        return list(yaml.safe_load_all(fh))


def definition_files() -> list[Path]:
    return sorted(CATALOG.glob("*.yaml"))


# objects the examples name (a TrainJob's runtime), not workloads of the definition
REFERENCED_SUFFIX = "-runtime.yaml"


def example_files(definition_name: str) -> list[Path]:
    found = (EXAMPLES / definition_name).glob("*.yaml")
    return sorted(p for p in found if not p.name.endswith(REFERENCED_SUFFIX))


def all_examples() -> list[tuple[str, Path]]:
    return [(p.stem, ex) for p in definition_files() for ex in example_files(p.stem)]


@cache
def load_definition(path: Path) -> dict[str, Any]:
    docs = load_yaml_documents(path)
    assert len(docs) == 1, f"{path.name}: expected exactly one document, got {len(docs)}"
    return docs[0]


def components(defn: dict[str, Any]) -> list[dict[str, Any]]:
    structure = defn["spec"]["structureDefinition"]
    return [structure["rootComponent"], *structure.get("childComponents", [])]


def jq_fields(defn: dict[str, Any]) -> Iterator[JqField]:
    for comp in components(defn):
        base = f"component {comp['name']}"
        spec = comp.get("specDefinition") or {}
        for key in SPEC_FIELDS:
            if spec.get(key):
                yield JqField(f"{base}.specDefinition.{key}", spec[key], "R", "spec")
        for key, expr in (spec.get("fragmentedPodSpecDefinition") or {}).items():
            yield JqField(f"{base}.specDefinition.fragmentedPodSpecDefinition.{key}", expr, "R", "spec")
        for key, expr in (comp.get("scaleDefinition") or {}).items():
            yield JqField(f"{base}.scaleDefinition.{key}", expr, "R", "scale")
        if comp.get("instanceIdPath"):
            yield JqField(f"{base}.instanceIdPath", comp["instanceIdPath"], "R", "instance")
        status = comp.get("statusDefinition") or {}
        if status.get("phaseDefinition"):
            yield JqField(f"{base}.phaseDefinition.path", status["phaseDefinition"]["path"], "R", "status")
        if status.get("conditionsDefinition"):
            yield JqField(
                f"{base}.conditionsDefinition.path", status["conditionsDefinition"]["path"], "R", "status"
            )
        for key, matchers in (status.get("statusMappings") or {}).items():
            for i, matcher in enumerate(matchers or []):
                if matcher.get("byExpression"):
                    yield JqField(
                        f"{base}.statusMappings.{key}[{i}].byExpression",
                        matcher["byExpression"]["expression"],
                        "R",
                        "status",
                    )
        suspend = comp.get("suspendDefinition") or {}
        for key in ("suspendActions", "resumeActions"):
            for i, action in enumerate(suspend.get(key, [])):
                yield JqField(f"{base}.{key}[{i}].path", action["path"], "R", "suspend")
        selector = comp.get("podSelector") or {}
        for key, sub in (
            ("componentTypeSelector", "keyPath"),
            ("componentInstanceSelector", "idPath"),
            ("replicaSelector", "keyPath"),
        ):
            if (selector.get(key) or {}).get(sub):
                yield JqField(f"{base}.podSelector.{key}.{sub}", selector[key][sub], "P", "selector")
    gang = (defn["spec"].get("optimizationInstructions") or {}).get("gangScheduling") or {}
    for group in gang.get("podGroups", []):
        for member in group["members"]:
            for i, expr in enumerate(member.get("groupByKeyPaths", [])):
                yield JqField(
                    f"podGroup {group['name']}.{member['componentName']}.groupByKeyPaths[{i}]",
                    expr,
                    "P",
                    "gang",
                )
            for i, expr in enumerate(member.get("filters", [])):
                yield JqField(
                    f"podGroup {group['name']}.{member['componentName']}.filters[{i}]", expr, "P", "gang"
                )


@cache
def compiled(expr: str) -> Any:
    return _jq.compile(expr)


def to_json_value(obj: Any) -> Any:
    """JSON round trip with sorted keys (gojq iterates object keys in sorted order)."""
    return json.loads(json.dumps(obj, sort_keys=True, default=str))


def run(expr: str, value: Any) -> list[Any]:
    return compiled(expr).input_value(value).all()


def instance_ids(comp: dict[str, Any], obj: Any) -> list[str]:
    if comp.get("instanceIdPath"):
        return [str(v) for v in run(comp["instanceIdPath"], obj)]
    return [""]


def spec_and_scale_paths(comp: dict[str, Any]) -> dict[str, str]:
    spec = comp.get("specDefinition") or {}
    paths = {k: spec[k] for k in SPEC_FIELDS if spec.get(k)}
    paths.update({f"fragment.{k}": v for k, v in (spec.get("fragmentedPodSpecDefinition") or {}).items()})
    paths.update({k: v for k, v in (comp.get("scaleDefinition") or {}).items()})
    return paths


def replicas(comp: dict[str, Any], obj: Any) -> list[int]:
    """Replicas per instance, with the CLI's precedence: replicas, else minReplicas, else 1."""
    scale = comp.get("scaleDefinition") or {}
    for key in ("replicasPath", "minReplicasPath"):
        if scale.get(key):
            return [int(v) if v is not None else 1 for v in run(scale[key], obj)]
    return [1] * len(instance_ids(comp, obj))


def has_spec(comp: dict[str, Any]) -> bool:
    return bool(comp.get("specDefinition"))


def pod_templates(comp: dict[str, Any], obj: Any) -> list[dict[str, Any]]:
    """One PodTemplateSpec-shaped object per instance, whichever spec shape the component uses."""
    spec = comp.get("specDefinition") or {}
    if spec.get("podTemplateSpecPath"):
        return [t or {} for t in run(spec["podTemplateSpecPath"], obj)]
    if spec.get("podSpecPath"):
        specs = run(spec["podSpecPath"], obj)
        metas = run(spec["metadataPath"], obj) if spec.get("metadataPath") else [{}] * len(specs)
        return [{"metadata": m or {}, "spec": s or {}} for m, s in zip(metas, specs, strict=False)]
    fragments = spec.get("fragmentedPodSpecDefinition") or {}
    outputs = {k: run(v, obj) for k, v in fragments.items()}
    count = max((len(v) for v in outputs.values()), default=0)
    templates = []
    for i in range(count):

        def pick(key: str, i: int = i) -> Any:
            values = outputs.get(key, [])
            return values[i] if i < len(values) else None

        containers = list(pick("containersPath") or [])
        if pick("containerPath"):
            containers.insert(0, pick("containerPath"))
        if not containers:
            containers = [
                {
                    "name": "main",
                    "image": pick("imagePath") or "unknown",
                    "resources": pick("resourcesPath") or {},
                }
            ]
        templates.append(
            {
                "metadata": {
                    "labels": pick("labelsPath") or {},
                    "annotations": pick("annotationsPath") or {},
                },
                "spec": {"containers": containers},
            }
        )
    return templates


def pod_gpus(pod_spec: dict[str, Any], resource: str = "nvidia.com/gpu") -> int:
    """GPUs of one pod: requests, else limits, summed over the regular containers."""
    total = 0
    for container in pod_spec.get("containers") or []:
        res = container.get("resources") or {}
        value = (res.get("requests") or {}).get(resource, (res.get("limits") or {}).get(resource, 0))
        total += int(value)
    return total


def make_pod(template: dict[str, Any], extra_labels: dict[str, str], name: str, namespace: str) -> Any:
    metadata = dict(template.get("metadata") or {})
    labels = dict(metadata.get("labels") or {})
    labels.update(extra_labels)
    metadata.update({"labels": labels, "name": name, "namespace": namespace})
    return to_json_value(
        {"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": template.get("spec") or {}}
    )


def type_selector_matches(comp: dict[str, Any], pod: Any) -> bool:
    selector = (comp.get("podSelector") or {}).get("componentTypeSelector")
    if not selector:
        return False
    for key, value in (selector.get("matchLabels") or {}).items():
        if (pod["metadata"].get("labels") or {}).get(key) != value:
            return False
    if selector.get("keyPath"):
        if "value" in selector:
            # exactly what the runtime builds, without parentheses, so a keyPath with a top-level `//`, `,`
            # or `|` that changes meaning under `==` shows up as a failed attribution
            out = run(f"{selector['keyPath']} == {json.dumps(selector['value'])}", pod)
            return bool(out) and out[0] is True
        return any(v is not None for v in run(selector["keyPath"], pod))
    return True


def leaves(defn: dict[str, Any]) -> list[dict[str, Any]]:
    comps = components(defn)
    owners = {c.get("ownerRef") for c in comps}
    return [c for c in comps if c["name"] not in owners]


def attribute_pod(defn: dict[str, Any], pod: Any) -> str | None:
    """Which component a pod belongs to: the single spec-bearing component, else the first matching leaf."""
    with_spec = [c for c in components(defn) if has_spec(c)]
    if len(with_spec) == 1:
        return with_spec[0]["name"]
    for comp in leaves(defn):
        if type_selector_matches(comp, pod):
            return comp["name"]
    return None


def matched_statuses(defn: dict[str, Any], obj: Any) -> list[str]:
    status = defn["spec"]["structureDefinition"]["rootComponent"]["statusDefinition"]
    phase = None
    if status.get("phaseDefinition"):
        out = run(status["phaseDefinition"]["path"], obj)
        phase = out[0] if out else None
    conditions: dict[str, dict[str, Any]] = {}
    cond_def = status.get("conditionsDefinition")
    if cond_def:
        type_key = cond_def.get("typeFieldName", "type")
        for arr in run(cond_def["path"], obj):
            for cond in arr or []:
                conditions[str(cond.get(type_key))] = cond

    def matches(matcher: dict[str, Any]) -> bool:
        if "byPhase" in matcher and matcher["byPhase"] != phase:
            return False
        for want in matcher.get("byConditions") or []:
            cond = conditions.get(want["type"])
            if cond is None:
                return False
            if "status" in want and cond.get(cond_def.get("statusFieldName", "status")) != want["status"]:
                return False
            if "reason" in want and cond.get(cond_def.get("reasonFieldName", "reason")) != want["reason"]:
                return False
        if "byExpression" in matcher:
            out = run(f"({matcher['byExpression']['expression']}) | tostring", obj)
            if not out or out[0] != matcher["byExpression"]["expectedResult"]:
                return False
        return True

    mappings = status.get("statusMappings") or {}
    return [key for key in STATUS_ORDER if any(matches(m) for m in mappings.get(key) or [])]


def ancestors(defn: dict[str, Any], comp: dict[str, Any]) -> list[dict[str, Any]]:
    """The owner chain of a component, nearest first (bounded by the number of components)."""
    by_name = {c["name"]: c for c in components(defn)}
    chain: list[dict[str, Any]] = []
    current = comp
    while current.get("ownerRef") in by_name and len(chain) < len(by_name):
        current = by_name[current["ownerRef"]]
        chain.append(current)
    return chain


def ancestor_multiplier(defn: dict[str, Any], comp: dict[str, Any], obj: Any) -> int:
    """Replicas of single-instance ancestors multiply a component's pods (an LWS group holds a leader...)."""
    factor = 1
    for owner in ancestors(defn, comp):
        if owner.get("scaleDefinition") and not owner.get("instanceIdPath"):
            factor *= replicas(owner, obj)[0]
    return factor
