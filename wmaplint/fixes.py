"""Apply the first fix of each finding to its file, and write the file back whole or not at all; repeat,
checking again in between, until no fix is left (``fix_to_fixed_point``).

A file is replaced by the one writer of every file wmaplint writes (``wmaplint.writes``: a temporary file in
its own directory, synced to disk before the rename), with the file's mode, owner, byte order mark and line
ends kept; a file that changed since it was read, a read-only file, a file with other hard links and, unless
asked, a symbolic link are left alone with one line saying why.
"""

from __future__ import annotations

import os
import stat
from collections import defaultdict
from collections.abc import Callable

from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import CheckOutcome, TextEdit
from wmaplint.source.lines import LineIndex
from wmaplint.source.reading import encoding_of
from wmaplint.writes import TEMP_PREFIX, TEMP_SUFFIX, WriteError, replace_file, sweep_temporary_files

BOM = b"\xef\xbb\xbf"
# A fix can leave a finding that another fix resolves (a path moved into place, then its iteration guarded),
# and of two fixes on one span only the first is applied: a run repeats until nothing changes. Fixes that undo
# each other would never settle, so the rounds are bounded.
MAX_FIX_ROUNDS = 8
__all__ = ["TEMP_PREFIX", "TEMP_SUFFIX", "FixError", "apply_fixes", "sweep_temporary_files", "write_fixed"]


class FixError(WriteError):
    """A file that cannot be fixed: one line."""


@dataclass
class FixOutcome:
    fixed: int = 0  # findings whose fix was written
    errors: list[str] = field(default_factory=list)  # one line per file left alone


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply edits (spans in 1-based line/column) from the end backwards; overlapping ones are skipped."""
    out, _ = _apply(text, [[edit] for edit in edits])
    return out


def _apply(text: str, groups: list[list[TextEdit]]) -> tuple[str, int]:
    """Apply groups of edits (one group per fix), each whole or not at all: a group that overlaps an edit of
    a group taken before it is skipped. Returns the text and how many groups were applied."""
    lines = LineIndex(text)

    def offset(line: int, col: int) -> int:
        if line > lines.line_count:
            return len(text)
        return min(lines.starts[line - 1] + col - 1, len(text))

    taken: list[tuple[int, int, str]] = []
    applied = 0
    for group in groups:
        spans = [(offset(e.span.start_line, e.span.start_col), offset(e.span.end_line, e.span.end_col),
                  e.new_text) for e in group]
        if any(_overlap(span, other) for span in spans for other in taken):
            continue
        taken.extend(spans)
        applied += 1
    out = text
    for start, end, new in sorted(taken, reverse=True):
        out = out[:start] + new + out[end:]
    return out, applied


def _overlap(a: tuple[int, int, str], b: tuple[int, int, str]) -> bool:
    # two insertions at one place, or ranges that share a character, cannot both be applied
    return a[0] < b[1] and b[0] < a[1] or a[0] == b[0]


def apply_fixes(report: CheckOutcome, *, follow_symlinks: bool = False) -> FixOutcome:
    """Write the first fix of each finding into the files of a report."""
    per_file: dict[str, list[list[TextEdit]]] = defaultdict(list)
    for diag in report.diagnostics:
        if diag.fixes and diag.path in report.sources:
            per_file[diag.path].append(list(diag.fixes[0].edits))
    outcome = FixOutcome()
    for path, groups in per_file.items():
        new_text, applied = _apply(report.sources[path], groups)
        if new_text == report.sources[path]:
            continue
        try:
            write_fixed(path, new_text, report.sources[path], follow_symlinks=follow_symlinks)
        except FixError as exc:
            outcome.errors.append(str(exc))
            continue
        outcome.fixed += applied
    return outcome


def fix_to_fixed_point(
    report: CheckOutcome, check_again: Callable[[], CheckOutcome], *, follow_symlinks: bool = False,
    rounds: int = MAX_FIX_ROUNDS,
) -> tuple[CheckOutcome, FixOutcome]:
    """Apply fixes and check again until no fix changes a file, at most ``rounds`` times; the report of the
    last check and what was done in all rounds."""
    total = FixOutcome()
    for _ in range(rounds):
        outcome = apply_fixes(report, follow_symlinks=follow_symlinks)
        total.errors.extend(e for e in outcome.errors if e not in total.errors)
        if not outcome.fixed:
            break
        total.fixed += outcome.fixed
        report = check_again()
    return report, total


def write_fixed(path: str, text: str, was: str, *, follow_symlinks: bool = False) -> None:
    """Replace the file at ``path``, last read as ``was``, by ``text``; FixError when it must not or cannot
    be."""
    target = path
    if os.path.islink(path):
        if not follow_symlinks:
            raise FixError(f"{path}: is a symbolic link; not fixed (--follow-symlinks writes to its target)")
        target = os.path.realpath(path)
    try:
        info = os.stat(target)
        if not stat.S_ISREG(info.st_mode):
            raise FixError(f"{path}: not a regular file; not fixed")
        if not info.st_mode & 0o222 or not os.access(target, os.W_OK):
            raise FixError(f"{path}: is read-only; not fixed")
        if info.st_nlink > 1:
            raise FixError(f"{path}: has other hard links, which a replaced file would no longer share; not "
                           "fixed")
        with open(target, "rb") as handle:
            current = handle.read(len(was.encode("utf-8")) + len(BOM) + 1)
    except OSError as exc:
        raise FixError(f"{path}: cannot read it again ({exc.strerror or exc}); not fixed") from None
    _, encoding, _ = encoding_of(current)
    if encoding != "UTF-8":  # read as text, it would be written back in another encoding
        raise FixError(f"{path}: is {encoding} encoded; not fixed (fixes are written into UTF-8 files only)")
    bom = current.startswith(BOM)
    if current[len(BOM) if bom else 0:] != was.encode("utf-8"):
        raise FixError(f"{path}: changed since it was checked; not fixed")
    try:
        replace_file(target, (BOM if bom else b"") + text.encode("utf-8"), shown=path, refusal="not fixed")
    except WriteError as exc:
        raise FixError(str(exc)) from None
