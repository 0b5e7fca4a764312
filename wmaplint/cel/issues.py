"""Result records of the CEL checks (no heavy imports, safe to import anywhere)."""

from __future__ import annotations

from dataclasses import dataclass

from wmaplint.diagnostics import Severity

Pointer = tuple[str | int, ...]


@dataclass(frozen=True)
class CelIssue:
    """A finding about a CEL expression.

    ``rule`` is the wmaplint rule id; ``pointer`` is the key path inside the checked document to the offending
    string (the ``rule``/``messageExpression`` value); ``offset`` is a code-point offset inside that string
    when the problem has a position; ``expression`` is the CEL text.
    """

    rule: str
    message: str
    pointer: Pointer
    severity: Severity | None = None
    offset: int | None = None
    expression: str = ""


@dataclass(frozen=True)
class CelViolation:
    """A validation rule that rejected (or failed on) a value, rendered like the API server's field error."""

    rule: str  # wmaplint rule id
    message: str  # the full field error, e.g. "spec.x: Invalid value: ..."
    field_path: str  # "<nil>" for the object root, else "spec.a[0].b"
    detail: str  # the rule's message / messageExpression result / runtime error
    schema_pointer: Pointer  # where the validation rule sits in the schema
    data_path: tuple[str | int, ...] = ()
    expression: str = ""
