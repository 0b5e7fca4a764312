"""WM511 selector-value-without-keypath: a componentTypeSelector has a value but no keyPath."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.selectors import VALUE_WITHOUT_KEY_PATH, type_selector_fault
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import WORKER_CHILD, job_with_child

RULE = define(
    "WM511", "selector-value-without-keypath", "error",
    "A componentTypeSelector has a value but no keyPath.",
    why="The value is compared with keyPath's output; the API server rejects it (\"value requires "
    "keyPath\").",
    bad=job_with_child(WORKER_CHILD + "      podSelector:\n"
                       "        componentTypeSelector: {value: worker, matchLabels: {role: worker}}\n"),
    good=job_with_child(WORKER_CHILD + "      podSelector:\n"
                        "        componentTypeSelector: {matchLabels: {role: worker}}\n"),
    fix="Add keyPath, or drop value and use matchLabels.",
)


@definition_check(RULE)
def selector_value_without_keypath(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.components:
        selector = c.type_selector_node
        if selector is not None and type_selector_fault(selector) == VALUE_WITHOUT_KEY_PATH:
            yield ctx.diag(RULE, selector.key_node("value"),
                           f"component {c.label!r} has a componentTypeSelector value without keyPath")
