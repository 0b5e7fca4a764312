"""Raw schemas: the schema dicts as a CRD's ``openAPIV3Schema``, an OpenAPI document or the definition
format's JSON Schema write them, ``$ref``s and all. This is the one reader of their references: which named
definition a ``$ref`` names (``definitions``), and the schema a node stands for once its references are
followed (``follow``). The type model (``types.py``, built by ``loader.py``) is made from raw schemas; CEL's
types, the validation of manifests, the structure walk of a definition, the JSONPath of rule packs and the
editor's format schema read them as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

RawSchema = Mapping[str, "Json"]

# The schema a `$ref` names, or None when it names none (a broken reference is "unknown", never a crash).
RefResolver = Callable[[str], "RawSchema | None"]

# Where an OpenAPI v3 document (and a v2 one) keeps its named schemas.
OPENAPI_REFS = ("#/components/schemas/", "#/definitions/")

MAX_REF_HOPS = 16  # a chain of references longer than this is not followed (a cycle of references is one)


def ref_name(ref: str, prefixes: tuple[str, ...] = OPENAPI_REFS) -> str | None:
    """The name of the definition ``ref`` points at, or None for a reference outside ``prefixes``."""
    return next((ref[len(p):] for p in prefixes if ref.startswith(p)), None)


def definitions(named: Mapping[str, Json], prefixes: tuple[str, ...] = OPENAPI_REFS) -> RefResolver:
    """The resolver of references to the schemas of one document, ``named`` by their names."""

    def resolve(ref: str) -> RawSchema | None:
        name = ref_name(ref, prefixes)
        found = named.get(name) if name is not None else None
        return found if isinstance(found, dict) else None

    return resolve


def follow(schema: object, resolve_ref: RefResolver | None) -> RawSchema | None:
    """The schema ``schema`` stands for: ``schema`` itself, or what its ``$ref`` names (also through OpenAPI's
    ``allOf: [{$ref: ...}]`` wrapper, which adds nothing else), followed a bounded number of times; None when
    it is not a schema or a reference does not resolve."""
    if type(schema) is dict and "$ref" not in schema and "allOf" not in schema:
        return schema  # most nodes: no reference to follow (what the loop below finds, without its calls)
    for _ in range(MAX_REF_HOPS):
        if not isinstance(schema, (dict, Mapping)):  # dict first: the ABC's check costs 8 times as much
            return None
        ref = schema.get("$ref")
        if ref is None:
            ref = _wrapped_ref(schema)
        if ref is None:
            return schema
        if resolve_ref is None or not isinstance(ref, str):
            return None
        schema = resolve_ref(ref)
    return None


def _wrapped_ref(schema: Mapping[str, object]) -> object:
    """The ``$ref`` of an ``allOf`` that holds that reference alone, where the schema declares no type."""
    all_of = schema.get("allOf")
    if not isinstance(all_of, list) or len(all_of) != 1 or "type" in schema or "properties" in schema:
        return None
    only = all_of[0]
    return only.get("$ref") if isinstance(only, Mapping) else None
