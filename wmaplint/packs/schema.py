"""The rule pack format as a JSON Schema; ``schemas/rulepack.schema.json`` is written from here.

``python -m wmaplint.packs.schema`` rewrites the file; a test keeps it current.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

SCHEMA_ID = "https://wmaplint.dev/schemas/rulepack.schema.json"
API_VERSION = "wmaplint.dev/v1"
KIND = "RulePack"
# Pack rule ids: upper-case letters then digits, e.g. ACME001. WM + digit is wmaplint's own namespace.
ID_PATTERN = "^[A-Z][A-Z0-9]{1,31}$"
RESERVED_ID_PATTERN = "^WM[0-9]"
NAME_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$"

_RULE: dict[str, Any] = {
    "type": "object",
    "description": "One rule: wherever `given` selects a node, `assert` must evaluate to true.",
    "properties": {
        "id": {
            "type": "string",
            "pattern": ID_PATTERN,
            "not": {"pattern": RESERVED_ID_PATTERN},
            "description": "Your own prefix plus a number, e.g. ACME001 (WM + digit is reserved).",
        },
        "name": {"type": "string", "pattern": NAME_PATTERN, "description": "Short kebab-case name."},
        "severity": {"enum": ["error", "warning", "info"], "description": "Default severity."},
        "message": {"type": "string", "minLength": 1, "description": "Shown when the assertion is false."},
        "messageExpression": {
            "type": "string",
            "minLength": 1,
            "description": "CEL (self, root) giving the message; falls back to `message` when it fails.",
        },
        "docs": {"type": "string", "minLength": 1, "description": "Why the rule exists and how to fix it."},
        "given": {
            "description": "RFC 9535 JSONPath (or a list of them) over the definition; each node it selects "
            "is checked.",
            "oneOf": [
                {"type": "string", "minLength": 1},
                {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
            ],
        },
        "assert": {
            "type": "string",
            "minLength": 1,
            "description": "CEL expression, true when the node is fine. `self` is the selected node, `root` "
            "the whole definition.",
        },
    },
    "required": ["id", "severity", "message", "docs", "given", "assert"],
    "additionalProperties": False,
}

PACK_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "wmaplint rule pack",
    "description": "Declarative rules for Karta definitions: JSONPath selects nodes, CEL asserts on them.",
    "type": "object",
    "properties": {
        "apiVersion": {"const": API_VERSION},
        "kind": {"const": KIND},
        "metadata": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "description": {"type": "string"}},
            "additionalProperties": False,
        },
        "rules": {"type": "array", "items": {"$ref": "#/$defs/Rule"}},
    },
    "required": ["apiVersion", "kind", "rules"],
    "additionalProperties": False,
    "$defs": {"Rule": _RULE},
}


def schema_json() -> str:
    return json.dumps(PACK_SCHEMA, indent=2) + "\n"


SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schemas" / "rulepack.schema.json"

if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SCHEMA_FILE
    target.write_text(schema_json(), encoding="utf-8")
