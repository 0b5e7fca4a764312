"""WM510 type-selector-empty: a componentTypeSelector has neither keyPath nor matchLabels."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.definition.selectors import EMPTY, type_selector_fault
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import WORKER_CHILD, job_with_child

RULE = define(
    "WM510", "type-selector-empty", "error",
    "A componentTypeSelector has neither keyPath nor matchLabels.",
    why="The API server rejects it (\"at least one of keyPath or matchLabels must be set\") and so does "
    "upstream's validator; no pod could ever match.",
    bad=job_with_child(WORKER_CHILD + "      podSelector:\n        componentTypeSelector: {}\n"),
    good=job_with_child(WORKER_CHILD + "      podSelector:\n"
                        "        componentTypeSelector: {keyPath: '.metadata.labels.role', value: worker}\n"),
    fix="Set keyPath (optionally with value) or matchLabels.",
)


@definition_check(RULE)
def type_selector_empty(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for c in ctx.definition.components:
        selector = c.type_selector_node
        if selector is None or c.pod_selector_node is None or type_selector_fault(selector) != EMPTY:
            continue
        yield ctx.diag(RULE, c.pod_selector_node.key_node("componentTypeSelector"),
                       f"component {c.label!r} has a componentTypeSelector with neither keyPath nor "
                       "matchLabels")
