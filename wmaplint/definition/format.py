"""The definition format as a JSON Schema (draft 2020-12), written from the format reference.

This module is the single source of ``schemas/definition.schema.json`` (``python -m
wmaplint.definition.format`` writes it; a test keeps the file current). The structural check walks this schema
over positioned nodes, so the descriptions here double as the hover text of the language server.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

SCHEMA_ID = "https://wmaplint.dev/schemas/definition.schema.json"


def _str(description: str, **extra: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **extra}


def _jq(description: str, context: str) -> dict[str, Any]:
    where = "the root workload object" if context == "root" else "a Pod"
    return {"type": "string", "description": f"{description} (jq, evaluated against {where})",
            "x-wmaplint-jq": context}


def _obj(description: str, properties: dict[str, Any], required: tuple[str, ...] = (),
         **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "type": "object",
        "description": description,
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = list(required)
    schema.update(extra)
    return schema


def _list(description: str, items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "description": description, "items": items, **extra}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


STATUS_KEYS = ("initializing", "running", "completed", "failed", "degraded", "suspended", "suspending",
               "resuming")

_DEFS: dict[str, Any] = {
    "GroupVersionKind": _obj(
        "Group, version and kind of a Kubernetes object; the core group is written as an empty string.",
        {
            "group": _str("API group, \"\" for the core group."),
            "version": _str("API version, for example v1 or v1alpha2."),
            "kind": _str("Kind, for example JobSet."),
        },
        ("group", "version", "kind"),
    ),
    "SpecDefinition": _obj(
        "Where the pod template or pod spec of this component lives; use exactly one of podTemplateSpecPath, "
        "podSpecPath and fragmentedPodSpecDefinition.",
        {
            "podTemplateSpecPath": _jq("Yields PodTemplateSpec objects ({metadata, spec}), one per "
                                       "instance", "root"),
            "podSpecPath": _jq("Yields PodSpec objects, one per instance", "root"),
            "metadataPath": _jq("Yields the pod metadata kept apart from the PodSpec; goes with "
                                "podSpecPath", "root"),
            "fragmentedPodSpecDefinition": _ref("FragmentedPodSpecDefinition"),
        },
    ),
    "FragmentedPodSpecDefinition": _obj(
        "Pod fields that the workload's CRD keeps flattened; fragments are merged by instance index.",
        {
            "schedulerNamePath": _jq("Yields the scheduler name", "root"),
            "labelsPath": _jq("Yields the pod labels (string map)", "root"),
            "annotationsPath": _jq("Yields the pod annotations (string map)", "root"),
            "resourcesPath": _jq("Yields a ResourceRequirements object", "root"),
            "resourceClaimsPath": _jq("Yields the pod's resource claims (DRA)", "root"),
            "podAffinityPath": _jq("Yields a PodAffinity object", "root"),
            "nodeAffinityPath": _jq("Yields a NodeAffinity object", "root"),
            "containersPath": _jq("Yields a list of Containers", "root"),
            "containerPath": _jq("Yields a single Container", "root"),
            "priorityClassNamePath": _jq("Yields the priority class name", "root"),
            "imagePath": _jq("Yields the container image", "root"),
        },
    ),
    "ScaleDefinition": _obj(
        "Replica counts of this component, one value per instance (numbers or numeric strings).",
        {
            "replicasPath": _jq("Current or desired replicas", "root"),
            "minReplicasPath": _jq("Minimum replicas (autoscaling, elastic training)", "root"),
            "maxReplicasPath": _jq("Maximum replicas", "root"),
        },
    ),
    "StatusDefinition": _obj(
        "How to read the workload's status; only read on the root component.",
        {
            "phaseDefinition": _obj(
                "Where the phase string lives.", {"path": _jq("Yields the phase; the first output is "
                                                              "used", "root")},
                ("path",),
            ),
            "conditionsDefinition": _obj(
                "Where the conditions list lives and how its entries are shaped.",
                {
                    "path": _jq("Yields arrays of condition objects", "root"),
                    "typeFieldName": _str("Key of the condition type.", default="type"),
                    "statusFieldName": _str("Key of the condition status.", default="status"),
                    "messageFieldName": _str("Key of the condition message.", default="message"),
                    "reasonFieldName": _str("Key of the condition reason; reason matchers need "
                                            "it.", default="reason"),
                },
                ("path",),
            ),
            "statusMappings": _obj(
                "For each platform status, the matchers that select it: entries are ORed, the fields of one "
                "entry are ANDed.",
                {key: _list(f"Matchers for the {key} status.", _ref("StatusMatcher")) for key in STATUS_KEYS},
            ),
        },
        ("statusMappings",),
    ),
    "StatusMatcher": _obj(
        "One matcher; all fields set are ANDed. An empty matcher always matches.",
        {
            "byPhase": _str("Equals the phase (first output of phaseDefinition.path)."),
            "byConditions": _list(
                "Conditions that must all be present with the given status and reason.",
                _obj(
                    "A condition that must be present.",
                    {
                        "type": _str("Condition type."),
                        "status": _str("Condition status: True, False or Unknown."),
                        "reason": _str("Condition reason; needs reasonFieldName."),
                    },
                    ("type",),
                ),
            ),
            "byExpression": _obj(
                "A jq expression whose first output, as a string, must equal expectedResult.",
                {
                    "expression": _jq("Evaluated as (<expression>) | tostring; the first output is "
                                      "compared", "root"),
                    "expectedResult": _str("The expected output as text: \"true\", \"3\", \"Running\"."),
                },
                ("expression", "expectedResult"),
            ),
        },
    ),
    "SuspendDefinition": _obj(
        "How to suspend and resume the workload by writing values at paths.",
        {
            "suspendActions": _list("Applied in order to suspend.", _ref("SuspendAction"), minItems=1),
            "resumeActions": _list("Applied in order to resume.", _ref("SuspendAction"), minItems=1),
        },
        ("suspendActions", "resumeActions"),
    ),
    "SuspendAction": _obj(
        "Write a JSON value at a path.",
        {
            "path": _jq("The field to write; must be an assignable path", "root"),
            "value": _str("The JSON-encoded value to write: \"true\", \"0\", \"\\\"paused\\\"\", \"null\"."),
        },
        ("path", "value"),
    ),
    "PodSelector": _obj(
        "How running pods are attributed to this component, its instances and replicas.",
        {
            "componentTypeSelector": _obj(
                "Which pods belong to this component: keyPath exists (or equals value), or all matchLabels "
                "match.",
                {
                    "keyPath": _jq("A pod belongs here if this yields a non-null value (or equals value)",
                                   "pod") | {"minLength": 1},
                    "value": _str("The value keyPath must equal (the runtime tests <keyPath> == <value>)."),
                    "matchLabels": {
                        "type": "object",
                        "description": "Pod labels that must all equal these values.",
                        "additionalProperties": {"type": "string"},
                        "minProperties": 1,
                    },
                },
            ),
            "componentInstanceSelector": _obj(
                "Which instance a pod belongs to; goes with instanceIdPath.",
                {"idPath": _jq("Yields the pod's instance id, one of the instanceIdPath outputs", "pod")},
                ("idPath",),
            ),
            "replicaSelector": _obj(
                "Which replica (group index) a pod belongs to.",
                {"keyPath": _jq("Yields the pod's replica index or group", "pod")},
                ("keyPath",),
            ),
        },
    ),
    "Component": _obj(
        "A component of the workload: the root object itself or a child (a sub-object or a logical group).",
        {
            "name": _str("Unique name of the component."),
            "kind": _ref("GroupVersionKind"),
            "ownerRef": _str("Name of the parent component (children only)."),
            "specDefinition": _ref("SpecDefinition"),
            "scaleDefinition": _ref("ScaleDefinition"),
            "statusDefinition": _ref("StatusDefinition"),
            "suspendDefinition": _ref("SuspendDefinition"),
            "instanceIdPath": _jq("Yields one id per instance of a multi-instance component", "root"),
            "podSelector": _ref("PodSelector"),
        },
        ("name",),
    ),
    "Topology": _obj(
        "Topology-aware scheduling constraint.",
        {
            "topologyName": _str("Name of the topology resource."),
            "preferredTopologyLevel": _str("Preferred topology level (a node label key)."),
            "requiredTopologyLevel": _str("Required topology level (a node label key)."),
        },
        ("topologyName", "preferredTopologyLevel", "requiredTopologyLevel"),
    ),
}

_GANG = _obj(
    "Gang-scheduling hints for schedulers.",
    {
        "podGroups": _list(
            "Alpha grouping (deprecated in favour of podGroup).",
            _obj(
                "A gang.",
                {
                    "name": _str("Group name, appended to the scheduler's PodGroup name."),
                    "members": _list(
                        "Components whose pods form the gang.",
                        _obj(
                            "A gang member.",
                            {
                                "componentName": _str("Name of a component."),
                                "groupByKeyPaths": _list(
                                    "Values that split pods into separate gangs.", _jq("One value per "
                                                                                       "pod", "pod"),
                                    **{"x-kubernetes-list-type": "set"},
                                ),
                                "filters": _list(
                                    "All must yield true for the pod to take part.", _jq("A boolean per "
                                                                                         "pod", "pod"),
                                    **{"x-kubernetes-list-type": "set"},
                                ),
                                "groupByExpressions": _list(
                                    "Experimental CEL grouping (unreleased upstream).",
                                    _str("A CEL expression evaluated against the Pod."),
                                ),
                            },
                            ("componentName",),
                        ),
                        **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["componentName"]},
                    ),
                },
                ("name", "members"),
            ),
            **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
        ),
        "podGroup": _obj(
            "Gang grouping v2: one PodGroup with optional sub-groups and topology.",
            {
                "name": _str("Suffix of the scheduler PodGroup name."),
                "subGroups": _list(
                    "Component subtrees that form sub-groups with their own min-available.",
                    _obj(
                        "A sub-group.",
                        {"componentName": _str("Name of a component."), "topology": _ref("Topology")},
                        ("componentName",),
                    ),
                    **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["componentName"]},
                ),
                "topology": _ref("Topology"),
            },
            ("name",),
        ),
    },
)

DEFINITION_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "Karta workload definition",
    "description": "Describes, for one Kubernetes workload kind, where its pod templates, replica counts, "
    "status and gang-scheduling groups live, as jq expressions.",
    "type": "object",
    "properties": {
        "apiVersion": {"type": "string", "enum": ["run.ai/v1alpha1", "optimization.nvidia.com/v1alpha1"],
                       "description": "run.ai/v1alpha1 (legacy: optimization.nvidia.com/v1alpha1)."},
        "kind": {"type": "string", "enum": ["Karta", "ResourceInterface"],
                 "description": "Karta (legacy: ResourceInterface)."},
        "metadata": {"type": "object", "description": "Object metadata; name by convention "
                     "<group-with-dashes>-<kind>-<version>.", "properties": {"name": _str("Definition "
                                                                                          "name.")}},
        "spec": _obj(
            "The definition.",
            {
                "structureDefinition": _obj(
                    "The component tree of the workload.",
                    {
                        "rootComponent": _ref("Component"),
                        "childComponents": _list(
                            "Child components; each names its parent in ownerRef.", _ref("Component"),
                            **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"]},
                        ),
                        "additionalChildKinds": _list(
                            "Other kinds the workload creates that are not modelled as components.",
                            _ref("GroupVersionKind"),
                            **{"x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["kind"]},
                        ),
                    },
                    ("rootComponent",),
                ),
                "optimizationInstructions": _obj(
                    "Hints for schedulers and optimizers.", {"gangScheduling": _GANG},
                ),
            },
            ("structureDefinition",),
        ),
        "status": {"type": "object", "description": "Written by the operator; not part of a definition."},
    },
    "required": ["apiVersion", "kind", "spec"],
    "$defs": _DEFS,
}


def schema_json() -> str:
    return json.dumps(DEFINITION_SCHEMA, indent=2, sort_keys=False) + "\n"


SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schemas" / "definition.schema.json"

if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_FILE
    target.write_text(schema_json(), encoding="utf-8")
