"""Schemas of the catalog's target kinds from ../shared: CRDs for custom kinds, OpenAPI v3 for core kinds."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml

CORE_OPENAPI_FILES = {
    "": "api__v1_openapi.json",
    "apps": "apis__apps__v1_openapi.json",
    "batch": "apis__batch__v1_openapi.json",
}


def _strict(schema: Any) -> Any:
    """Make a schema strict in place: objects with declared properties reject unknown keys (like API-server
    pruning, but loud), so a misspelt field in an example fails the test instead of vanishing."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if (
                "properties" in node
                and "additionalProperties" not in node
                and not node.get("x-kubernetes-preserve-unknown-fields")
            ):
                node["additionalProperties"] = False
            if "required" in node and isinstance(node.get("properties"), dict):
                # the API server applies defaults before validating, so a defaulted field is never missing
                props = node["properties"]
                node["required"] = [k for k in node["required"] if "default" not in props.get(k, {})]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return schema


def _crd_files(shared: Path, group: str) -> list[Path]:
    """CRD files for a group: ../shared/crds keeps one directory per API group."""
    directory = shared / "crds" / group
    root = directory if directory.is_dir() else shared / "crds"
    return sorted(root.rglob("*.yaml"))


@cache
def schema_for(shared: Path, group: str, version: str, kind: str) -> dict[str, Any]:
    """A JSON Schema (draft 7 compatible) for one GVK, strict about unknown fields."""
    if group in CORE_OPENAPI_FILES:
        doc = json.loads((shared / "k8s-openapi" / CORE_OPENAPI_FILES[group]).read_text())
        api_group = group or "core"
        name = f"io.k8s.api.{api_group}.{version}.{kind}"
        return _strict({"$ref": f"#/components/schemas/{name}", "components": doc["components"]})
    for path in _crd_files(shared, group):
        text = path.read_text()
        if f"kind: {kind}\n" not in text:
            continue  # cheap pre-filter: these files are large
        for doc in yaml.load_all(text, Loader=yaml.CSafeLoader):
            if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                continue
            if doc["spec"]["group"] != group or doc["spec"]["names"]["kind"] != kind:
                continue
            for v in doc["spec"]["versions"]:
                if v["name"] == version:
                    return _strict(v["schema"]["openAPIV3Schema"])
    raise KeyError((group, version, kind))


@cache
def validator_for(shared: Path, group: str, version: str, kind: str) -> jsonschema.Draft7Validator:
    """A reusable validator (building one per call re-checks the whole schema, which is slow)."""
    return jsonschema.Draft7Validator(schema_for(shared, group, version, kind))
