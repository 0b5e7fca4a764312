"""Structural schema -> CEL types, following the Kubernetes DeclType mapping (K8S_CEL.md §2).

Object fields are built lazily on first access, so recursive ``$ref`` graphs and very deep schemas cost
nothing until a rule actually walks into them. Arrays and maps nest eagerly but only down to ``MAX_NESTING``;
deeper nodes become ``dyn`` (never an error).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from wmaplint import memo
from wmaplint.dataclass import dataclass, field
from wmaplint.schema.raw import RawSchema, RefResolver, follow

MAX_NESTING = 64
MAX_REQUEST_BYTES = 3_145_728
UNBOUNDED = MAX_REQUEST_BYTES - 2  # 3,145,726: the size bound when no maxLength/maxItems is given

RESERVED = frozenset(
    "true false null in as break const continue else for function if import let loop package namespace "
    "return var void while".split()
)
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_ESCAPABLE = re.compile(r"[A-Za-z_./-][A-Za-z0-9_./-]*\Z")


# the same few hundred property names, for every node of every object
@memo.lru_cache(maxsize=4096, pure=True)
def escape(name: str) -> str | None:
    """The CEL spelling of a property name, or None when Kubernetes cannot expose it."""
    if not name or name[0].isdigit():
        return None
    if name in RESERVED:
        return f"__{name}__"
    if _PLAIN_NAME.match(name) and "__" not in name:
        return name
    if not _ESCAPABLE.match(name):
        return None
    return (
        name.replace("__", "__underscores__")
        .replace(".", "__dot__")
        .replace("-", "__dash__")
        .replace("/", "__slash__")
    )


@dataclass(eq=False)
class CelType:
    """A CEL type. ``kind`` is one of the names in ``SCALAR_KINDS`` or list, map, object, optional, opaque."""

    kind: str
    max_elements: int = 0  # size bound used by the cost estimator (chars, items or entries)
    min_size: int = 1  # minimum serialized JSON size (for cardinality of unbounded lists/maps)
    schema: RawSchema | None = None

    def render(self) -> str:
        return self.kind

    @property
    def is_dyn(self) -> bool:
        return self.kind == "dyn"


SCALAR_KINDS = (
    "dyn",
    "null",
    "bool",
    "int",
    "uint",
    "double",
    "string",
    "bytes",
    "timestamp",
    "duration",
    "type",
)


@dataclass(eq=False)
class ListType(CelType):
    elem: CelType = field(default_factory=lambda: DYN)
    list_type: str = "atomic"  # atomic, set or map (x-kubernetes-list-type)

    def render(self) -> str:
        return f"list({self.elem.render()})"


@dataclass(eq=False)
class MapType(CelType):
    key: CelType = field(default_factory=lambda: STRING)
    value: CelType = field(default_factory=lambda: DYN)

    def render(self) -> str:
        return f"map({self.key.render()}, {self.value.render()})"


@dataclass(eq=False)
class OptionalType(CelType):
    inner: CelType = field(default_factory=lambda: DYN)

    def render(self) -> str:
        return f"optional_type({self.inner.render()})"


@dataclass(eq=False)
class OpaqueType(CelType):
    """Library object types (kubernetes.Quantity, net.IP, ...) and any abstract type the checker reports."""

    name: str = ""

    def render(self) -> str:
        return self.name


@dataclass(eq=False)
class Field:
    name: str  # the JSON property name
    cel_name: str
    type: CelType
    required: bool = False


class ObjectType(CelType):
    """A struct-like object; ``fields`` (keyed by escaped CEL name) are computed on first use."""

    def __init__(
        self,
        name: str,
        builder: Callable[[], dict[str, Field]],
        schema: RawSchema | None,
        min_size: int = 2,
    ) -> None:
        super().__init__("object", 0, min_size, schema)
        self.name = name
        self._builder = builder
        self._fields: dict[str, Field] | None = None

    @property
    def fields(self) -> dict[str, Field]:
        if self._fields is None:
            self._fields = {}
            self._fields = self._builder()
        return self._fields

    def field(self, cel_name: str) -> Field | None:
        fields = self.fields
        found = fields.get(cel_name)
        if found is None and cel_name in RESERVED:
            found = fields.get(f"__{cel_name}__")  # keyword field names (Kubernetes >= 1.31)
        return found

    def render(self) -> str:
        return self.name


def scalar(kind: str) -> CelType:
    return CelType(kind)


DYN: CelType = CelType("dyn")
NULL = CelType("null")
BOOL = CelType("bool", 0, 4)
INT = CelType("int")
UINT = CelType("uint")
DOUBLE = CelType("double")
STRING: CelType = CelType("string", UNBOUNDED, 2)
BYTES = CelType("bytes", UNBOUNDED, 2)
TIMESTAMP = CelType("timestamp", 32, 21)
DURATION = CelType("duration", 32, 3)
TYPE = CelType("type")
SCALARS = {t.kind: t for t in (DYN, NULL, BOOL, INT, UINT, DOUBLE, STRING, BYTES, TIMESTAMP, DURATION, TYPE)}


def list_of(elem: CelType) -> ListType:
    return ListType("list", UNBOUNDED, 2, None, elem)


def map_of(key: CelType, value: CelType) -> MapType:
    return MapType("map", UNBOUNDED, 2, None, key, value)


def optional_of(inner: CelType) -> OptionalType:
    return OptionalType("optional", 0, 1, None, inner)


def opaque(name: str) -> OpaqueType:
    return OpaqueType("opaque", 0, 1, None, name)


def same_type(a: CelType, b: CelType, depth: int = 0) -> bool:
    """Structural equality, object types by identity; dyn matches anything."""
    if a is b or a.is_dyn or b.is_dyn or depth > 32:
        return True
    if a.kind != b.kind:
        return False
    if isinstance(a, ListType) and isinstance(b, ListType):
        return same_type(a.elem, b.elem, depth + 1)
    if isinstance(a, MapType) and isinstance(b, MapType):
        return same_type(a.key, b.key, depth + 1) and same_type(a.value, b.value, depth + 1)
    if isinstance(a, OptionalType) and isinstance(b, OptionalType):
        return same_type(a.inner, b.inner, depth + 1)
    if isinstance(a, OpaqueType) and isinstance(b, OpaqueType):
        return a.name == b.name
    if isinstance(a, ObjectType) and isinstance(b, ObjectType):
        return a.schema is b.schema or a.name == b.name
    return True


# ------------------------------------------------------------------------------------------------------------
# Schema conversion


def _bound(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return max(value, 0)


class SchemaTypes:
    """Converts schema nodes to CEL types; one instance per document so shared nodes share types."""

    def __init__(self, resolve_ref: RefResolver | None = None) -> None:
        self.resolve_ref = resolve_ref
        self._memo: dict[tuple[int, bool], CelType | None] = {}

    def resolve(self, schema: object) -> RawSchema | None:
        """The schema node ``schema`` stands for, its references followed (``schema.raw.follow``)."""
        return follow(schema, self.resolve_ref)

    def type_of(
        self, schema: object, name: str = "object", *, embedded_root: bool = False, depth: int = 0
    ) -> CelType | None:
        """The CEL type of a schema node; None when Kubernetes drops it (not accessible from CEL)."""
        node = self.resolve(schema)
        if node is None:
            return DYN if isinstance(schema, Mapping) and "$ref" in schema else None
        key = (id(node), embedded_root)
        if key in self._memo:
            return self._memo[key]
        if depth > MAX_NESTING:
            return DYN
        result = self._convert(node, name, embedded_root, depth)
        if not isinstance(result, (ObjectType,)):  # objects are cheap to memo; scalars depend on nothing else
            self._memo[key] = result
        else:
            self._memo[key] = result
        return result

    def _convert(self, node: RawSchema, name: str, embedded_root: bool, depth: int) -> CelType | None:
        if node.get("x-kubernetes-int-or-string") is True:
            max_len = _bound(node.get("maxLength"))
            return CelType("dyn", max_len * 4 if max_len is not None else UNBOUNDED, 1, node)
        kind = node.get("type")
        embedded = embedded_root or node.get("x-kubernetes-embedded-resource") is True
        if kind is None:
            if "properties" in node or embedded:
                kind = "object"
            elif "items" in node:
                kind = "array"
            elif "additionalProperties" in node and isinstance(node["additionalProperties"], Mapping):
                kind = "object"
            elif isinstance(node.get("oneOf") or node.get("anyOf"), list):
                return CelType("dyn", UNBOUNDED, 1, node)  # e.g. resource.Quantity: string or number
            else:
                return None
        if kind == "object":
            extra = node.get("additionalProperties")
            if isinstance(extra, Mapping) and not node.get("properties") and not embedded:
                value = self.type_of(extra, f"{name}.@elem", depth=depth + 1)
                if value is None:
                    return None
                max_props = _bound(node.get("maxProperties"))
                bound = max_props if max_props is not None else UNBOUNDED // (value.min_size + 6)
                return MapType("map", bound, 2, node, STRING, value)
            return self._object(node, name, embedded, depth)
        if kind == "array":
            items = node.get("items")
            if not isinstance(items, Mapping):
                return None
            elem = self.type_of(items, f"{name}.@idx", depth=depth + 1)
            if elem is None:
                return None
            max_items = _bound(node.get("maxItems"))
            bound = max_items if max_items is not None else UNBOUNDED // (elem.min_size + 1)
            return ListType(
                "list",
                bound,
                2,
                node,
                elem,
                str(node.get("x-kubernetes-list-type") or "atomic"),
            )
        if kind == "string":
            fmt = node.get("format")
            max_len = _bound(node.get("maxLength"))
            if fmt == "byte":
                return CelType("bytes", max_len if max_len is not None else UNBOUNDED, 2, node)
            if fmt == "duration":
                return CelType("duration", 32, 3, node)
            if fmt == "date":
                return CelType("timestamp", 12, 12, node)
            if fmt == "date-time":
                return CelType("timestamp", 32, 21, node)
            if max_len is not None:
                bound = max_len * 4
            else:
                enum = node.get("enum")
                strings = [v for v in enum if isinstance(v, str)] if isinstance(enum, list) else []
                bound = max(len(v) for v in strings) if strings else UNBOUNDED
            return CelType("string", bound, 2, node)
        if kind == "boolean":
            return CelType("bool", 0, 4, node)
        if kind == "number":
            return CelType("double", 0, 1, node)
        if kind == "integer":
            return CelType("int", 0, 1, node)
        return None

    def _object(self, node: RawSchema, name: str, embedded: bool, depth: int) -> ObjectType:
        def build() -> dict[str, Field]:
            fields: dict[str, Field] = {}
            props = node.get("properties")
            required = node.get("required")
            required_set = (
                {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()
            )
            if isinstance(props, Mapping):
                for prop, sub in props.items():
                    if not isinstance(prop, str):
                        continue
                    cel_name = escape(prop)
                    if cel_name is None:
                        continue
                    if embedded and prop == "metadata":
                        continue
                    sub_type = self.type_of(sub, f"{name}.{cel_name}", depth=depth + 1)
                    if sub_type is not None:
                        fields[cel_name] = Field(prop, cel_name, sub_type, prop in required_set)
            if embedded:
                fields.setdefault("apiVersion", Field("apiVersion", "apiVersion", STRING))
                fields.setdefault("kind", Field("kind", "kind", STRING))
                fields["metadata"] = Field("metadata", "metadata", embedded_metadata_type())
            return fields

        return ObjectType(name, build, node, self._min_object_size(node, depth))

    def _min_object_size(self, node: RawSchema, depth: int) -> int:
        """2 + Σ over required properties without a default of (len(name) + min size + 4), one level deep."""
        total = 2
        props = node.get("properties")
        required = node.get("required")
        if not isinstance(props, Mapping) or not isinstance(required, list) or depth > MAX_NESTING:
            return total
        for prop in required:
            sub = self.resolve(props.get(prop)) if isinstance(prop, str) else None
            if sub is None or not isinstance(prop, str) or "default" in sub:
                continue
            kind = sub.get("type")
            sub_min = {"boolean": 4, "string": 2, "array": 2, "object": 2}.get(str(kind), 1)
            if kind == "string" and sub.get("format") in ("date", "date-time"):
                sub_min = 12 if sub.get("format") == "date" else 21
            total += len(prop) + sub_min + 4
        return total


def embedded_metadata_type() -> ObjectType:
    schema: RawSchema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "generateName": {"type": "string"}},
    }
    return ObjectType(
        "metadata",
        lambda: {
            "name": Field("name", "name", STRING),
            "generateName": Field("generateName", "generateName", STRING),
        },
        schema,
    )


def schema_type(
    schema: RawSchema, resolve_ref: RefResolver | None = None, *, root: bool = False
) -> CelType:
    """The CEL type of ``self`` for a rule on this schema node (``root`` adds apiVersion/kind/metadata)."""
    converted = SchemaTypes(resolve_ref).type_of(schema, "selfType", embedded_root=root)
    return converted if converted is not None else DYN
