"""String literals an expression compares something with (``X == "lit"``, ``"lit" != X``): what the
byExpression rules read condition types and phase values from."""

from __future__ import annotations

from collections.abc import Iterator

from wmaplint.dataclass import dataclass
from wmaplint.jq import ast as jqast


@dataclass(frozen=True)
class Comparison:
    """``other`` (its text) compared with the string ``value``, which stands at ``start``..``end`` of the
    expression's text (the quotes excluded)."""

    other: jqast.Node
    other_text: str
    value: str
    start: int
    end: int


def string_comparisons(tree: jqast.Node, text: str) -> Iterator[Comparison]:
    for node in jqast.walk(tree):
        if not isinstance(node, jqast.Binary) or node.op not in ("==", "!="):
            continue
        for lit, other in ((node.right, node.left), (node.left, node.right)):
            if isinstance(lit, jqast.Literal) and isinstance(lit.value, str):
                yield Comparison(other, text[other.start:other.end], lit.value, lit.start + 1, lit.end - 1)
                break


def is_field_of_item(node: jqast.Node, name: str) -> bool:
    """``.name`` of the current item (``.type`` inside ``select``/``any`` over conditions)."""
    return isinstance(node, jqast.Field) and node.name == name and (node.target is None
                                                                  or isinstance(node.target, jqast.Identity))


def compares_type(tree: jqast.Node, comparison: Comparison, name: str) -> bool:
    """Whether ``comparison`` compares a condition's type: ``.type == "X"``, or ``. == "X"`` after the
    conditions were mapped to their types (``[.status.conditions[] | .type] | any(. == "X")``)."""
    if is_field_of_item(comparison.other, name):
        return True
    if not isinstance(comparison.other, jqast.Identity):
        return False
    return any(is_field_of_item(n, name) and n.end <= comparison.other.start for n in jqast.walk(tree))
