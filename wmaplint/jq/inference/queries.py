"""Editor queries of a jq expression's types: the schema field a path segment under the cursor reads, and
the fields that may follow a `.`.

The interpreter, given a ``Recording``, notes the types it sees at one offset while it walks as usual;
the plain analysis never pays more for it than a test for None.
"""

from __future__ import annotations

from collections.abc import Mapping

from wmaplint.dataclass import dataclass
from wmaplint.jq import ast as jqast
from wmaplint.jq.inference.interpreter import Interpreter, bound
from wmaplint.jq.inference.values import Val
from wmaplint.jq.inference.walk import Recording
from wmaplint.jq.lexical import closers, in_literal
from wmaplint.jq.parser import try_parse
from wmaplint.schema.served import served
from wmaplint.schema.types import OBJECT, Property, SchemaType, union, variants


@dataclass(frozen=True)
class SegmentInfo:
    """The field a path segment reads: ``start``/``end`` are the key's offsets in the expression.

    ``declared``: each object type that declares the field, with its declaration (first is the one to show);
    ``type``: what the segment yields; ``required``: required in every object that declares it.
    """

    name: str
    start: int
    end: int
    type: SchemaType
    required: bool
    declared: tuple[tuple[SchemaType, Property], ...]


def types_at(
    text: str,
    input_type: SchemaType,
    offset: int,
    *,
    roots: Mapping[str, SchemaType] | None = None,
    object_meta: SchemaType | None = None,
) -> SegmentInfo | None:
    """The schema field of the path segment at ``offset`` of ``text`` (a key such as ``replicatedJobs``
    in ``.spec.replicatedJobs[]``), or None: not on a field key, a field the schema does not declare or
    cannot know (``any``), or text that does not parse. ``input_type`` is served as a whole object with
    ``object_meta`` as its `metadata` (see ``served``)."""
    node = try_parse(text)
    if not isinstance(node, jqast.Node):
        return None
    rec = _walk(node, text, input_type, roots, object_meta, offset=offset)
    if rec is None:
        return None
    spans = [s for s in rec.segments if s[0] <= offset < s[1]] or list(rec.segments)
    if not spans:
        return None
    span = min(spans, key=lambda s: s[1] - s[0])
    name, bases, yields = rec.segments[span]
    declared: list[tuple[SchemaType, Property]] = []
    required = True
    for base in bases:
        for v in variants(base):
            prop = v.properties.get(name) if v.kind == OBJECT else None
            if prop is not None and not any(prop is p for _, p in declared):
                declared.append((v, prop))
                required = required and name in v.required
            elif v.kind == OBJECT and prop is None and v.member(name) is not None:
                required = False  # a map entry or an undeclared member of an open object
    found = union(*yields)
    if not declared and found.is_any:
        return None
    return SegmentInfo(name, span[0], span[1], found, required and bool(declared), tuple(declared))


def members_at(
    text: str,
    input_type: SchemaType,
    offset: int,
    *,
    roots: Mapping[str, SchemaType] | None = None,
    object_meta: SchemaType | None = None,
) -> list[Property]:
    """Fields that may follow the ``.`` before ``offset`` (after any partial name the cursor ends):
    the declared properties of the object type the path reaches there, in schema order.

    ``text`` may be incomplete (``.spec.``): the longest parsable form around the cursor is typed instead.
    ``input_type`` is served as a whole object with ``object_meta`` as its `metadata` (see ``served``).
    """
    offset = max(0, min(offset, len(text)))
    start = offset
    while start > 0 and _word_char(text[start - 1]):
        start -= 1
    if start == 0 or text[start - 1] != "." or in_literal(text, start - 1):
        return []
    dot = start - 1
    if dot > 0 and text[dot - 1] == ".":
        return []  # `..`
    after = offset
    while after < len(text) and _word_char(text[after]):
        after += 1
    head, rest = text[:dot], text[after:]
    candidates: list[tuple[str, int, bool]] = []
    if dot > 0 and not text[dot - 1].isspace():  # a path continued: `.spec.`, `.jobs[].`, `(.a).`
        candidates += [(head + rest, dot, False), (head + closers(head), dot, False)]
    # a path started afresh (`| .`, `select(.`): the input of an identity in the dot's place
    candidates += [(head + "." + rest, dot + 1, True), (head + "." + closers(head), dot + 1, True)]
    for candidate, end, fresh in candidates:
        node = try_parse(candidate)
        if not isinstance(node, jqast.Node):
            continue
        rec = _walk(node, candidate, input_type, roots, object_meta, end=end)
        if rec is None:
            continue
        if fresh:  # the identity put in the dot's place yields its input
            spans = [(dot, dot + 1)] if (dot, dot + 1) in rec.outputs else []
        else:
            spans = list(rec.outputs)
        if not spans:
            continue
        span = min(spans, key=lambda s: s[1] - s[0])
        return _declared_members(union(*rec.outputs[span]))
    return []


def _walk(
    node: jqast.Node,
    text: str,
    input_type: SchemaType,
    roots: Mapping[str, SchemaType] | None,
    object_meta: SchemaType | None,
    offset: int = -1,
    end: int = -1,
) -> Recording | None:
    """The recording walk of ``node`` over ``input_type`` served as a whole object (see ``served``)."""
    rec = Recording(offset, end)
    try:
        walk = Interpreter(text, None, object_meta, rec)
        walk.eval(node, Val(served(input_type, object_meta)), bound(roots))
    except RecursionError:  # the walk is depth-bounded; an editor request must still never fail
        return None
    return rec


def _declared_members(t: SchemaType) -> list[Property]:
    """Properties of the object variants of ``t`` (arrays and scalars have none), first declaration wins."""
    found: dict[str, Property] = {}
    for v in variants(t):
        if v.kind == OBJECT:
            for name, prop in v.properties.items():
                found.setdefault(name, prop)
    return list(found.values())


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"
