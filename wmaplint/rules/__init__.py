"""The built-in rules: one module a rule, in a folder by concern.

A rule module is named for its rule and holds all of it: the identity and documentation (``RULE =
define(...)``: id, name, severity, summary, why it matters, a failing and a passing example, the fix; see
``wmaplint.diagnostics``) and the logic that emits it, registered with one of the hooks here:

- ``@definition_check(RULE)``: ``fn(ctx)`` runs on every definition; ``ctx`` is a ``DefinitionContext``
  (``wmaplint.rules.context``: the typed definition, its parsed expressions, the schema types they are
  checked against) and ``fn`` yields the rule's diagnostics.
- ``@reports(RULE, FactType)``: ``fn(fact)`` words a fact that an analysis found (a YAML fault, a field the
  schema lacks, a jq runtime error...; ``wmaplint.facts``): it returns the message (or the whole diagnostic,
  to add related locations), or None to say nothing, and the diagnostic takes the fact's place.
- ``@definition_analysis``: ``fn(ctx)`` runs an analysis on every definition and returns the facts it finds,
  for the rules that report their kinds. A concern's package registers the analyses its rules share; the
  source's own facts come from the reader.

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
    from wmaplint.rules.context import DefinitionContext

F = TypeVar("F", bound=Callable[..., Any])

DefinitionCheck = Callable[["DefinitionContext"], Iterable[Diagnostic]]
DefinitionAnalysis = Callable[["DefinitionContext"], Iterable["Fact"]]
Reporter = Callable[[Any], "str | Diagnostic | None"]

# (rule, check) in the order the modules were found: the report order of findings at one position
DEFINITION_CHECKS: list[tuple[Rule, DefinitionCheck]] = []
DEFINITION_ANALYSES: list[DefinitionAnalysis] = []
REPORTERS: dict[type, tuple[Rule, Reporter]] = {}

_loaded = False


def definition_check(rule: Rule) -> Callable[[F], F]:
    """Register ``fn(ctx) -> diagnostics`` as the logic of ``rule``, run on every definition."""

    def register(fn: F) -> F:
        DEFINITION_CHECKS.append((rule, fn))
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


def definition_analysis(fn: F) -> F:
    """Register ``fn(ctx) -> facts`` as an analysis run on every definition; the rules that report the kinds
    of its facts word them."""
    DEFINITION_ANALYSES.append(fn)
    return fn


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


def run_definition_checks(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    load()
    for analysis in DEFINITION_ANALYSES:
        yield from diagnostics_of(analysis(ctx))
    for _, check in DEFINITION_CHECKS:
        yield from check(ctx)


__all__ = ["RULES", "definition_analysis", "definition_check", "diagnostics_of", "load", "reports",
           "run_definition_checks"]
