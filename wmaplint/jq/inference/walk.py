"""What the parts of the type interpreter are given: the walk they serve (``Walk``, the interpreter as its
parts see it), the places in the text they report at (``KeySpan``, ``NO_SPAN``) and what the editor's
queries note on the way (``Recording``).

The parts (``navigation``, ``operators``, ``calls``) type the walk by this protocol rather than by the
interpreter's class, which holds them: the interpreter imports its parts, and no part imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from wmaplint.jq import ast as jqast
from wmaplint.jq.inference.values import Val
from wmaplint.schema.types import SchemaType

if TYPE_CHECKING:
    from wmaplint.findings import ExpressionFinding


class Walk(Protocol):
    """One walk of an expression, as its parts call it: ``text``, the expression; ``source``, the schema
    file; ``object_meta``, the `metadata` of embedded resources; ``recording``, the editor's notes (None in
    the analysis); ``defaults``, the offsets of the `//` operators whose left side may yield no value."""

    text: str
    source: str | None
    object_meta: SchemaType | None
    recording: Recording | None
    defaults: set[int]

    def record(self, finding: ExpressionFinding) -> None: ...

    def eval(self, node: jqast.Node, inp: Val, env: dict[str, Any], depth: int = 0,
             quiet: bool = False) -> Val: ...


class KeySpan:
    """Span of the key of ``.["key"]`` for unknown-field findings (inside the quotes)."""

    def __init__(self, node: jqast.Index) -> None:
        self.start = node.index.start
        self.end = node.index.end
        self.name_start, self.name_end = self.start, self.end
        self.seg_start = node.seg_start


class _NoSpanType:
    start = end = seg_start = 0


# where a step with no place in the text (the entries of `to_entries`) would be reported: it never is (quiet)
NO_SPAN: Any = _NoSpanType()


class Recording:
    """What the interpreter notes for the editor while it walks as usual: the fields read at ``offset`` and
    the outputs of nodes ending at ``end``."""

    def __init__(self, offset: int = -1, end: int = -1) -> None:
        self.offset = offset
        self.end = end
        self.segments: dict[tuple[int, int], tuple[str, list[SchemaType], list[SchemaType]]] = {}
        self.outputs: dict[tuple[int, int], list[SchemaType]] = {}

    def output(self, node: jqast.Node, out: Val) -> None:
        if node.end == self.end:
            self.outputs.setdefault((node.start, node.end), []).append(out.type)

    def member(self, base: Val, name: str, node: jqast.Node | KeySpan, out: Val) -> None:
        start = getattr(node, "name_start", None)
        end = getattr(node, "name_end", None)
        if start is not None and end is not None and start <= self.offset <= end:
            _, bases, yields = self.segments.setdefault((start, end), (name, [], []))
            bases.append(base.type)
            yields.append(out.type)
