"""wmaplint diagnostics as LSP diagnostics: UTF-16 ranges, severities, related locations, fixes in `data`."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from lsprotocol import types as lsp

from wmaplint.diagnostics import CACHED_SCHEMAS, SHIPPED_PACKS, Diagnostic, RelatedLocation, Severity
from wmaplint.lsp.positions import LspPositions

SOURCE = "wmaplint"
SEVERITIES = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}


def _range_json(r: lsp.Range) -> dict[str, Any]:
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


def range_from_json(data: Any) -> lsp.Range | None:
    try:
        s, e = data["start"], data["end"]
        return lsp.Range(
            start=lsp.Position(line=int(s["line"]), character=int(s["character"])),
            end=lsp.Position(line=int(e["line"]), character=int(e["character"])),
        )
    except (KeyError, TypeError, ValueError):
        return None


def local_file(rel: RelatedLocation) -> str | None:
    """The file a related location is in, or None when it has none on disk (bundled schemas are packed)."""
    if rel.base is None:
        return rel.path
    if rel.base == SHIPPED_PACKS:
        from wmaplint.shipped_data import shipped

        return str(shipped("packs") / rel.path)
    if rel.base == CACHED_SCHEMAS:
        from wmaplint.schema.sources import user_schema_dir

        return str(user_schema_dir() / rel.path)
    return None


def to_lsp(
    diag: Diagnostic,
    index: LspPositions,
    path: str,
    uri: str,
    uri_for_path: Callable[[str], str],
    other_index: Callable[[str], LspPositions | None],
) -> lsp.Diagnostic:
    """One diagnostic; ``other_index`` gives line indexes of related files (None when unreadable). A related
    location in a file the editor cannot open (a schema inside the bundle) is left out."""
    related: list[lsp.DiagnosticRelatedInformation] = []
    for rel in diag.related:
        rel_path = local_file(rel)
        if rel_path is None:
            continue
        same = rel_path == path or os.path.abspath(rel_path) == os.path.abspath(path)
        rel_index = index if same else other_index(rel_path)
        if rel.span is not None and rel_index is not None:
            rel_range = rel_index.range(rel.span)
        else:
            rel_range = lsp.Range(
                start=lsp.Position(line=0, character=0), end=lsp.Position(line=0, character=0)
            )
        related.append(
            lsp.DiagnosticRelatedInformation(
                location=lsp.Location(uri=uri if same else uri_for_path(rel_path), range=rel_range),
                message=rel.message,
            )
        )
    fixes = [
        {
            "title": fix.description,
            "edits": [{"range": _range_json(index.range(e.span)), "newText": e.new_text} for e in fix.edits],
        }
        for fix in diag.fixes
    ]
    return lsp.Diagnostic(
        range=index.range(diag.span),
        message=diag.message,
        severity=SEVERITIES.get(diag.severity, lsp.DiagnosticSeverity.Warning),
        code=diag.rule,
        source=SOURCE,
        related_information=related or None,
        data={"rule": diag.rule, "name": diag.name, "fixes": fixes},
    )
