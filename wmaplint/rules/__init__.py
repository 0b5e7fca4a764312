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
- ``@expression_check(RULE, applies)``: ``fn(text, tree, role)`` runs on each jq expression of every
  definition whose role (``wmaplint.jq.roles.ExprRole``) ``applies``, and yields what it says of the
  expression by itself (``wmaplint.diagnostics.ExpressionDiagnostic``, offsets into ``text``); they are kept
  by text and role, and placed in the file (``wmaplint.rules.placement``). With ``confirm``, a finding is
  placed only where ``confirm(ctx, expr, finding)`` holds: what the expression alone cannot tell (what the
  schema says of the values it reads) is asked in the definition.
- ``@reports(RULE, FactType)``: ``fn(finding)`` words a finding that an analysis found (a YAML fault, a field
  the schema lacks, a jq runtime error...; ``wmaplint.findings``): it returns the message (or, for a
  ``FileFinding`` in the file, the whole diagnostic, to add related locations), or None to say nothing, and
  the diagnostic takes the finding's place. The findings of the definition's typed paths
  (``ExpressionFinding``s, at offsets into an expression) are placed in the file by
  ``wmaplint.rules.placement``; with ``refine``, each is first given to ``refine(ctx, path)``, which returns
  what the definition at hand makes of it (the finding, another finding to say in its place, or None to say
  nothing): what the schema alone cannot tell (what the operator's admission ensures of the fields a path
  reads) is asked of the definition and its controller model. A definition or document check that finds its
  rule's findings through a shared analysis (``ctx.shared``) reports them with ``reported``.
- ``@definition_analysis``: ``fn(ctx)`` runs an analysis on every definition and returns the findings it
  finds, for the rules that report their kinds. A concern's package registers the analyses its rules share;
  the source's own findings come from the reader.

Nothing lists the modules by hand: ``load()`` imports every module of every folder here, and each registers
its hook as it is imported. A check of definitions imports only the modules that register hooks run on
definitions (``load_definition_rules``, from the list ``rules/index.py`` keeps, written by ``python -m
wmaplint.rules``); the rest, wordings of findings and checks of other documents, are imported by ``load()``
when a finding has no wording yet, a document is not a definition or the rule registry is read. A rule id is
spelled in its rule's module only; other code names the rule object or the finding it reports.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar

from wmaplint import memo
from wmaplint.diagnostics import RULES, Diagnostic, Rule
from wmaplint.findings import WORDINGS, ExpressionFinding, FileFinding, Finding, diagnostics_of

if TYPE_CHECKING:
    from wmaplint.definition.model import Expr
    from wmaplint.diagnostics import ExpressionDiagnostic
    from wmaplint.jq.ast import Node as JqNode
    from wmaplint.jq.parser import JqSyntaxError
    from wmaplint.jq.roles import ExprRole
    from wmaplint.rules.context import DefinitionContext, DocumentContext
    from wmaplint.typecheck.paths import TypedPath

F = TypeVar("F", bound=Callable[..., Any])

DefinitionCheck = Callable[["DefinitionContext"], Iterable[Diagnostic]]
DocumentCheck = Callable[["DocumentContext"], Iterable[Diagnostic]]
DefinitionAnalysis = Callable[["DefinitionContext"], Iterable["FileFinding"]]
Confirm = Callable[["DefinitionContext", "Expr", "ExpressionDiagnostic"], bool]
Refine = Callable[["DefinitionContext", "TypedPath"], "ExpressionFinding | None"]

# (rule, check) in the order the modules were found: the report order of findings at one position
DEFINITION_CHECKS: list[tuple[Rule, DefinitionCheck]] = []
DOCUMENT_CHECKS: dict[str, list[tuple[Rule, DocumentCheck]]] = {}  # by the kind of document they check
DEFINITION_ANALYSES: list[DefinitionAnalysis] = []
# by the kind of typed-path finding they refine (see ``reports``)
REFINERS: dict[type[ExpressionFinding], Refine] = {}

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


class ExpressionCheck:
    """A rule's logic on one jq expression by itself (see ``expression_check``)."""

    __slots__ = ("rule", "fn", "applies", "unparsed", "confirm")

    def __init__(self, rule: Rule, fn: Callable[..., Iterable[ExpressionDiagnostic]],
                 applies: Callable[[ExprRole], bool] | None, unparsed: bool,
                 confirm: Confirm | None = None) -> None:
        self.rule = rule
        self.fn = fn
        self.applies = applies
        self.unparsed = unparsed
        self.confirm = confirm


