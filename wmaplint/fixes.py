"""Apply the first fix of each finding to its file: non-overlapping edits, atomic replace, comments
untouched."""

from __future__ import annotations

import os
import tempfile
from collections import defaultdict
from pathlib import Path

from wmaplint.diagnostics import Report, TextEdit
from wmaplint.source.lines import LineIndex


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """Apply edits (spans in 1-based line/column) from the end backwards; overlapping ones are skipped."""
    lines = LineIndex(text)

    def offset(line: int, col: int) -> int:
        if line > lines.line_count:
            return len(text)
        return min(lines.starts[line - 1] + col - 1, len(text))

    spans = sorted(((offset(e.span.start_line, e.span.start_col), offset(e.span.end_line, e.span.end_col),
                     e.new_text) for e in edits), reverse=True)
    out = text
    last_start = len(text) + 1
    for start, end, new in spans:
        if end > last_start:
            continue  # overlaps an edit already applied
        out = out[:start] + new + out[end:]
        last_start = start
    return out


def write_atomic(path: str, text: str) -> None:
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def apply_fixes(report: Report) -> int:
    """Write fixes into the files of a report; returns how many findings were fixed."""
    per_file: dict[str, list[TextEdit]] = defaultdict(list)
    count = 0
    for diag in report.diagnostics:
        if diag.fixes and diag.path in report.sources and os.path.isfile(diag.path):
            per_file[diag.path].extend(diag.fixes[0].edits)
            count += 1
    for path, edits in per_file.items():
        new_text = apply_edits(report.sources[path], edits)
        if new_text != report.sources[path]:
            write_atomic(path, new_text)
    return count
