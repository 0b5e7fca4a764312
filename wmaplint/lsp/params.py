"""Checks of what the editor sends, before anything acts on it: a bad shape is a `BadParams` (an error
response for a request, a one-line log entry for a notification), never an exception further in.
"""

from __future__ import annotations

from typing import Any

from wmaplint.lsp.documents import TextDocument

MAX_UINTEGER = 2**31 - 1  # the protocol's uinteger


class BadParams(Exception):
    pass


def _object(value: object, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadParams(f"{what} must be an object")
    return value


def _string(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise BadParams(f"{what} must be a string")
    return value


def _uinteger(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_UINTEGER:
        raise BadParams(f"{what} must be an integer from 0 to {MAX_UINTEGER}")
    return value


def _version(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadParams("textDocument.version must be an integer")
    return value


def _language(value: object) -> str:
    return value if isinstance(value, str) else ""


def document_uri(params: Any) -> str:
    document = _object(_object(params, "params").get("textDocument"), "textDocument")
    return _string(document.get("uri"), "textDocument.uri")


def position(value: object, what: str = "position") -> tuple[int, int]:
    where = _object(value, what)
    line = _uinteger(where.get("line"), f"{what}.line")
    return line, _uinteger(where.get("character"), f"{what}.character")


def text_range(value: object, what: str = "range") -> dict[str, Any]:
    where = _object(value, what)
    position(where.get("start"), f"{what}.start")
    position(where.get("end"), f"{what}.end")
    return where


def check_request(method: str, params: Any) -> str:
    """The document a feature request is about, after checking the fields the request needs."""
    uri = document_uri(params)
    if method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        position(params.get("position"))
    elif method == "textDocument/codeAction":
        text_range(params.get("range"))
        context = _object(params.get("context"), "context")
        diagnostics = context.get("diagnostics")
        if not isinstance(diagnostics, list):
            raise BadParams("context.diagnostics must be an array")
        for number, diagnostic in enumerate(diagnostics):
            text_range(_object(diagnostic, f"context.diagnostics[{number}]").get("range"),
                       f"context.diagnostics[{number}].range")
    return uri


def check_text_document(params: Any) -> TextDocument:
    """The document of a didOpen."""
    item = _object(_object(params, "params").get("textDocument"), "textDocument")
    return TextDocument(
        uri=_string(item.get("uri"), "textDocument.uri"),
        language_id=_language(item.get("languageId")),
        version=_version(item.get("version")),
        text=_string(item.get("text"), "textDocument.text"),
    )


def check_changes(params: Any) -> tuple[str, int | None, list[dict[str, Any]]]:
    """The document, new version and content changes of a didChange."""
    uri = document_uri(params)
    version = _version(params["textDocument"].get("version"))
    changes = params.get("contentChanges")
    if not isinstance(changes, list):
        raise BadParams("contentChanges must be an array")
    for number, change in enumerate(changes):
        what = f"contentChanges[{number}]"
        _string(_object(change, what).get("text"), f"{what}.text")
        if change.get("range") is not None:
            text_range(change["range"], f"{what}.range")
    return uri, version, changes
