"""WM508 ownership-cycle: ownerRefs form a cycle that never reaches the root."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from wmaplint.definition.model import Component
from wmaplint.definition.names import by_name
from wmaplint.diagnostics import Diagnostic, define
from wmaplint.rules import definition_check
from wmaplint.rules.context import DefinitionContext
from wmaplint.rules.examples import job_with_child

RULE = define(
    "WM508", "ownership-cycle", "error",
    "ownerRefs form a cycle that never reaches the root.",
    why="The component tree must be a tree rooted at the root component; a cycle makes it unbuildable.",
    bad=job_with_child("    childComponents:\n    - {name: a, ownerRef: b}\n    - {name: b, ownerRef: a}\n"),
    good=job_with_child(
        "    childComponents:\n    - {name: a, ownerRef: job}\n    - {name: b, ownerRef: a}\n"),
    fix="Point one of the ownerRefs at the root or at a component outside the cycle.",
)


def cycles(children: Iterable[Component], named: Mapping[str, Component]
           ) -> Iterator[tuple[Component, list[str]]]:
    """Each ownership cycle once: the component whose ownerRef closes it, and the names around it. Every
    component is walked at most once: a walk stops at a component an earlier walk finished, so a chain of n
    owners costs n steps, not n squared."""
    finished: set[str] = set()
    for c in children:
        walk: dict[str, int] = {}  # name -> position on this walk
        order: list[str] = []
        current: Component | None = c
        while current is not None and not current.is_root and current.name and current.owner_ref:
            if current.name in finished:
                break
            if current.name in walk:
                yield current, [*order[walk[current.name]:], current.name]
                break
            walk[current.name] = len(order)
            order.append(current.name)
            current = named.get(current.owner_ref)
        finished.update(order)


@definition_check(RULE)
def ownership_cycle(ctx: DefinitionContext) -> Iterator[Diagnostic]:
    for closing, names in cycles(ctx.definition.children, by_name(ctx.definition)):
        yield ctx.diag(RULE, closing.owner_ref_node, f"ownership cycle: {' -> '.join(names)}")