# in the order the modules were found
EXPRESSION_CHECKS: list[ExpressionCheck] = []


def expression_check(rule: Rule, applies: Callable[[ExprRole], bool] | None = None, *,
                     unparsed: bool = False, confirm: Confirm | None = None) -> Callable[[F], F]:
    """Register ``fn(text, tree, role) -> findings`` as the logic of ``rule`` on each jq expression whose
    role ``applies`` (every expression when None). ``tree`` is the expression's syntax tree; ``fn`` also gets
    the expressions that do not parse when ``unparsed``, with the parser's ``JqSyntaxError`` as their tree.
    ``confirm(ctx, expr, finding)``: whether a finding holds in the definition at hand (placed only then)."""

    def register(fn: F) -> F:
        EXPRESSION_CHECKS.append(ExpressionCheck(rule, fn, applies, unparsed, confirm))
        return fn

    return register


def expression_findings(text: str, role: ExprRole) -> list[ExpressionDiagnostic]:
    """Every expression check's findings on one jq expression used as ``role``, by position: what the rules
    find in it wherever it stands, before they place it in a file."""
    from wmaplint.jq.parser import try_parse

    load_definition_rules()
    return list(_cached_findings(_Expression(text, role, try_parse(text))))


class _Expression:
    """The key of an expression's findings, its text and role, carrying the parse they are found in until
    they are (the text decides it, so it takes no part in the key)."""

    __slots__ = ("text", "role", "tree", "_hash")

    def __init__(self, text: str, role: ExprRole, tree: JqNode | JqSyntaxError | None) -> None:
        self.text = text
        self.role = role
        self.tree = tree
        self._hash = hash((text, role))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Expression) and other.text == self.text and other.role == self.role


# Kept by text and role, for all the checks at once: the same catalog expressions recur in many definitions
# and in every keystroke of an editor, and one look-up an expression is what a warm check costs.
@memo.lru_cache(maxsize=16384, pure=True)
def _cached_findings(key: _Expression) -> tuple[ExpressionDiagnostic, ...]:
    found: list[ExpressionDiagnostic] = []
    parsed = not isinstance(key.tree, Exception)
    for check in EXPRESSION_CHECKS:
        if (parsed or check.unparsed) and (check.applies is None or check.applies(key.role)):
            try:
                found.extend(check.fn(key.text, key.tree, key.role))
            except RecursionError:  # the parser bounds tree depth; keep the promise of never raising anyway
                pass
    key.tree = None  # the cache keeps the key, which needs the tree no more: the parser's cache decides
    found.sort(key=lambda f: (f.start, f.end, f.rule))
    return tuple(found)


