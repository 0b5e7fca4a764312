"""Objects as the API server serves them, whatever their schema declares: `apiVersion` and `kind` strings
and Kubernetes' ObjectMeta as `metadata`, on every object and every embedded resource."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from wmaplint.schema.types import ANY, OBJECT, STRING, Property, SchemaType

if TYPE_CHECKING:
    from wmaplint.schema.store import ResolvedSchema

# what the API server sets on every object and every embedded resource, whatever their schema declares
SERVED_FIELDS = ("apiVersion", "kind", "metadata")


def served(t: SchemaType, object_meta: SchemaType | None) -> SchemaType:
    """An object type as the API server serves such an object: `metadata` is Kubernetes' ObjectMeta
    (``object_meta``; unknown when None) whatever the schema declares, since the server handles it itself and
    never prunes it at a resource root or embedded resource; `apiVersion` and `kind` are strings; all three
    are always present."""
    if t.kind != OBJECT:
        return t
    declared_meta = t.properties.get("metadata")
    if object_meta is None and declared_meta is not None and is_object_meta(declared_meta.type):
        object_meta = declared_meta.type  # a core kind: its schema already says ObjectMeta
    copy = SchemaType(OBJECT)
    for slot in SchemaType.__slots__:
        setattr(copy, slot, getattr(t, slot))
    copy.properties = dict(t.properties)
    for name in SERVED_FIELDS:
        declared = t.properties.get(name)
        line, column = (declared.line, declared.column) if declared is not None else (None, None)
        description = declared.description if declared else None
        copy.properties[name] = Property(name, served_member(object_meta, name), line, column, description)
    copy.required = t.required | set(SERVED_FIELDS)
    return copy


def served_member(object_meta: SchemaType | None, name: str) -> SchemaType:
    """The type of ``name``, one of ``SERVED_FIELDS``, on an embedded resource."""
    return (object_meta or ANY) if name == "metadata" else SchemaType(STRING)


def is_object_meta(t: SchemaType) -> bool:
    return (t.ref or "").endswith("meta.v1.ObjectMeta")


def object_meta_from(pod_schemas: Iterable[ResolvedSchema]) -> SchemaType | None:
    """Kubernetes' ObjectMeta as the core schemas give it: the `metadata` of the resolved v1 Pod schemas
    (``.type``), or None without core schemas."""
    for schema in pod_schemas:
        prop = schema.type.properties.get("metadata")
        if prop is not None and is_object_meta(prop.type):
            return prop.type
    return None
