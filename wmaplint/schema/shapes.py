"""Kubernetes types recognised by their structure: CRDs inline them, so a PodTemplateSpec is an object with a
`spec` that has `containers`, whatever the schema calls it."""

from __future__ import annotations

from wmaplint.schema.types import ANY_KIND, ARRAY, INTEGER, NULL, NUMBER, OBJECT, STRING, SchemaType, variants

# each shape a definition field may need, as messages name it
SHAPE_NAMES = {
    "pod-template-spec": "a PodTemplateSpec (metadata + spec with containers)",
    "pod-spec": "a PodSpec",
    "object-meta": "pod metadata (ObjectMeta)",
    "string-map": "a map of strings",
    "resource-requirements": "a ResourceRequirements (limits/requests)",
    "containers": "a list of containers",
    "container": "a container",
    "string": "a string",
    "phase": "a string (the phase)",
    "instance-id": "a string id",
    "affinity": "an affinity",
    "resource-claims": "a list of resource claims",
    "replicas": "an integer or a numeric string",
}


def object_variants(t: SchemaType) -> list[SchemaType]:
    return [v for v in variants(t) if v.kind == OBJECT]


def is_open(t: SchemaType) -> bool:
    """Nothing can be said: any, or an object whose members are not declared."""
    return any(
        v.kind == ANY_KIND or (v.kind == OBJECT and not v.properties and v.is_open_object())
        for v in variants(t)
    )


def _has(t: SchemaType, *names: str) -> bool:
    return any(all(n in v.properties for n in names) for v in object_variants(t))


def _is_container(t: SchemaType) -> bool:
    return _has(t, "name", "image") or _has(t, "name", "resources")


def shape_ok(shape: str, t: SchemaType) -> bool:
    """Whether ``t`` may be of ``shape`` (one of ``SHAPE_NAMES``; any other shape takes every type)."""
    if is_open(t):
        return True
    kinds = t.kinds() - {NULL}
    if shape == "pod-template-spec":
        return any(
            "spec" in v.properties and shape_ok("pod-spec", v.properties["spec"].type)
            for v in object_variants(t)
        )
    if shape == "pod-spec":
        return any("containers" in v.properties for v in object_variants(t))
    if shape == "object-meta":
        meta = {"labels", "annotations", "name", "namespace", "generateName", "ownerReferences", "finalizers"}
        return any(not v.properties or set(v.properties) & meta for v in object_variants(t))
    if shape == "string-map":
        return any(
            v.additional is not None and (v.additional.is_any or STRING in v.additional.kinds())
            for v in object_variants(t)
        )
    if shape == "resource-requirements":
        return _has(t, "limits") or _has(t, "requests") or _has(t, "claims")
    if shape == "containers":
        return any(
            v.kind == ARRAY and (v.items is None or is_open(v.items) or _is_container(v.items))
            for v in variants(t)
        )
    if shape == "container":
        return _is_container(t)
    if shape in ("string", "phase", "instance-id"):
        return STRING in kinds or (shape == "instance-id" and bool(kinds & {INTEGER, NUMBER}))
    if shape == "affinity":
        return _has(t, "requiredDuringSchedulingIgnoredDuringExecution") or _has(
            t, "preferredDuringSchedulingIgnoredDuringExecution"
        )
    if shape == "resource-claims":
        return any(
            v.kind == ARRAY and (v.items is None or is_open(v.items) or _has(v.items, "name"))
            for v in variants(t)
        )
    if shape == "replicas":
        return bool(kinds & {INTEGER, NUMBER, STRING})
    return True
