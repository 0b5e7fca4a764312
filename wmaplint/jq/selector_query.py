"""The query the runtime builds from a componentTypeSelector with a value: the text `<keyPath> == <value as
JSON>` (FORMAT.md §2.7), parsed as gojq parses it."""

from __future__ import annotations

from wmaplint.jq import ast as jqast
from wmaplint.jq.parser import JqSyntaxError, try_parse


def comparison_fault(key_path: str, encoded: str) -> jqast.Node | JqSyntaxError | None:
    """What keeps the query `<key_path> == <encoded>` from comparing the outputs of ``key_path``: the syntax
    error when it does not parse, or the top-level part of it whose operator binds looser than `==`, so that
    only its last part is compared. None when it compares them (a top-level pipe, `as`, `def` or `label`
    compares its last part, whose outputs are the keyPath's), or when a comment at the end of ``key_path``
    swallows the comparison."""
    parsed = try_parse(f"{key_path} == {encoded}")
    if not isinstance(parsed, jqast.Node):
        return parsed
    last = spine_end(parsed)
    appended = len(key_path) + len(" == ")
    if isinstance(last, jqast.Binary) and last.op == "==" and last.right.start == appended:
        return None
    if not any(isinstance(n, jqast.Literal) and n.start == appended for n in jqast.walk(parsed)):
        return None  # the comparison is commented out
    return last


def spine_end(node: jqast.Node) -> jqast.Node:
    """The part of a query that yields the query's outputs and that text appended to the query extends: the
    right side of a pipe, the body of an `as` binding or a `label`, the query after a `def` or directive."""
    while True:
        if isinstance(node, jqast.Pipe):
            node = node.right
        elif isinstance(node, (jqast.Bind, jqast.Label)):
            node = node.body
        elif isinstance(node, (jqast.FuncDef, jqast.Import)) and node.rest is not None:
            node = node.rest
        else:
            return node
