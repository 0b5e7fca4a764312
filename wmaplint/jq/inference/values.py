"""The values of the type interpreter: the type of a stream of outputs, and what an expression yields."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wmaplint.dataclass import dataclass, field
from wmaplint.schema.types import ANY, ANY_KIND, INTEGER, NULL, NUMBER, UNION, SchemaType, variants

if TYPE_CHECKING:
    from wmaplint.findings import ExpressionFinding


@dataclass(frozen=True, slots=True)
class Val:
    """The type of a stream of values; ``optional``: some output may be null because a field is absent.

    ``path``: where the values are, from the expression's input (see ``guards``), when reached by plain
    navigation. ``absent``: the deepest field on that path the schema lets be missing ("absent": neither
    required nor defaulted) or null ("null"), as (path, how); None when no schema field makes it so.
    """

    type: SchemaType
    optional: bool = False
    const: Any = None
    has_const: bool = False
    path: str | None = None
    absent: tuple[str, str] | None = None

    # Written out: an expression's typing makes one per step (wmaplint.dataclass).
    def __init__(self, type: SchemaType, optional: bool = False, const: Any = None, has_const: bool = False,
                 path: str | None = None, absent: tuple[str, str] | None = None) -> None:
        set_field = object.__setattr__
        set_field(self, "type", type)
        set_field(self, "optional", optional)
        set_field(self, "const", const)
        set_field(self, "has_const", has_const)
        set_field(self, "path", path)
        set_field(self, "absent", absent)

    @property
    def is_any(self) -> bool:
        return self.type.kind == ANY_KIND


ANY_VAL = Val(ANY)
# the type of a stream with no outputs (`empty`, `error`): a union of nothing, absorbed by any other type
NEVER = SchemaType(UNION, variants=())
NEVER_VAL = Val(NEVER)


def is_never(v: Val) -> bool:
    return v.type.kind == UNION and not v.type.variants


def solid(v: Val) -> Val:
    """``v``, or any for a stream without outputs (where a value is needed, e.g. list items)."""
    return ANY_VAL if is_never(v) else v


def scalar_val(kind: str, const: Any = None, has_const: bool = False) -> Val:
    return Val(SchemaType(kind), False, const, has_const)


def kinds(v: Val) -> frozenset[str]:
    """The kinds ``v`` may be, numbers counted as numbers too and null included when it may be absent."""
    k = v.type.kinds()
    if NUMBER in k or INTEGER in k:
        k = k | {NUMBER}
    return k | {NULL} if v.optional else k


def enum_of(t: SchemaType) -> tuple[Any, ...] | None:
    """The values a type allows when the schema declares an enum for each of its variants (phase values,
    for instance), else None."""
    values: list[Any] = []
    for v in variants(t):
        if v.kind == ANY_KIND or v.enum is None:
            return None
        values.extend(v.enum)
    return tuple(values) if values else None


@dataclass
class TypeResult:
    """What an expression yields (``type``, maybe-absent ``optional``), what is wrong with it, and where its
    `//` can yield their right side (``defaults``, the operators' offsets)."""

    type: SchemaType
    optional: bool
    findings: list[ExpressionFinding] = field(default_factory=list)
    defaults: frozenset[int] = frozenset()

    @property
    def enum(self) -> tuple[Any, ...] | None:
        """The enum of the yielded strings when the schema declares one."""
        return enum_of(self.type)
