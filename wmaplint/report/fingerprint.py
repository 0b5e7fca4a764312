"""GitHub's ``primaryLocationLineHash``: a rolling hash anchored at each line start.

The upload action fills this in itself when a result lacks it, but uploads through the REST API do not,
and results then duplicate on every run. Computing the same value here keeps both routes stable.

How the value is defined (a description of the upload action's behaviour, reimplemented):
- the file is read as UTF-16 code units; spaces and tabs are skipped; CR and CRLF count as one LF;
- every remaining unit is fed into a polynomial hash over a window of the last 100 units
  (multiplier 37, arithmetic modulo 2**64), and one end-of-file unit 0xFFFF follows the text;
- a line's hash is the window value once the 100 units starting at the line's first kept unit have been
  fed (zeros pad the window after the end of the file);
- the value is ``<hash as lowercase hex without leading zeros>:<n>`` where n counts how often that hash has
  been seen so far in the file (identical lines get :1, :2, ...).
"""

from __future__ import annotations

import array
import sys
from collections.abc import Iterator

WINDOW = 100
MULTIPLIER = 37
MASK = (1 << 64) - 1
END_OF_FILE = 0xFFFF
_SPACE, _TAB, _LF, _CR = 0x20, 0x09, 0x0A, 0x0D
# The multiplier raised to the window size: how much the unit leaving the window weighs.
_LEAVING_WEIGHT = pow(MULTIPLIER, WINDOW, 1 << 64)


def _code_units(text: str) -> array.array[int]:
    units = array.array("H")
    units.frombytes(text.encode("utf-16-le", errors="surrogatepass"))
    if sys.byteorder == "big":
        units.byteswap()
    return units


def _kept_units(text: str) -> Iterator[int]:
    """The units the hash sees: no blanks, line breaks normalised to LF, then the end-of-file marker."""
    after_cr = False
    for unit in _code_units(text):
        if unit == _SPACE or unit == _TAB:
            after_cr = False
            continue
        if unit == _LF and after_cr:
            after_cr = False
            continue
        after_cr = unit == _CR
        yield _LF if after_cr else unit
    yield END_OF_FILE


def line_hashes(text: str, last_line: int | None = None) -> dict[int, str]:
    """Map each 1-based line number to its ``primaryLocationLineHash``.

    There is one entry per line, counting the empty line after a final line break. ``last_line`` stops the
    work once that line's hash is known (the occurrence counter only depends on earlier lines).
    """
    hashes: dict[int, str] = {}
    seen: dict[int, int] = {}
    window = [0] * WINDOW
    # line number that starts at each window slot, 0 when the slot holds no line start
    starts = [0] * WINDOW
    slot = 0
    value = 0
    line = 0
    at_line_start = True

    def emit(value: int, slot: int) -> None:
        occurrence = seen.get(value, 0) + 1
        seen[value] = occurrence
        hashes[starts[slot]] = f"{value:x}:{occurrence}"
        starts[slot] = 0

    # The window update is written out in both loops: a helper call per character doubles the time on
    # megabyte files.
    for unit in _kept_units(text):
        if starts[slot]:
            emit(value, slot)
            if last_line is not None and last_line in hashes:
                return hashes
        if at_line_start:
            at_line_start = False
            line += 1
            starts[slot] = line
        if unit == _LF:
            at_line_start = True
        value = (value * MULTIPLIER + unit - _LEAVING_WEIGHT * window[slot]) & MASK
        window[slot] = unit
        slot = (slot + 1) % WINDOW
    for _ in range(WINDOW):  # pad with zeros so the last lines get full windows too
        if starts[slot]:
            emit(value, slot)
        value = (value * MULTIPLIER - _LEAVING_WEIGHT * window[slot]) & MASK
        window[slot] = 0
        slot = (slot + 1) % WINDOW
    return hashes
