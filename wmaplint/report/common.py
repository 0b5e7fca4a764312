"""Helpers every reporter shares: ordering, counting, source lines, columns and path-to-URI mapping.

Every output states columns in UTF-16 code units, the unit of LSP, of SARIF's ``utf16CodeUnits`` and of
GitHub's JavaScript front end; diagnostics count code points, so reporters convert with ``output_span``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from wmaplint.dataclass import dataclass
from wmaplint.diagnostics import (
    BUNDLED_SCHEMAS,
    CACHED_SCHEMAS,
    SHIPPED_PACKS,
    CheckOutcome,
    Diagnostic,
    RelatedLocation,
    Severity,
    Span,
)
from wmaplint.plural import plural
from wmaplint.source.lines import split_lines

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

STDIN_PATH = "<stdin>"



def sorted_diagnostics(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Deterministic order: path, span, rule, message (the order every format uses)."""
    return sorted(diagnostics, key=lambda d: d.sort_key())


@dataclass(frozen=True, slots=True)
class Counts:
    errors: int
    warnings: int
    infos: int
    files: int

    @property
    def total(self) -> int:
        return self.errors + self.warnings + self.infos


def count(report: CheckOutcome) -> Counts:
    by_severity = {severity: 0 for severity in Severity}
    for diagnostic in report.diagnostics:
        by_severity[Severity(diagnostic.severity)] += 1
    return Counts(
        errors=by_severity[Severity.ERROR],
        warnings=by_severity[Severity.WARNING],
        infos=by_severity[Severity.INFO],
        files=report.files_checked,
    )


def summary_line(counts: Counts) -> str:
    files = plural(counts.files, "file")
    if counts.total == 0:
        return f"no findings in {files}"
    parts = [plural(counts.errors, "error"), plural(counts.warnings, "warning"), plural(counts.infos, "info")]
    return f"{', '.join(parts)} in {files}"


class SourceLines:
    """Lines of each source text, split lazily and cached (a report may hold megabyte CRDs)."""

    def __init__(self, sources: dict[str, str]) -> None:
        self._sources = sources
        self._lines: dict[str, list[str]] = {}

    def text(self, path: str) -> str | None:
        return self._sources.get(path)

    def line(self, path: str, number: int) -> str | None:
        """The text of 1-based line ``number`` without its line break, or None when unknown."""
        lines = self._lines.get(path)
        if lines is None:
            text = self._sources.get(path)
            if text is None:
                return None
            lines = split_lines(text)
            self._lines[path] = lines
        if 1 <= number <= len(lines):
            return lines[number - 1]
        return None


def utf16_column(line: str | None, column: int) -> int:
    """Convert a 1-based code-point column to a 1-based UTF-16 code-unit column on ``line``.

    Characters outside the Basic Multilingual Plane take two code units; columns past the end of the
    line (a span ending at the line break) keep their distance from the end.
    """
    if line is None or column <= 1:
        return max(column, 1)
    prefix = line[: column - 1]
    if prefix.isascii():
        return column
    # each astral character adds one extra UTF-16 unit; counting bytes keeps the work in C
    return column + (len(prefix.encode("utf-16-le", errors="surrogatepass")) // 2 - len(prefix))


def output_span(lines: SourceLines, path: str, span: Span) -> Span:
    """``span`` with UTF-16 columns, read against the lines of ``path`` (as is where the text is unknown)."""
    start_col = utf16_column(lines.line(path, span.start_line), span.start_col)
    if span.end_line == span.start_line and span.end_col == span.start_col:
        return Span(span.start_line, start_col, span.end_line, start_col)
    end_col = utf16_column(lines.line(path, span.end_line), span.end_col)
    return Span(span.start_line, start_col, span.end_line, end_col)


# How reporters name the roots a related location can be relative to (never the machine path behind them).
BASE_LABELS = {
    BUNDLED_SCHEMAS: "bundled schemas",
    CACHED_SCHEMAS: "schema cache",
    SHIPPED_PACKS: "shipped rule packs",
}


def related_where(related: RelatedLocation, lines: SourceLines, path: str | None = None) -> str:
    """``path:line:col`` of a related location for text and annotations, naming its root when it has one.

    ``path`` replaces the location's own path (a repository-relative form, for instance).
    """
    where = path if path is not None else related.path
    if related.span is not None:
        span = related.span if related.base is not None else output_span(lines, related.path, related.span)
        where = f"{where}:{span.start_line}:{span.start_col}"
    if related.base is not None:
        where = f"{where} ({BASE_LABELS.get(related.base, related.base)})"
    return where


def repository_root(cwd: Path | None = None) -> Path:
    """The root of the git work tree holding ``cwd`` (``git rev-parse --show-toplevel``), else ``cwd``.

    Code scanning and annotations place files by their path from the repository root, whatever directory
    wmaplint ran in.
    """
    import subprocess  # only the SARIF and GitHub reporters ask for the root; the text report does not

    base = cwd if cwd is not None else Path.cwd()
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"],
            cwd=base,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):  # no git, or it hung
        return base
    top = done.stdout.strip()
    return Path(top) if done.returncode == 0 and top else base


