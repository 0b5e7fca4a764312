"""The definition format as a JSON Schema (draft 2020-12), written from the table of its fields.

This module is the single source of ``schemas/definition.schema.json`` (``python -m
wmaplint.definition.format`` writes it; a test keeps the file current). The fields, their descriptions and
what the analyses read of them live in ``wmaplint.definition.fields``; the structure analysis walks this
schema over positioned nodes, and its descriptions are the hover text of the language server.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from wmaplint.definition.fields import CONTEXTS, FIELDS_OF, OBJECTS, ROOT_OBJECT, FormatField, FormatObject
from wmaplint.schema.raw import RefResolver, definitions

SCHEMA_ID = "https://wmaplint.dev/schemas/definition.schema.json"


def _string(f: FormatField, description: str) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    if f.values:
        schema["enum"] = list(f.values)
    if f.jq is not None:
        schema["description"] = f"{description} (jq, evaluated against {CONTEXTS[f.jq.context]})"
        schema["x-wmaplint-jq"] = f.jq.context
    else:
        schema["description"] = description
    if f.min_size:
        schema["minLength"] = f.min_size
    if f.default is not None:
        schema["default"] = f.default
    return schema


def _value(name: str) -> dict[str, Any]:
    """The schema of a value that is the object ``name``: a reference to a shared object, else the object."""
    return {"$ref": f"#/$defs/{name}"} if OBJECTS[name].shared else _object(OBJECTS[name])


def _field(f: FormatField) -> dict[str, Any]:
    if f.type == "string":
        return _string(f, f.description)
    if f.type == "object":
        return _value(f.holds) if f.holds else {"type": "object", "description": f.description}
    if f.type == "map":
        schema: dict[str, Any] = {"type": "object", "description": f.description,
                                  "additionalProperties": {"type": "string"}}
        if f.min_size:
            schema["minProperties"] = f.min_size
        return schema
    assert f.type == "array", f.type
    items = _value(f.holds) if f.holds else _string(f, f.entry)
    schema = {"type": "array", "description": f.description, "items": items}
    if f.min_size:
        schema["minItems"] = f.min_size
    if f.list_type:
        schema["x-kubernetes-list-type"] = f.list_type
    if f.list_keys:
        schema["x-kubernetes-list-map-keys"] = list(f.list_keys)
    return schema


def _properties(name: str) -> dict[str, Any]:
    return {key: _field(f) for key, f in FIELDS_OF[name].items()}


def _required(name: str) -> list[str]:
    return [key for key, f in FIELDS_OF[name].items() if f.required]


def _object(o: FormatObject) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "description": o.description,
                              "properties": _properties(o.name)}
    if o.closed:
        schema["additionalProperties"] = False
    required = _required(o.name)
    if required:
        schema["required"] = required
    return schema


DEFINITION_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "Karta workload definition",
    "description": OBJECTS[ROOT_OBJECT].description,
    "type": "object",
    "properties": _properties(ROOT_OBJECT),
    "required": _required(ROOT_OBJECT),
    "$defs": {o.name: _object(o) for o in OBJECTS.values() if o.shared},
}

# The schema's references to its own shared objects (``#/$defs/<name>``), for ``schema.raw.follow``.
FORMAT_REFS: RefResolver = definitions(DEFINITION_SCHEMA["$defs"], ("#/$defs/",))


def schema_json() -> str:
    return json.dumps(DEFINITION_SCHEMA, indent=2, sort_keys=False) + "\n"


SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schemas" / "definition.schema.json"

if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_FILE
    target.write_text(schema_json(), encoding="utf-8")
