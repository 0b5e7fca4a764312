"""Schemas of the catalog's target kinds from the bundle shipped in the package: CRDs for custom kinds,
OpenAPI v3 for core kinds."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import jsonschema

from wmaplint.schema.bundle import shipped_bundle


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


def _source(group: str, version: str, kind: str) -> Any:
    """The bundled source serving the GVK: of several releases, the one named after the version."""
    bundle = shipped_bundle()
    assert bundle is not None
    sources = bundle.serving((group, version, kind))
    if not sources:
        raise KeyError((group, version, kind))
    return next((s for s in sources if s.file.endswith(f"_{version}.yaml")), sources[0])


@cache
def schema_for(group: str, version: str, kind: str) -> dict[str, Any]:
    """A JSON Schema (draft 7 compatible) for one GVK, strict about unknown fields (a copy: bundled schema
    dicts are shared)."""
    bundle = shipped_bundle()
    assert bundle is not None
    source = _source(group, version, kind)
    payload = bundle.payload(source)
    if source.format == "openapi":
        name = payload["names"][(group, version, kind)]
        components = copy.deepcopy(payload["components"])
        return _strict({"$ref": f"#/components/schemas/{name}", "components": {"schemas": components}})
    return _strict(copy.deepcopy(payload["raws"][(group, version, kind)]))


@cache
def validator_for(group: str, version: str, kind: str) -> jsonschema.Draft7Validator:
    """A reusable validator (building one per call re-checks the whole schema, which is slow)."""
    return jsonschema.Draft7Validator(schema_for(group, version, kind))
