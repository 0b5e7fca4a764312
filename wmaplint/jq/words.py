"""Words inside a jq expression held by a YAML scalar: the builtin the cursor is on, and its docs."""

from __future__ import annotations

from bisect import bisect_right

from wmaplint.dataclass import dataclass
from wmaplint.jq import builtins as jq_builtins
from wmaplint.jq.lexical import argument_count
from wmaplint.source import ScalarNode

_STYLE_CHARS = {"plain": None, "single": "'", "double": '"', "literal": "|", "folded": ">"}
KEYWORDS = frozenset(
    "def if then elif else end as reduce foreach try catch label import include and or __loc__".split()
)


def _ident(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def value_index(text: str, node: ScalarNode, offset: int) -> int | None:
    """Index into the scalar's decoded value of a file offset, or None when it cannot be mapped."""
    from wmaplint.source.scalars import decode_with_offsets

    try:
        value, offsets = decode_with_offsets(text, node.start, node.end, _STYLE_CHARS.get(node.style))
    except (ValueError, KeyError, IndexError):
        return None
    if value != node.text or not offsets:
        return None
    return max(0, min(len(value), bisect_right(offsets, offset) - 1))


@dataclass
class Word:
    name: str
    start: int  # indexes into the expression
    end: int
    arity: int


def word_at(expr: str, index: int) -> Word | None:
    """The function name at ``index`` of a jq expression (not a field, variable or keyword) and its arity."""
    if index >= len(expr) or not _ident(expr[index]):
        if index > 0 and index - 1 < len(expr) and _ident(expr[index - 1]):
            index -= 1
        else:
            return None
    start = index
    while start > 0 and _ident(expr[start - 1]):
        start -= 1
    end = index
    while end < len(expr) and _ident(expr[end]):
        end += 1
    name = expr[start:end]
    if not name or name[0].isdigit() or name in KEYWORDS:
        return None
    before = expr[start - 1] if start > 0 else ""
    if before in (".", "$", "@") or (before == '"'):
        return None
    return Word(name, start, end, _arity(expr, end))


def _arity(expr: str, after: int) -> int:
    i = after
    while i < len(expr) and expr[i] in " \t\r\n":
        i += 1
    if i >= len(expr) or expr[i] != "(":
        return 0
    return argument_count(expr, i)


def builtin_markdown(name: str, arity: int) -> str | None:
    """Hover text for ``name/arity`` from the gojq builtin table; None when the name is not a builtin."""
    info = jq_builtins.lookup_any(name, arity)
    others = [a for a in jq_builtins.arities(name) if a != arity]
    lines: list[str] = []
    if info is not None:
        lines.append(f"**{name}/{arity}** — jq builtin (gojq)")
        properties = [f"outputs: {_OUTPUTS.get(info.outputs, info.outputs)}", f"result: {info.result}"]
        if info.path:
            properties.append("valid in path expressions")
        if info.availability != "library":
            properties.append(f"availability: {info.availability}")
        lines += ["", "; ".join(properties)]
        for label, text in (
            ("Note", info.note),
            ("Impure", info.impure),
            ("Rejected by the runtime", info.denied),
        ):
            if text:
                lines += ["", f"{label}: {text.format(name=name)}"]
    elif (name, arity) in jq_builtins.C_JQ_ONLY:
        lines = [f"**{name}/{arity}** — not in gojq", "", jq_builtins.C_JQ_ONLY[(name, arity)]]
    elif name in jq_builtins.NOWHERE:
        lines = [f"**{name}** — not a jq function", "", jq_builtins.NOWHERE[name]]
    elif others:
        lines = [f"**{name}/{arity}** — no such arity in gojq"]
    else:
        return None
    if others:
        lines += ["", "Also defined as: " + ", ".join(f"`{name}/{a}`" for a in others)]
    return "\n".join(lines)


_OUTPUTS = {
    "1": "exactly one",
    "0": "none",
    "0-1": "zero or one",
    "*": "any number",
    "dep": "depends on arguments",
}
