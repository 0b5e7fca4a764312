"""The structural type model a CRD / OpenAPI schema is reduced to.

It mirrors the API server's structural schema: an object has declared properties and optionally a map value
type (``additionalProperties``) or unknown members (``x-kubernetes-preserve-unknown-fields``); an array has an
item type; scalars carry format, enum and pattern. ``ANY`` stands for whatever cannot be known and is never a
reason for a finding. Types may form cycles (recursive ``$ref``); never walk them without a visited set.
"""

from __future__ import annotations

from typing import Any

from wmaplint.dataclass import MISSING, dataclass, field, fields

OBJECT = "object"
ARRAY = "array"
STRING = "string"
INTEGER = "integer"
NUMBER = "number"
BOOLEAN = "boolean"
NULL = "null"
ANY_KIND = "any"
UNION = "union"

SCALAR_KINDS = frozenset({STRING, INTEGER, NUMBER, BOOLEAN, NULL})


@dataclass(slots=True, eq=False)
class Property:
    """A declared object member and where the schema declares it (1-based line/column, when known)."""

    name: str
    type: SchemaType
    line: int | None = None
    column: int | None = None
    description: str | None = None  # the property schema's ``description``, for editor hovers

    # Written out: a CRD's types are made by the thousand (wmaplint.dataclass).
    def __init__(self, name: str, type: SchemaType, line: int | None = None, column: int | None = None,
                 description: str | None = None) -> None:
        self.name = name
        self.type = type
        self.line = line
        self.column = column
        self.description = description


@dataclass(slots=True, eq=False)
class SchemaType:
    kind: str
    properties: dict[str, Property] = field(default_factory=dict)
    required: frozenset[str] = frozenset()
    # map value type from additionalProperties (a schema, or ANY for `true`); None = no extra members
    additional: SchemaType | None = None
    preserve_unknown: bool = False
    embedded_resource: bool = False
    items: SchemaType | None = None
    list_type: str | None = None
    list_map_keys: tuple[str, ...] = ()
    format: str | None = None
    enum: tuple[Any, ...] | None = None
    pattern: str | None = None
    nullable: bool = False
    default: Any = None
    has_default: bool = False
    variants: tuple[SchemaType, ...] = ()
    # where the schema node itself starts (for objects: the "declared here" of their members)
    line: int | None = None
    column: int | None = None
    ref: str | None = None  # the $ref name this type was built from, for messages

    # Written out: a CRD's types are made by the thousand (wmaplint.dataclass).
    def __init__(
        self, kind: str, properties: dict[str, Property] | None = None,
        required: frozenset[str] = frozenset(), additional: SchemaType | None = None,
        preserve_unknown: bool = False, embedded_resource: bool = False,
        items: SchemaType | None = None, list_type: str | None = None, list_map_keys: tuple[str, ...] = (),
        format: str | None = None, enum: tuple[Any, ...] | None = None, pattern: str | None = None,
        nullable: bool = False, default: Any = None, has_default: bool = False,
        variants: tuple[SchemaType, ...] = (), line: int | None = None, column: int | None = None,
        ref: str | None = None,
    ) -> None:
        self.kind = kind
        self.properties = {} if properties is None else properties
        self.required = required
        self.additional = additional
        self.preserve_unknown = preserve_unknown
        self.embedded_resource = embedded_resource
        self.items = items
        self.list_type = list_type
        self.list_map_keys = list_map_keys
        self.format = format
        self.enum = enum
        self.pattern = pattern
        self.nullable = nullable
        self.default = default
        self.has_default = has_default
        self.variants = variants
        self.line = line
        self.column = column
        self.ref = ref

    # -- questions the analyses ask -------------------------------------------------------------

    @property
    def is_any(self) -> bool:
        return self.kind == ANY_KIND

    def kinds(self) -> frozenset[str]:
        """The JSON kinds a value of this type can have (``any`` for unknown)."""
        if self.kind == UNION:
            out: set[str] = set()
            for v in self.variants:
                out |= v.kinds()
            return frozenset(out)
        if self.nullable and self.kind != ANY_KIND:
            return frozenset({self.kind, NULL})
        return frozenset({self.kind})

    def is_open_object(self) -> bool:
        """Members not declared are still allowed (map, preserve-unknown, embedded resource)."""
        return self.additional is not None or self.preserve_unknown

    def member(self, name: str) -> SchemaType | None:
        """Type of member ``name`` of an object, ``None`` when the member cannot exist."""
        prop = self.properties.get(name)
        if prop is not None:
            return prop.type
        if self.additional is not None:
            return self.additional
        if self.preserve_unknown:
            return ANY
        if self.embedded_resource and name in ("apiVersion", "kind", "metadata"):
            return ANY
        return None

    def describe(self) -> str:
        if self.kind == UNION:
            return " or ".join(dict.fromkeys(v.describe() for v in self.variants))
        if self.kind == OBJECT:
            if self.additional is not None and not self.properties:
                return "map"
            return "object"
        if self.kind == ARRAY:
            return "list"
        return self.kind

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self is ANY:  # keep the singleton through the disk cache
            return "ANY"
        return object.__reduce_ex__(self, protocol)

    def __repr__(self) -> str:  # short: types can be cyclic and huge
        extra = f" {sorted(self.properties)[:6]}" if self.properties else ""
        return f"<SchemaType {self.describe()}{extra}>"


