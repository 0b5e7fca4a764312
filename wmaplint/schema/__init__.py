"""CRD and OpenAPI v3 schema loading, the structural type model and the schema store."""

from wmaplint.schema.errors import SchemaError
from wmaplint.schema.store import ResolvedSchema, SchemaStore, default_store
from wmaplint.schema.types import ANY, Property, SchemaType

__all__ = ["ANY", "Property", "ResolvedSchema", "SchemaError", "SchemaStore", "SchemaType", "default_store"]
