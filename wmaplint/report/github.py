"""GitHub Actions workflow commands: each finding becomes an annotation on the pull request's files.

    ::error file=defs/jobset.yaml,line=12,col=27,endLine=12,endColumn=34,title=WMnnn rule-name::unknown…

Conventions: ``file`` is relative to ``root`` (the repository checkout) when the file lies inside it;
``col``/``endColumn`` are given only for single-line spans (GitHub ignores columns across lines), in UTF-16
code units like every other output, and ``endColumn`` is the last column of the span (inclusive); info
findings are ``notice`` annotations. Related locations and fixes follow the message on their own lines.
"""

from __future__ import annotations

from pathlib import Path

from wmaplint.diagnostics import CheckOutcome, Diagnostic, Severity
from wmaplint.report.common import (
    STDIN_PATH,
    SourceLines,
    display_path,
    output_span,
    related_where,
    sorted_diagnostics,
)

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message (the part after ``::``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a property value; ``:`` and ``,`` would end the value early."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _message(diagnostic: Diagnostic, sources: SourceLines, root: Path | None, cwd: Path | None) -> str:
    lines = [diagnostic.message]
    for related in diagnostic.related:
        shown = display_path(related.path, root, cwd) if related.base is None else None
        lines.append(f"note: {related_where(related, sources, shown)}: {related.message}")
    for fix in diagnostic.fixes:
        if fix.description:
            lines.append(f"help: {fix.description}")
    return "\n".join(lines)


def annotation(
    diagnostic: Diagnostic,
    root: Path | None,
    cwd: Path | None = None,
    *,
    paths: dict[str, str] | None = None,
    sources: SourceLines | None = None,
) -> str:
    """One workflow command; ``paths`` caches display paths across calls (resolving them touches the disk),
    ``sources`` gives the lines that columns are converted with."""
    lines = sources if sources is not None else SourceLines({})
    span = output_span(lines, diagnostic.path, diagnostic.span)
    properties: list[tuple[str, str]] = []
    if diagnostic.path != STDIN_PATH:
        cache = paths if paths is not None else {}
        if diagnostic.path not in cache:
            cache[diagnostic.path] = display_path(diagnostic.path, root, cwd)
        properties.append(("file", cache[diagnostic.path]))
        start_line = max(span.start_line, 1)
        end_line = max(span.end_line, start_line)
        properties.append(("line", str(start_line)))
        if end_line == start_line:
            start_col = max(span.start_col, 1)
            properties.append(("col", str(start_col)))
            properties.append(("endLine", str(end_line)))
            properties.append(("endColumn", str(max(span.end_col - 1, start_col))))
        else:
            properties.append(("endLine", str(end_line)))
    properties.append(("title", f"{diagnostic.rule} {diagnostic.name}".strip()))
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    command = COMMAND[Severity(diagnostic.severity)]
    return f"::{command} {rendered}::{escape_data(_message(diagnostic, lines, root, cwd))}"


def render_github(report: CheckOutcome, *, root: Path | None = None, cwd: Path | None = None) -> str:
    paths: dict[str, str] = {}
    sources = SourceLines(report.sources)
    lines = [
        annotation(d, root, cwd, paths=paths, sources=sources) for d in sorted_diagnostics(report.diagnostics)
    ]
    return "".join(line + "\n" for line in lines)