ANY = SchemaType(ANY_KIND)

# every field a lazy type may leave unset until it is read, with its default (a factory for mutable ones)
_LAZY_DEFAULTS: dict[str, Any] = {
    f.name: (f.default_factory if f.default is MISSING else f.default)
    for f in fields(SchemaType) if f.name != "kind"
}
_LAZY_FACTORIES = frozenset(f.name for f in fields(SchemaType) if f.default is MISSING and f.name != "kind")


class LazyType(SchemaType):
    """A SchemaType whose fields other than ``kind`` (and whatever the creator sets) are filled by ``_fill``
    the first time one is read: a large schema is then only built where a definition looks."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:  # only called for slots not filled yet
        if name not in _LAZY_DEFAULTS:
            raise AttributeError(name)
        self._fill()
        return object.__getattribute__(self, name)

    def _fill(self) -> None:
        raise NotImplementedError

    def _set_defaults(self, keep: tuple[str, ...] = ()) -> None:
        """Give every field but ``kind`` and ``keep`` its default, so no read comes back to ``_fill``."""
        for name, default in _LAZY_DEFAULTS.items():
            if name not in keep:
                object.__setattr__(self, name, default() if name in _LAZY_FACTORIES else default)

    def __reduce_ex__(self, protocol: Any) -> Any:
        # pickled (or copied) as a plain SchemaType: the state is set after creation, so cycles survive
        state = {"kind": self.kind, **{f: getattr(self, f) for f in _LAZY_DEFAULTS}}
        return _new_plain, (), (None, state)


def _new_plain() -> SchemaType:
    return object.__new__(SchemaType)


def union(*types: SchemaType) -> SchemaType:
    """A union, flattened; ANY absorbs everything; one variant is itself."""
    flat: list[SchemaType] = []
    for t in types:
        if t.kind == ANY_KIND:
            return ANY
        for v in t.variants if t.kind == UNION else (t,):
            if not any(v is f for f in flat):
                flat.append(v)
    if not flat:
        return ANY
    if len(flat) == 1:
        return flat[0]
    return SchemaType(UNION, variants=tuple(flat))


def variants(t: SchemaType) -> tuple[SchemaType, ...]:
    """The types a union is one of; any other type is its own one variant."""
    return t.variants if t.kind == UNION else (t,)


def scalar(kind: str) -> SchemaType:
    return SchemaType(kind)


def int_or_string() -> SchemaType:
    return SchemaType(UNION, variants=(SchemaType(INTEGER), SchemaType(STRING)), format="int-or-string")
