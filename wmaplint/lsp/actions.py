"""Code actions: each diagnostic's fixes as quick fixes, and a suppression comment for its rule."""

from __future__ import annotations

import re

from lsprotocol import types as lsp

from wmaplint.lsp.convert import SOURCE, range_from_json
from wmaplint.lsp.documents import utf16_len
from wmaplint.lsp.snapshot import Snapshot
from wmaplint.source import ScalarNode, iter_nodes

_EXISTING = re.compile(r"#\s*wmaplint:\s*disable\s*=\s*(?P<rules>[A-Za-z0-9_,\- ]+?)\s*(?P<reason>--.*)?$")


def code_actions(snapshot: Snapshot, uri: str, diagnostics: list[lsp.Diagnostic]) -> list[lsp.CodeAction]:
    actions: list[lsp.CodeAction] = []
    for diag in diagnostics:
        if diag.source != SOURCE:
            continue
        data = diag.data if isinstance(diag.data, dict) else {}
        fixes = data.get("fixes") or []
        for fix in fixes:
            edits = []
            for edit in fix.get("edits", []):
                rng = range_from_json(edit.get("range"))
                if rng is not None:
                    edits.append(lsp.TextEdit(range=rng, new_text=str(edit.get("newText", ""))))
            if edits:
                actions.append(
                    lsp.CodeAction(
                        title=" ".join(str(fix.get("title") or "apply fix").split()),  # a menu entry
                        kind=lsp.CodeActionKind.QuickFix,
                        diagnostics=[diag],
                        edit=lsp.WorkspaceEdit(changes={uri: edits}),
                        is_preferred=len(fixes) == 1,
                    )
                )
        rule = str(diag.code or data.get("rule") or "")
        if rule and not snapshot.is_json:
            action = _disable_action(snapshot, uri, diag, rule)
            if action is not None:
                actions.append(action)
    return actions


def _inside_multiline_scalar(snapshot: Snapshot, offset: int) -> bool:
    """Whether a line end falls inside a scalar spanning lines (a comment there would become its content)."""
    for document in snapshot.source.documents:
        if document.root is None or not (document.root.start <= offset <= document.root.end):
            continue
        for node in iter_nodes(document.root):
            if isinstance(node, ScalarNode) and node.start < offset < node.end:
                return True
    return False


def _disable_action(snapshot: Snapshot, uri: str, diag: lsp.Diagnostic, rule: str) -> lsp.CodeAction | None:
    line0 = diag.range.start.line
    index = snapshot.index
    line = index.line(line0)
    if line0 >= len(index.lines):
        return None
    end_offset = index.starts[line0] + len(line)
    if _inside_multiline_scalar(snapshot, end_offset) or snapshot.source.problems:
        return None  # no safe spot on this line, or the YAML does not parse (the line may be in a scalar)
    match = _EXISTING.search(line)
    if match is not None:
        rules = [r.strip() for r in match.group("rules").split(",") if r.strip()]
        if rule in rules:
            return None
        start = match.start("rules")
        end = match.end("rules")
        rng = lsp.Range(
            start=lsp.Position(line=line0, character=utf16_len(line[:start])),
            end=lsp.Position(line=line0, character=utf16_len(line[:end])),
        )
        new_text = ",".join([*rules, rule])
    else:
        at = lsp.Position(line=line0, character=utf16_len(line.rstrip()))
        rng = lsp.Range(start=at, end=lsp.Position(line=line0, character=utf16_len(line)))
        new_text = f"  # wmaplint: disable={rule} -- reason"
    return lsp.CodeAction(
        title=f"Disable {rule} for this line",
        kind=lsp.CodeActionKind.QuickFix,
        diagnostics=[diag],
        edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(range=rng, new_text=new_text)]}),
    )
