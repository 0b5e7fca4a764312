"""The converted items of a definition's lists, kept for the next conversion of a definition that holds the
same items: the language server converts the definition it lints on every edit, and an edit changes one
component of many. An item is known by its data as pickle writes it without its memo (what is written
depends on the data alone, not on which of its objects are shared), which tells apart what equality does
not (``1``, ``1.0`` and ``True``) and reads back as the same data, and by the schema node and depth it is
converted at. A kept item is given back as the same object, and its sizes
(``SizeIndex``) are merged from the item's own instead of walked again."""

from __future__ import annotations

import io
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from wmaplint import memo
from wmaplint.cel.sizes import SizeIndex

MIN_PIECE_BYTES = 512  # smaller items cost less to convert than to look up
KEPT_PIECES = 256


class Piece:
    """A converted item: its schema node (held, so its id is not reused), the converted value, and that
    value's sizes once it is used again."""

    __slots__ = ("schema", "value", "sizes")

    def __init__(self, schema: object, value: Any) -> None:
        self.schema = schema
        self.value = value
        self.sizes: SizeIndex | None = None


# (id of the schema node, depth, the item's data written) -> the converted item, most recently used last
_kept: OrderedDict[tuple[int, int, bytes], Piece] = memo.kept(__name__, "_kept", OrderedDict(), pure=True)
_lock = threading.Lock()


def converted(schema: object, value: Any, depth: int, convert: Callable[[], Any], reused: dict[int, Piece]
              ) -> Any:
    """``convert()``, or the value it gave for the same data, schema node and depth before (of the last
    KEPT_PIECES items); a value given again is entered in ``reused`` by its id."""
    try:
        written = _written(value)
    except (pickle.PicklingError, TypeError, ValueError, RecursionError):
        return convert()
    if len(written) < MIN_PIECE_BYTES:
        return convert()
    key = (id(schema), depth, written)
    with _lock:
        piece = _kept.get(key)
        if piece is not None and piece.schema is schema:
            _kept.move_to_end(key)
            reused[id(piece.value)] = piece
            return piece.value
    out = convert()
    with _lock:
        _kept[key] = Piece(schema, out)
        while len(_kept) > KEPT_PIECES:
            _kept.popitem(last=False)
    return out


def _written(value: Any) -> bytes:
    """The data as pickle writes it without a memo: 4 times faster than ``repr``. (Data read from YAML holds
    no cycle, which a pickler without a memo could not write.)"""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=5)
    pickler.fast = True  # no memo: an object met twice is written twice, as equal objects are
    pickler.dump(value)
    return out.getvalue()


def sizes_with(value: object, reused: dict[int, Piece]) -> SizeIndex:
    """``SizeIndex(value)``, the sizes of the ``reused`` pieces in it merged from their own."""
    known: dict[int, SizeIndex] = {}
    for ident, piece in reused.items():
        if piece.sizes is None:
            piece.sizes = SizeIndex(piece.value)
        known[ident] = piece.sizes
    return SizeIndex(value, known)  # ``reused`` holds the pieces
