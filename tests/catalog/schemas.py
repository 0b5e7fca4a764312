"""Schemas of the catalog's target kinds from ../shared: CRDs for custom kinds, OpenAPI v3 for core kinds."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

CORE_OPENAPI_FILES = {"": "api__v1_openapi.json", "apps": "apis__apps__v1_openapi.json",
                      "batch": "apis__batch__v1_openapi.json"}


def _strict(schema: Any) -> Any:
    """Make a schema strict in place: objects with declared properties reject unknown keys (like API-server
    pruning, but loud), so a misspelt field in an example fails the test instead of vanishing."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if ("properties" in node and "additionalProperties" not in node
                    and not node.get("x-kubernetes-preserve-unknown-fields")):
                node["additionalProperties"] = False
            if "required" in node and isinstance(node.get("properties"), dict):
                # the API server applies defaults before validating, so a defaulted field is never missing
                props = node["properties"]
                node["required"] = [k for k in node["required"] if "default" not in props.get(k, {})]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return schema


@cache
def _crd_index(shared: Path) -> dict[tuple[str, str, str], Path]:
    index = {}
    for path in sorted((shared / "crds").rglob("*.yaml")):
        for doc in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader):
            if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
                continue
            spec = doc["spec"]
            for version in spec["versions"]:
                index[(spec["group"], version["name"], spec["names"]["kind"])] = path
    return index


@cache
def schema_for(shared: Path, group: str, version: str, kind: str) -> dict[str, Any]:
    """A JSON Schema (draft 7 compatible) for one GVK, strict about unknown fields."""
    if group in CORE_OPENAPI_FILES:
        doc = json.loads((shared / "k8s-openapi" / CORE_OPENAPI_FILES[group]).read_text())
        api_group = group or "core"
        name = f"io.k8s.api.{api_group}.{version}.{kind}"
        return _strict({"$ref": f"#/components/schemas/{name}", "components": doc["components"]})
    path = _crd_index(shared)[(group, version, kind)]
    for doc in yaml.load_all(path.read_text(), Loader=yaml.CSafeLoader):
        if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
            for v in doc["spec"]["versions"]:
                if v["name"] == version and doc["spec"]["names"]["kind"] == kind:
                    return _strict(v["schema"]["openAPIV3Schema"])
    raise KeyError((group, version, kind))