def relative_to_root(path: str, root: Path, cwd: Path | None = None) -> str | None:
    """``path`` (as the user gave it) relative to ``root`` in POSIX form, or None when it lies outside.

    Relative paths are taken from the working directory. Symlinks are resolved only when the plain path is
    outside the root, so a link inside the repository keeps the name the user sees.
    """
    if path == STDIN_PATH:
        return None
    base = cwd if cwd is not None else Path.cwd()
    plain = Path(os.path.normpath(base / path))
    plain_root = Path(os.path.normpath(base / root))
    candidates = [(plain, plain_root)]
    try:
        candidates.append((plain.resolve(), plain_root.resolve()))
    except (OSError, RuntimeError):  # unreadable or looping links: the plain path is all we have
        pass
    for absolute, absolute_root in candidates:
        try:
            inside = absolute.relative_to(absolute_root)
        except ValueError:
            continue
        if inside.parts:
            return inside.as_posix()
    return None


def repository_uri(path: str, root: Path, cwd: Path | None = None) -> str | None:
    """``path`` as a percent-encoded URI relative to the repository ``root``; None when it lies outside.

    GitHub places results by such URIs and needs them identical across runs. Standard input becomes the
    relative URI ``%3Cstdin%3E``.
    """
    if path == STDIN_PATH:
        return quote(path, safe="")
    inside = relative_to_root(path, root, cwd)
    # a name that is not UTF-8 (bytes kept as surrogates) is percent-encoded byte for byte
    return quote(inside, safe="/", errors="surrogateescape") if inside is not None else None


def display_path(path: str, root: Path | None, cwd: Path | None = None) -> str:
    """A path relative to ``root`` when it lies inside it (annotations need repository paths)."""
    if root is None:
        return path
    inside = relative_to_root(path, root, cwd)
    return inside if inside is not None else path


_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))
_COMPACT_ASCII = json.JSONEncoder(ensure_ascii=True, separators=(", ", ": "))


def dump_json(value: Json, expand_depth: int, indent: int = 2) -> str:
    """JSON text with the outer ``expand_depth`` levels indented and everything deeper on one line.

    The standard library's indenting encoder is pure Python and about ten times slower than the
    compact C encoder; with one finding per line the output stays readable and diffable at C speed.
    Lone surrogates (from undecodable input) are written as escapes, so the text always encodes as UTF-8.
    """

    def layout(item: Json, level: int, encode: Callable[[Any], str]) -> str:
        if level >= expand_depth or not isinstance(item, (dict, list)) or not item:
            return encode(item)
        inner = " " * (indent * (level + 1))
        outer = " " * (indent * level)
        if isinstance(item, dict):
            parts = [
                f"{inner}{encode(str(key))}: {layout(value, level + 1, encode)}"
                for key, value in item.items()
            ]
            return "{\n" + ",\n".join(parts) + "\n" + outer + "}"
        parts = [inner + layout(value, level + 1, encode) for value in item]
        return "[\n" + ",\n".join(parts) + "\n" + outer + "]"

    text = layout(value, 0, _COMPACT.encode) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = layout(value, 0, _COMPACT_ASCII.encode) + "\n"
    return text
