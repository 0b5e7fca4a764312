"""What the CEL analyses find (no heavy imports, safe to import anywhere).

The analyses read documents as plain data: what they find is an issue or a violation at a key path (a
``DataFinding``), of a kind that names the finding it becomes once its caller has placed it in a file
(``at``); the rule that reports the kind words it (``wmaplint.rules.cel``).
"""

from __future__ import annotations

from typing import Any

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import Span
from wmaplint.findings import DataFinding, FileFinding

Pointer = tuple[str | int, ...]


@dataclass(frozen=True, slots=True, eq=False)
class CelFinding(FileFinding):
    """A finding about CEL, placed in its file: ``message`` says what is wrong, ``expression`` is the CEL text
    it is about; ``data`` is for machines."""

    message: str
    expression: str = ""
    data: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True, eq=False)
class ValidationRuleCompileError(CelFinding):
    """A validation rule of a CRD does not compile or type-check against its schema."""


@dataclass(frozen=True, slots=True, eq=False)
class MessageExpressionError(CelFinding):
    """A validation rule's messageExpression is empty, does not compile or does not yield a string."""


@dataclass(frozen=True, slots=True, eq=False)
class ValidationCostExceeded(CelFinding):
    """A validation rule's (or messageExpression's) estimated cost, or the total of a schema's, passes the
    limit the API server applies when the CRD is written."""


@dataclass(frozen=True, slots=True, eq=False)
class ValidationRuleFieldInvalid(CelFinding):
    """A field of a validation rule entry (rule, message, reason, optionalOldSelf) is not accepted."""


@dataclass(frozen=True, slots=True, eq=False)
class GroupByExpressionError(CelFinding):
    """A gang member's groupByExpressions entry (the ``index``-th) is not valid CEL over a Pod."""

    index: int = 0


@dataclass(frozen=True, slots=True, eq=False)
class ObjectFinding(CelFinding):
    """What running an object's validation rules found: ``field_path`` as the API server names it (``<nil>``
    for the object's root); ``definition``: the object is a definition, checked against the Karta CRD, not a
    workload manifest."""

    field_path: str = "<nil>"
    definition: bool = False


@dataclass(frozen=True, slots=True, eq=False)
class ValidationRuleRejected(ObjectFinding):
    """A validation rule rejects the object (or fails on it); ``message`` is the API server's field error."""


@dataclass(frozen=True, slots=True, eq=False)
class ValidationRuleNotEvaluated(ObjectFinding):
    """A validation rule was not run on the object: its cost on it may pass the API server's runtime limits,
    or the evaluator's own cap stopped it."""


@dataclass(frozen=True)
class CelIssue(DataFinding):
    """A finding about a CEL expression of a document read as plain data.

    ``kind`` is the finding it becomes; ``pointer`` is the key path inside the checked document to the
    offending value (the ``rule``/``messageExpression`` string, or the entry); ``offset`` is a code-point
    offset inside that string when the problem has a position; ``expression`` is the CEL text.
    """

    kind: type[CelFinding]
    message: str
    pointer: Pointer
    offset: int | None = None
    expression: str = ""

    def at(self, path: str, span: Span, **more: Any) -> CelFinding:
        """The finding, placed at ``span`` of file ``path``."""
        return self.kind(path, span, self.message, self.expression, **more)


@dataclass(frozen=True)
class CelViolation(DataFinding):
    """A validation rule that rejected an object (or was not run on it), rendered like the API server's field
    error; ``kind`` is the finding it becomes."""

    kind: type[ObjectFinding]
    message: str  # the full field error, e.g. "spec.x: Invalid value: ..."
    field_path: str  # "<nil>" for the object root, else "spec.a[0].b"
    detail: str  # the rule's message / messageExpression result / runtime error
    schema_pointer: Pointer  # where the validation rule sits in the schema
    data_path: tuple[str | int, ...] = ()
    expression: str = ""

    def at(self, path: str, span: Span, **more: Any) -> ObjectFinding:
        """The finding, placed at ``span`` of file ``path``."""
        return self.kind(path, span, self.message, self.expression, field_path=self.field_path, **more)

    @property
    def key_path(self) -> tuple[str | int, ...]:
        """``data_path`` as keys into the object: it names an additionalProperties entry "[key]"."""
        return tuple(_unbracket(part) for part in self.data_path)


def _unbracket(part: str | int) -> str | int:
    if isinstance(part, str) and len(part) >= 2 and part.startswith("[") and part.endswith("]"):
        return part[1:-1]
    return part