def _run_expression_checks(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    from wmaplint.rules.placement import place

    confirms = {check.rule.id: check.confirm for check in EXPRESSION_CHECKS if check.confirm is not None}
    for parsed in ctx.expressions:
        tree = parsed.tree if parsed.tree is not None else parsed.error
        for finding in _cached_findings(_Expression(parsed.text, parsed.role, tree)):
            confirm = confirms.get(finding.rule)
            if confirm is None or confirm(ctx, parsed.expr, finding):
                yield place(ctx, parsed.expr, finding)


def reports(rule: Rule, kind: type[Finding], *, refine: Refine | None = None) -> Callable[[F], F]:
    """Register ``fn(finding) -> message | None`` as the way ``rule`` words findings of ``kind`` (a
    ``FileFinding`` or an ``ExpressionFinding``). ``refine(ctx, path)``: for a finding of the definition's
    typed paths, what the definition at hand makes of it before it is worded (the finding, another, or
    None)."""

    def register(fn: F) -> F:
        known = WORDINGS.get(kind)
        if known is not None and known[0].id != rule.id:
            raise ValueError(f"{kind.__name__} is reported by {known[0].id} already, not also {rule.id}")
        WORDINGS[kind] = (rule, fn)
        if refine is not None and issubclass(kind, ExpressionFinding):
            REFINERS[kind] = refine
        return fn

    return register


def definition_analysis(fn: F) -> F:
    """Register ``fn(ctx) -> findings`` as an analysis run on every definition; the rules that report the
    kinds of its findings word them."""
    DEFINITION_ANALYSES.append(fn)
    return fn


def _rule_modules() -> Iterator[str]:
    """Every rule module's name, each concern's package before its modules, in name order."""
    for concern in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not concern.ispkg:
            continue
        package = f"{__name__}.{concern.name}"
        yield package
        # the package's folder is listed, not the package imported: a check of definitions lists every module
        # to find those its index does not know, and need not import the concerns it does not run
        folders = [os.path.join(path, concern.name) for path in __path__]
        for module in sorted(pkgutil.iter_modules(folders), key=lambda m: m.name):
            yield f"{package}.{module.name}"


def load() -> None:
    """Import every rule module (once): their rules are then registered, with their logic."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in _rule_modules():
        importlib.import_module(name)


_definitions_loaded = False


def load_definition_rules() -> None:
    """Import the rule modules whose hooks run on definitions (once), in the order a full ``load`` imports
    them, so that their checks run in the same order; and any module the index does not know yet."""
    global _definitions_loaded
    if _loaded or _definitions_loaded:
        return
    _definitions_loaded = True
    from wmaplint.rules import index

    for name in index.DEFINITION_MODULES:
        importlib.import_module(name)
    known = set(index.MODULES)
    for name in _rule_modules():
        if name not in known:
            importlib.import_module(name)


def index_source() -> str:
    """The text of ``rules/index.py``, from a full load in this process (which must have imported no rule
    module before)."""
    import sys

    load()
    registering = {fn.__module__ for _, fn in DEFINITION_CHECKS}
    registering |= {check.fn.__module__ for check in EXPRESSION_CHECKS}
    registering |= {fn.__module__ for fn in DEFINITION_ANALYSES}
    registering |= {WORDINGS[kind][1].__module__ for kind in REFINERS}
    imported = [name for name in sys.modules if name.startswith(f"{__name__}.")]
    lines = ['"""The rule modules, written by ``python -m wmaplint.rules`` (do not edit).',
             "",
             "``MODULES``: every rule module, in the order a full load imports them; ``DEFINITION_MODULES``:",
             "those that register checks, analyses or refinements run on every definition (see",
             "``load_definition_rules``); ``DOCUMENT_KINDS``: the kinds of the other documents rules check.",
             '"""',
             "",
             "MODULES = ("]
    lines += [f"    {name!r}," for name in imported]
    lines += [")", "DEFINITION_MODULES = ("]
    lines += [f"    {name!r}," for name in imported if name in registering]
    lines += [")", f"DOCUMENT_KINDS = {tuple(sorted(DOCUMENT_CHECKS))!r}"]
    return "\n".join(lines) + "\n"


def reported(kind: type[FileFinding], findings: Iterable[FileFinding]) -> Iterator[Diagnostic]:
    """The diagnostics of the findings of ``kind`` among ``findings``."""
    return diagnostics_of(finding for finding in findings if type(finding) is kind)


def document_kinds() -> list[str]:
    """The kinds of documents besides definitions that rules check."""
    if _loaded:
        return sorted(DOCUMENT_CHECKS)
    load_definition_rules()
    from wmaplint.rules import index

    return sorted({*index.DOCUMENT_KINDS, *DOCUMENT_CHECKS})


def run_definition_checks(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    load_definition_rules()
    for analysis in DEFINITION_ANALYSES:
        yield from diagnostics_of(analysis(ctx))
    for _, check in DEFINITION_CHECKS:
        yield from check(ctx)
    if EXPRESSION_CHECKS:
        yield from _run_expression_checks(ctx)
    from wmaplint.rules.placement import typed_path_diagnostics

    yield from typed_path_diagnostics(ctx)


def run_document_checks(ctx: DocumentContext) -> Iterator[Diagnostic]:
    load()
    for _, check in DOCUMENT_CHECKS.get(ctx.kind, ()):
        yield from check(ctx)


__all__ = ["REFINERS", "WORDINGS", "RULES", "definition_analysis", "definition_check", "diagnostics_of",
           "document_check", "document_kinds", "expression_check", "expression_findings", "load", "reported",
           "reports", "run_definition_checks", "run_document_checks"]
