"""Machine-readable output, format version 2 (documented in docs/json-output.md; keep the two in step).

Columns are UTF-16 code units, as in every other output (version 1 counted code points).

Diagnostics are sorted by path, span, rule and message; object keys keep a fixed order; ``data`` values
that JSON cannot hold (sets, tuples, paths, enums, non-finite floats) are converted, never dropped.
"""

from __future__ import annotations

import enum
import json
import math
from collections.abc import Mapping
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from wmaplint.diagnostics import CheckOutcome, Diagnostic, Fix, RelatedLocation, Severity, Span
from wmaplint.report.common import SourceLines, count, dump_json, output_span, sorted_diagnostics

if TYPE_CHECKING:
    from wmaplint.source.plain import Json

FORMAT_VERSION = 2
# Deeply nested ``data`` is cut off rather than recursed into without bound.
MAX_DATA_DEPTH = 64


def span_json(span: Span | None) -> dict[str, Any] | None:
    if span is None:
        return None
    return {
        "start": {"line": span.start_line, "column": span.start_col},
        "end": {"line": span.end_line, "column": span.end_col},
    }


def plain_data(value: Json, depth: int = 0) -> Json:
    """``value`` as JSON-compatible data (bounded depth; unknown objects become their ``str``)."""
    if depth > MAX_DATA_DEPTH:
        return "..."
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return plain_data(value.value if not isinstance(value, Severity) else value.label, depth + 1)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Span):
        return span_json(value)
    if isinstance(value, PurePath):
        return value.as_posix()
    if isinstance(value, Mapping):
        return {str(key): plain_data(item, depth + 1) for key, item in value.items()}
    if isinstance(value, (set, frozenset)):
        items = [plain_data(item, depth + 1) for item in value]
        return sorted(items, key=lambda item: json.dumps(item, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [plain_data(item, depth + 1) for item in value]
    return str(value)


def _related_json(related: RelatedLocation, lines: SourceLines) -> dict[str, Any]:
    span = related.span
    if span is not None and related.base is None:
        span = output_span(lines, related.path, span)
    return {"path": related.path, "base": related.base, "span": span_json(span), "message": related.message}


def _fix_json(fix: Fix, path: str, lines: SourceLines) -> dict[str, Any]:
    return {
        "description": fix.description,
        "edits": [
            {"span": span_json(output_span(lines, path, edit.span)), "newText": edit.new_text}
            for edit in fix.edits
        ],
    }


def diagnostic_json(diagnostic: Diagnostic, lines: SourceLines | None = None) -> dict[str, Any]:
    """One diagnostic; ``lines`` (the report's sources) converts its columns to UTF-16 code units."""
    lines = lines if lines is not None else SourceLines({})
    return {
        "rule": diagnostic.rule,
        "name": diagnostic.name,
        "severity": Severity(diagnostic.severity).label,
        "message": diagnostic.message,
        "path": diagnostic.path,
        "span": span_json(output_span(lines, diagnostic.path, diagnostic.span)),
        "related": [_related_json(related, lines) for related in diagnostic.related],
        "fixes": [_fix_json(fix, diagnostic.path, lines) for fix in diagnostic.fixes],
        "data": plain_data(diagnostic.data) if diagnostic.data else {},
    }


def report_json(report: CheckOutcome, *, tool_version: str) -> dict[str, Any]:
    counts = count(report)
    lines = SourceLines(report.sources)
    return {
        "version": FORMAT_VERSION,
        "tool": {"name": "wmaplint", "version": tool_version},
        "files": report.files_checked,
        "diagnostics": [diagnostic_json(d, lines) for d in sorted_diagnostics(report.diagnostics)],
        "errors": list(report.errors),
        "summary": {
            "errors": counts.errors,
            "warnings": counts.warnings,
            "infos": counts.infos,
            "total": counts.total,
        },
    }


def render_json(report: CheckOutcome, *, tool_version: str) -> str:
    # expanded down to each diagnostic's keys; spans, related locations, fixes and data stay on one line
    return dump_json(report_json(report, tool_version=tool_version), expand_depth=3)
