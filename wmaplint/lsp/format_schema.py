"""Walking the definition format's JSON Schema by YAML key path (for hover and completion)."""

from __future__ import annotations

from typing import Any

from wmaplint.definition.fields import CONTEXT_HINTS
from wmaplint.definition.format import DEFINITION_SCHEMA

Step = str | int


def _resolve(schema: dict[str, Any] | None) -> dict[str, Any] | None:
    seen = 0
    while schema is not None and "$ref" in schema and seen < 16:  # refs are local and acyclic; bounded anyway
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        schema = DEFINITION_SCHEMA["$defs"].get(name)
        seen += 1
    return schema


def schema_at(path: list[Step] | tuple[Step, ...]) -> dict[str, Any] | None:
    """The (resolved) schema of the value at a key path from the document root, or None when unknown."""
    schema: dict[str, Any] | None = DEFINITION_SCHEMA
    for step in path:
        schema = _resolve(schema)
        if schema is None:
            return None
        if isinstance(step, int):
            items = schema.get("items")
            schema = items if isinstance(items, dict) else None
        else:
            props = schema.get("properties")
            schema = props.get(step) if isinstance(props, dict) else None
    return _resolve(schema)


def properties_at(path: list[Step] | tuple[Step, ...]) -> dict[str, dict[str, Any]]:
    """Field names valid in the mapping at a key path, each with its resolved schema."""
    schema = schema_at(path)
    if schema is None:
        return {}
    props = schema.get("properties")
    if not isinstance(props, dict):
        return {}
    return {name: (_resolve(sub) or {}) for name, sub in props.items()}


def type_label(schema: dict[str, Any]) -> str:
    if "x-wmaplint-jq" in schema:
        return f"jq ({schema['x-wmaplint-jq']} context)"
    kind = schema.get("type", "")
    if kind == "array":
        items = _resolve(schema.get("items")) or {}
        inner = "jq" if "x-wmaplint-jq" in items else items.get("type", "any")
        return f"list of {inner}"
    return str(kind or "any")


def field_markdown(name: str, schema: dict[str, Any], required: bool = False) -> str:
    """Hover text for a field: name, type, description, jq evaluation context, allowed values."""
    lines = [f"**{name}**: {type_label(schema)}" + (" (required)" if required else "")]
    description = schema.get("description")
    if description:
        lines += ["", str(description)]
    context = schema.get("x-wmaplint-jq")
    if context in CONTEXT_HINTS:
        lines += ["", f"jq expression, evaluated against {CONTEXT_HINTS[context]}."]
    if schema.get("enum"):
        lines += ["", "Allowed: " + ", ".join(f"`{v}`" for v in schema["enum"])]
    if "default" in schema:
        lines += ["", f"Default: `{schema['default']}`"]
    return "\n".join(lines)


def is_required(path: list[Step] | tuple[Step, ...], name: str) -> bool:
    parent = schema_at(path)
    return bool(parent) and name in (parent or {}).get("required", [])
