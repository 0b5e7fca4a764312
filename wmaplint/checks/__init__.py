"""Built-in checks. A check is a function from a Context to diagnostics, registered with ``@check``.

Checks never parse, load files or print: the engine gives them the positioned document and its model.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator

from wmaplint.diagnostics import Diagnostic, Fix, TextEdit
from wmaplint.rules.context import DefinitionContext

CheckFn = Callable[["Context"], Iterable[Diagnostic]]
CHECKS: list[CheckFn] = []

# Modules whose import registers their checks, in report order.
CHECK_MODULES = (
    "wmaplint.checks.cel_rules",
    "wmaplint.rulepacks",
)


def check(fn: CheckFn) -> CheckFn:
    CHECKS.append(fn)
    return fn


def load_checks() -> list[CheckFn]:
    for name in CHECK_MODULES:
        importlib.import_module(name)
    return CHECKS


# The context every check gets (the checks here move to rule modules, wmaplint.rules, one by one).
Context = DefinitionContext


TITLE_LENGTH = 80


def fix(title: str, *edits: TextEdit | None) -> list[Fix]:
    """The fixes list of a finding: one fix when every edit could be made safely (``wmaplint.source.edits``
    gives None otherwise), none else. Titles are one line (an editor shows them in a menu)."""
    if not edits or any(edit is None for edit in edits):
        return []
    title = " ".join(title.split())
    if len(title) > TITLE_LENGTH:
        title = title[:TITLE_LENGTH - 1] + "\u2026"
    return [Fix(title, tuple(e for e in edits if e is not None))]


def run_checks(ctx: Context) -> Iterator[Diagnostic]:
    for fn in load_checks():
        yield from fn(ctx)
