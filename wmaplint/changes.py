"""The lines a unified diff adds or changes, and the findings on them (``check --only-changed-lines``).

A pull request's annotations are worth reading only where the pull request touched the file, so CI can hand
wmaplint the diff (``git diff --unified=0 BASE HEAD``) and see findings only on those lines. Paths in the diff
are relative to the repository root (git's ``b/`` prefix is dropped); a finding is kept when any line of its
span was added or changed. Files the diff does not touch keep no findings.
"""

from __future__ import annotations

import re
from pathlib import Path

from wmaplint.dataclass import replace
from wmaplint.diagnostics import CheckOutcome
from wmaplint.report.common import relative_to_root

# A diff larger than this is refused (a pull request diff is far smaller; this only bounds the read).
MAX_DIFF_BYTES = 64 * 1024 * 1024

_HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


class DiffError(Exception):
    """The diff cannot be read: one line for the user, exit 2."""


def _unquote(name: str) -> str:
    """A path as git writes it: plain, or in double quotes with C escapes and octal bytes (UTF-8)."""
    if not (name.startswith('"') and name.endswith('"') and len(name) >= 2):
        return name
    data = bytearray()
    body = name[1:-1]
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\" or i + 1 == len(body):
            data.extend(ch.encode("utf-8", errors="surrogateescape"))
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in "01234567" and re.match(r"[0-7]{3}", body[i + 1 : i + 4]):
            data.append(int(body[i + 1 : i + 4], 8) & 0xFF)
            i += 4
        else:
            data.append(_ESCAPES.get(nxt, ord(nxt) if ord(nxt) < 128 else 63))
            i += 2
    return data.decode("utf-8", errors="surrogateescape")


def _new_path(header: str) -> str | None:
    """The file a ``+++`` line names, relative to the repository root; None for a deleted file."""
    # git ends a name holding spaces with a tab, GNU diff adds a tab and a date; a tab inside a name is
    # always written quoted as \t, so the first literal tab ends the name
    name = _unquote(header[4:].split("\t", 1)[0])
    if name == "/dev/null":
        return None
    return name[2:] if name.startswith("b/") else name


def changed_lines(diff: str) -> dict[str, set[int]]:
    """For each file of a unified diff (any context size), the 1-based lines of its new version that the diff
    adds or changes."""
    changes: dict[str, set[int]] = {}
    current: set[int] | None = None
    line_number = old_left = new_left = 0
    for line in diff.splitlines():
        if old_left > 0 or new_left > 0:  # inside a hunk: every line is counted, whatever it starts with
            tag = line[:1]
            if tag == "+":
                if current is not None:
                    current.add(line_number)
                line_number += 1
                new_left -= 1
            elif tag == "-":
                old_left -= 1
            elif tag == "\\":  # "\ No newline at end of file"
                pass
            else:
                line_number += 1
                old_left -= 1
                new_left -= 1
            continue
        if line.startswith("+++ "):
            path = _new_path(line)
            current = changes.setdefault(path, set()) if path is not None else None
            continue
        hunk = _HUNK.match(line)
        if hunk:
            old_left = int(hunk.group(1)) if hunk.group(1) is not None else 1
            line_number = int(hunk.group(2))
            new_left = int(hunk.group(3)) if hunk.group(3) is not None else 1
    return changes


def read_diff(path: str) -> dict[str, set[int]]:
    """Parse the diff in file ``path`` (``/dev/stdin`` and process substitutions work too)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_DIFF_BYTES + 1)
    except OSError as exc:
        raise DiffError(f"{path}: cannot read the diff ({exc.strerror or exc})") from None
    if len(data) > MAX_DIFF_BYTES:
        raise DiffError(f"{path}: the diff is over the {MAX_DIFF_BYTES // (1024 * 1024)} MB limit")
    # Lines of other files may be in any encoding; only the paths and the markers matter here.
    return changed_lines(data.decode("utf-8", errors="surrogateescape"))


def on_changed_lines(
    report: CheckOutcome, changes: dict[str, set[int]], root: Path, cwd: Path | None = None
) -> CheckOutcome:
    """``report`` with only the findings on lines in ``changes`` (paths relative to ``root``)."""
    kept = []
    where: dict[str, set[int]] = {}
    for diagnostic in report.diagnostics:
        if diagnostic.path not in where:
            inside = relative_to_root(diagnostic.path, root, cwd)
            where[diagnostic.path] = changes.get(inside, set()) if inside is not None else set()
        lines = where[diagnostic.path]
        span = diagnostic.span
        last = max(span.end_line, span.start_line)
        if lines and any(line in lines for line in range(span.start_line, last + 1)):
            kept.append(diagnostic)
    return replace(report, diagnostics=kept)
