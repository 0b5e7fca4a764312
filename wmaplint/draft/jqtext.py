"""jq text for locations, in the safe forms the catalog uses: `[]?` for iterations, defaults inside them.

A location with an iteration step reads one value per entry: ``.spec.groups[]? | (.replicas // 1)``, never
``.spec.groups[].replicas // 1`` (where ``//`` would apply to the whole stream and break the zip rule).

It stays with the drafts rather than in ``wmaplint.jq``: its locations and iteration steps are the draft's
(``wmaplint.draft.shapes``), a layer above jq.
"""

from __future__ import annotations

import json
import re

from wmaplint.draft.shapes import EACH_MAP, ITERATIONS, Location

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
# words jq reads as keywords after a dot in some releases: written as ["word"]
_KEYWORDS = frozenset({"and", "or", "not", "if", "then", "elif", "else", "end", "as", "def", "reduce",
                       "foreach", "try", "catch", "label", "import", "include", "__loc__"})


def nav(location: Location) -> str:
    """Plain navigation to a location without iteration steps (``.`` for the root)."""
    parts = []
    for step in location:
        if step in ITERATIONS:
            raise ValueError(f"nav() of a location with an iteration: {location}")
        parts.append(f".{step}" if _IDENT.match(step) and step not in _KEYWORDS else f"[{json.dumps(step)}]")
    text = "".join(parts)
    return "." + text if text.startswith("[") else text or "."


def split(location: Location) -> tuple[Location, Location] | None:
    """(the collection, the rest inside an entry) of a location with one iteration, else None."""
    for index, step in enumerate(location):
        if step in ITERATIONS:
            return location[:index], location[index + 1:]
    return None


def path(location: Location) -> str:
    """An assignable path to a location: ``.spec.groups[]?.template`` yields one value per entry."""
    parts = split(location)
    if parts is None:
        return nav(location)
    collection, rest = parts
    inner = nav(rest) if rest else ""
    return f"{nav(collection)}[]?{inner if inner != '.' else ''}"


def relative(location: Location, entry: Location | None) -> str:
    """Navigation to ``location`` from inside the entry at ``entry`` (from the root without one)."""
    if entry is None:
        return nav(location)
    return nav(location[len(entry):])


def default(term: str, value: object) -> str:
    """``term // value``: jq's alternative, for a field the object may leave out."""
    return f"{term} // {json.dumps(value)}"


def per_entry(collection: Location, terms: list[str]) -> str:
    """One value per entry of the collection: the product of ``terms``, read inside each entry."""
    return f"{nav(collection)}[]? | {' * '.join(terms)}"


def product(terms: list[str]) -> str:
    return terms[0] if len(terms) == 1 else " * ".join(terms)


def grouped(term: str) -> str:
    """``term`` as one operand of a product or a pipe."""
    return term if _IDENT.match(term.lstrip(".")) or term.startswith("(") and _balanced(term) else f"({term})"


def _balanced(term: str) -> bool:
    """Whether the opening parenthesis of ``term`` closes at its end."""
    depth = 0
    quoted = False
    for index, char in enumerate(term):
        if quoted:
            quoted = char != '"' or term[index - 1] == "\\"
        elif char == '"':
            quoted = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0 and index != len(term) - 1:
                return False
    return depth == 0


def ids(collection: Location, kind: str, key: str | None, lower: bool = False) -> str:
    """The instance ids of a list's entries (their ``key`` member, or their index) or a map's keys."""
    suffix = " | ascii_downcase" if lower else ""
    if kind == EACH_MAP:
        return f"{nav(collection)} // {{}} | keys[]{suffix}"
    if key is not None:
        inner = nav((key,))
        if suffix:
            return f"{nav(collection)}[]? | {inner}{suffix}"
        return f"{nav(collection)}[]?{inner}"
    return f"{nav(collection)} // [] | keys[] | tostring{suffix}"


def label(key: str) -> str:
    """A pod's label, as the catalog's selectors read it."""
    return f".metadata.labels[{json.dumps(key)}]"


def shown(location: Location) -> str:
    """A location as comments write it: ``.spec.groups[].template``."""
    text = ""
    for step in location:
        piece = "[]" if step in ITERATIONS else nav((step,))
        text += piece[1:] if piece.startswith(".[") and text else piece
    return text or "."
