"""The built-in rules: one module a rule, in a folder by concern.

A rule module is named for its rule and holds all of it: the identity and documentation (``RULE =
define(...)``: id, name, severity, summary, why it matters, a failing and a passing example, the fix; see
``wmaplint.diagnostics``) and the logic that emits it, registered with one of the hooks here:

- ``@definition_check(RULE)``: ``fn(ctx)`` runs on every definition; ``ctx`` is a ``DefinitionContext``
  (``wmaplint.rules.context``: the typed definition, its parsed expressions, the schema types they are
  checked against) and ``fn`` yields the rule's diagnostics.
- ``@document_check(RULE, kind=KIND)``: ``fn(ctx)`` runs on every document of ``KIND`` that is not a
  definition (a ``CustomResourceDefinition``, a ``RulePack``); ``ctx`` is a ``DocumentContext``
  (``wmaplint.rules.context``: the positioned document, its file and configuration) and ``fn`` yields the
  rule's diagnostics. The kinds named here are, with the definition kinds, the kinds the tool reads: a file
  that declares none of them is skipped (``engine.declares_kind``).
- ``@reports(RULE, FactType)``: ``fn(fact)`` words a fact that an analysis found (a YAML fault, a field the
  schema lacks, a jq runtime error...; ``wmaplint.facts``): it returns the message (or the whole diagnostic,
  to add related locations), or None to say nothing, and the diagnostic takes the fact's place. A definition
  or document check that finds its rule's facts through a shared analysis (``ctx.shared``) reports them with
  ``reported``.

Nothing lists the modules: ``load()`` imports every module of every folder here, and each registers its
hook as it is imported. A rule id is spelled in its rule's module only; other code names the rule object or
the fact it reports.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from wmaplint.diagnostics import RULES, Diagnostic, Rule

if TYPE_CHECKING:
    from wmaplint.facts import Fact
    from wmaplint.rules.context import DefinitionContext, DocumentContext

F = TypeVar("F", bound=Callable[..., Any])

DefinitionCheck = Callable[["DefinitionContext"], Iterable[Diagnostic]]
DocumentCheck = Callable[["DocumentContext"], Iterable[Diagnostic]]
Reporter = Callable[[Any], "str | Diagnostic | None"]

# (rule, check) in the order the modules were found: the report order of findings at one position
DEFINITION_CHECKS: list[tuple[Rule, DefinitionCheck]] = []
DOCUMENT_CHECKS: dict[str, list[tuple[Rule, DocumentCheck]]] = {}  # by the kind of document they check
REPORTERS: dict[type, tuple[Rule, Reporter]] = {}

_loaded = False


def definition_check(rule: Rule) -> Callable[[F], F]:
    """Register ``fn(ctx) -> diagnostics`` as the logic of ``rule``, run on every definition."""

    def register(fn: F) -> F:
        DEFINITION_CHECKS.append((rule, fn))
        return fn

    return register


def document_check(rule: Rule, *, kind: str) -> Callable[[F], F]:
    """Register ``fn(ctx) -> diagnostics`` as the logic of ``rule``, run on every document of ``kind``."""

    def register(fn: F) -> F:
        DOCUMENT_CHECKS.setdefault(kind, []).append((rule, fn))
        return fn

    return register


def reports(rule: Rule, kind: type[Fact]) -> Callable[[F], F]:
    """Register ``fn(fact) -> message | None`` as the way ``rule`` words facts of ``kind``."""

    def register(fn: F) -> F:
        known = REPORTERS.get(kind)
        if known is not None and known[0].id != rule.id:
            raise ValueError(f"{kind.__name__} is reported by {known[0].id} already, not also {rule.id}")
        REPORTERS[kind] = (rule, fn)
        return fn

    return register


def load() -> None:
    """Import every rule module (once): their rules are then registered, with their logic."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for concern in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not concern.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{concern.name}")
        for module in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            importlib.import_module(f"{package.__name__}.{module.name}")


def diagnostics_of(facts: Iterable[Fact]) -> Iterator[Diagnostic]:
    """Each fact as the diagnostic of the rule that reports its kind (facts no rule reports are dropped)."""
    load()
    for fact in facts:
        found = REPORTERS.get(type(fact))
        if found is None:
            continue
        rule, word = found
        said = word(fact)
        if isinstance(said, Diagnostic):
            yield said
        elif said is not None:
            yield fact.diagnostic(rule, said)


def reported(kind: type[Fact], facts: Iterable[Fact]) -> Iterator[Diagnostic]:
    """The diagnostics of the facts of ``kind`` among ``facts``."""
    return diagnostics_of(fact for fact in facts if type(fact) is kind)


def document_kinds() -> list[str]:
    """The kinds of documents besides definitions that rules check."""
    load()
    return sorted(DOCUMENT_CHECKS)


def run_definition_checks(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    load()
    for _, check in DEFINITION_CHECKS:
        yield from check(ctx)


def run_document_checks(ctx: DocumentContext) -> Iterator[Diagnostic]:
    load()
    for _, check in DOCUMENT_CHECKS.get(ctx.kind, ()):
        yield from check(ctx)


__all__ = ["RULES", "definition_check", "diagnostics_of", "document_check", "document_kinds", "load",
           "reported", "reports", "run_definition_checks", "run_document_checks"]
