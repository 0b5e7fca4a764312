"""Walking the definition format's JSON Schema by YAML key path (for hover and completion)."""

from __future__ import annotations

from collections.abc import Mapping

from wmaplint.definition.fields import CONTEXT_HINTS
from wmaplint.definition.format import DEFINITION_SCHEMA, FORMAT_REFS
from wmaplint.schema.raw import RawSchema, follow

Step = str | int


def _resolve(schema: object) -> RawSchema | None:
    return follow(schema, FORMAT_REFS)


def schema_at(path: list[Step] | tuple[Step, ...]) -> RawSchema | None:
    """The (resolved) schema of the value at a key path from the document root, or None when unknown."""
    schema: object = DEFINITION_SCHEMA
    for step in path:
        resolved = _resolve(schema)
        if resolved is None:
            return None
        if isinstance(step, int):
            schema = resolved.get("items")
        else:
            props = resolved.get("properties")
            schema = props.get(step) if isinstance(props, Mapping) else None
    return _resolve(schema)


def properties_at(path: list[Step] | tuple[Step, ...]) -> dict[str, RawSchema]:
    """Field names valid in the mapping at a key path, each with its resolved schema."""
    schema = schema_at(path)
    props = schema.get("properties") if schema is not None else None
    if not isinstance(props, Mapping):
        return {}
    return {name: (_resolve(sub) or {}) for name, sub in props.items()}


def type_label(schema: RawSchema) -> str:
    if "x-wmaplint-jq" in schema:
        return f"jq ({schema['x-wmaplint-jq']} context)"
    kind = schema.get("type", "")
    if kind == "array":
        items = _resolve(schema.get("items")) or {}
        inner = "jq" if "x-wmaplint-jq" in items else items.get("type", "any")
        return f"list of {inner}"
    return str(kind or "any")


def field_markdown(name: str, schema: RawSchema, required: bool = False) -> str:
    """Hover text for a field: name, type, description, jq evaluation context, allowed values."""
    lines = [f"**{name}**: {type_label(schema)}" + (" (required)" if required else "")]
    description = schema.get("description")
    if description:
        lines += ["", str(description)]
    context = schema.get("x-wmaplint-jq")
    if isinstance(context, str) and context in CONTEXT_HINTS:
        lines += ["", f"jq expression, evaluated against {CONTEXT_HINTS[context]}."]
    allowed = schema.get("enum")
    if isinstance(allowed, list) and allowed:
        lines += ["", "Allowed: " + ", ".join(f"`{v}`" for v in allowed)]
    if "default" in schema:
        lines += ["", f"Default: `{schema['default']}`"]
    return "\n".join(lines)


def is_required(path: list[Step] | tuple[Step, ...], name: str) -> bool:
    parent = schema_at(path)
    required = parent.get("required") if parent is not None else None
    return isinstance(required, list) and name in required
