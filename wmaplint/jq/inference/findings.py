"""What the type interpreter finds wrong with a jq expression: one kind of finding each, holding where in the
text it is and what a message needs (``wmaplint.findings.ExpressionFinding``). The schema rules
(``wmaplint.rules.schema``) word them with ``@reports``.

Findings are remembered with the expression's typing and shared by every file that has the expression, so they
hold offsets into its text, not positions in a file. A kind that the expression can be fixed for in one sure
way holds ``replacement``, the whole text fixed; ``data`` is what the diagnostic tells machines.
"""

from __future__ import annotations

from typing import Any

from wmaplint.dataclass import dataclass
from wmaplint.findings import ExpressionFinding


@dataclass(frozen=True, slots=True, eq=False)
class UnknownField(ExpressionFinding):
    """Field ``name`` read from an object type that does not declare it and takes no other members.

    ``parent``: the type's schema name (its ``$ref``), when it has one; ``valid``: the names it declares,
    sorted; ``suggestions``: the close ones; ``deeper``: where a field of that name exists a few levels down
    (looked for only without suggestions); ``declared``: where the schema source declares the object (file,
    line, column), when known.
    """

    name: str
    parent: str | None
    valid: tuple[str, ...]
    suggestions: tuple[str, ...]
    deeper: tuple[str, ...]
    declared: tuple[str | None, int, int | None] | None
    replacement: str | None = None

    @property
    def data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"suggestions": list(self.suggestions), "valid": list(self.valid)}
        if self.declared is not None:
            file, line, column = self.declared
            data["declared"] = {"file": file, "line": line, "column": column}
        if self.deeper:
            data["nested"] = list(self.deeper)
        return data


@dataclass(frozen=True, slots=True, eq=False)
class PrunedField(ExpressionFinding):
    """Field ``name`` read under a `metadata` that the schema declares as an object without properties: the
    API server prunes every field there when the object is written."""

    name: str

    @property
    def data(self) -> dict[str, Any]:
        return {"pruned": True}


@dataclass(frozen=True, slots=True, eq=False)
class FieldOfNonObject(ExpressionFinding):
    """Field ``name`` read from a value that is never an object: ``kinds`` says what it is."""

    name: str
    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class IndexOfScalar(ExpressionFinding):
    """A value of type ``kind``, which cannot be indexed, indexed with `.[...]`."""

    kind: str


@dataclass(frozen=True, slots=True, eq=False)
class IterationOfNonContainer(ExpressionFinding):
    """A value that is neither a list nor an object iterated: ``kinds`` says what it is."""

    kinds: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class ComparisonOfKinds(ExpressionFinding):
    """``left`` and ``right``, values of kinds that never compare by value, compared by ``op``."""

    op: str
    left: str
    right: str


@dataclass(frozen=True, slots=True, eq=False)
class ValueOutsideEnum(ExpressionFinding):
    """A string compared (`==`, `!=`) with a constant ``value`` outside the enum the schema declares."""

    value: Any
    allowed: tuple[Any, ...]

    @property
    def data(self) -> dict[str, Any]:
        return {"valid": list(self.allowed)}


@dataclass(frozen=True, slots=True, eq=False)
class UncombinableOperands(ExpressionFinding):
    """``left`` and ``right``, of kinds the arithmetic operator ``op`` cannot combine."""

    op: str
    left: str
    right: str


@dataclass(frozen=True, slots=True, eq=False)
class NonBooleanCondition(ExpressionFinding):
    """A condition whose value, of type ``kind``, is never a boolean and never absent."""

    kind: str


@dataclass(frozen=True, slots=True, eq=False)
class UnguardedIteration(ExpressionFinding):
    """An iteration of the value at ``path`` (from the expression's input, `[]` marking list elements), which
    is null whenever the field at ``absent`` is ``how`` ("absent": neither required nor defaulted, or
    "null": nullable), with no guard around it. ``builtin``: the builtin that iterates (`map`, `any`...),
    None for `[]`."""

    path: str
    absent: str
    how: str
    builtin: str | None
    replacement: str | None = None

    @property
    def data(self) -> dict[str, Any]:
        return {"path": "." + self.path, "absent": "." + self.absent}


# The findings that say the path itself is wrong: the type it reaches then says nothing more.
WRONG_PATH: tuple[type[ExpressionFinding], ...] = (
    UnknownField, PrunedField, FieldOfNonObject, IndexOfScalar, IterationOfNonContainer,
)


def with_article(words: str) -> str:
    """``words`` after "a" or "an", as messages name a kind of value ("an integer", "a string or object")."""
    return ("an " if words[:1] in "aeiou" else "a ") + words
