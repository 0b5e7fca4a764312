"""Paths proven against the workload's CRD and the Pod schema: fields, types, what each field must reach
(WM3xx).

Every path of the definition is typed once against its schemas (``DefinitionContext.typed_paths``,
``wmaplint.typecheck.paths``); each rule words the facts of its kinds, and ``typed_path_diagnostics`` places
them in the file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from wmaplint.structs import dataclass

if TYPE_CHECKING:
    from wmaplint.diagnostics import Diagnostic, Rule
    from wmaplint.jq.inference.facts import TypeFact
    from wmaplint.rules.context import DefinitionContext


@dataclass(frozen=True, slots=True, eq=False)
class _Worded:
    """A fact worded by its rule, at its offsets in the expression (what ``place`` positions)."""

    rule: str
    message: str
    start: int
    end: int
    replacement: str | None
    data: dict[str, Any] | None
    severity: None = None


def typed_path_diagnostics(
    ctx: DefinitionContext,
    rule: Rule,
    message: Callable[[Any], str],
    kinds: tuple[type[TypeFact], ...],
    contexts: tuple[str, ...] = ("root", "pod"),
) -> Iterator[Diagnostic]:
    """The diagnostics of ``rule`` for the definition's typed paths with a fact of ``kinds``, on expressions
    evaluated in ``contexts``: each worded by ``message``, naming the schema source when several serve the
    kind, with where the schema declares what the fact is about."""
    from wmaplint.rules.placement import place

    for path in ctx.typed_paths:
        fact = path.fact
        if not isinstance(fact, kinds) or path.expr.context not in contexts:
            continue
        worded = _Worded(rule.id, message(fact), fact.start, fact.end, getattr(fact, "replacement", None),
                         getattr(fact, "data", None))
        diagnostic = place(ctx, path.expr, worded, source=f"against {path.against}" if path.against else None)
        diagnostic.related = diagnostic.related + path.related
        yield diagnostic
