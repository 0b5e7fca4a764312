"""The pygls server: document sync, debounced linting in a worker thread, and the feature handlers."""

from __future__ import annotations

import asyncio
import logging
import os
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import unquote

import click
from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from wmaplint import __version__
from wmaplint.lsp import actions, completion, hover, jqschema, navigation
from wmaplint.lsp.convert import to_lsp
from wmaplint.lsp.positions import LineIndex
from wmaplint.lsp.snapshot import Snapshot, wants_lint

DEBOUNCE_SECONDS = 0.15
log = logging.getLogger("wmaplint.lsp")


class WmaplintServer(LanguageServer):
    def __init__(self, debounce: float = DEBOUNCE_SECONDS) -> None:
        super().__init__(
            "wmaplint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental
        )
        from wmaplint.engine import Options

        self.debounce = debounce
        self.options = Options()
        # one worker: lints run one at a time (the engine's caches are not shared across threads)
        self.linter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wmaplint-lint")
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.snapshots: dict[str, tuple[int | None, Snapshot]] = {}
        self._rules_loaded = False

    def load_rules(self) -> None:
        if not self._rules_loaded:
            from wmaplint.checks import load_checks
            from wmaplint.rule_modules import import_rule_modules

            load_checks()
            import_rule_modules()
            self._rules_loaded = True

    def snapshot(self, uri: str) -> Snapshot:
        """The parsed current version of an open document (cached per version)."""
        document = self.workspace.get_text_document(uri)
        cached = self.snapshots.get(uri)
        if (
            cached is not None
            and cached[0] == document.version
            and cached[0] is not None
            and cached[1].text == document.source
        ):
            return cached[1]
        path = to_fs_path(uri) or uri
        snapshot = Snapshot(document.source, path, is_json=_is_json(uri, document.language_id))
        self.snapshots[uri] = (document.version, snapshot)
        return snapshot

    def schemas_for(self, uri: str) -> jqschema.SchemaLookup:
        """Schema sources for a document's jq expressions (call on the lint worker: the store is not
        thread-safe)."""
        path = to_fs_path(uri) or uri
        try:
            store = self.options.schema_store(self.options.config_for(path))
        except Exception:  # a broken config: no schema features, the lint reports the config problem
            log.exception("no schema store for %s", uri)
            store = None
        return jqschema.schemas_from_store(store)

    async def on_worker(self, compute, fallback):  # type: ignore[no-untyped-def]
        """Run a feature on the lint worker (it shares the schema store with linting), guarded."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.linter, _guard, compute, fallback)

    def schedule_lint(self, uri: str, delay: float) -> None:
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        loop = asyncio.get_running_loop()
        self.pending[uri] = loop.call_later(delay, lambda: asyncio.ensure_future(self.lint(uri)))

    async def lint(self, uri: str) -> None:
        self.pending.pop(uri, None)
        # pygls keys its documents by the percent-decoded URI: `a%20b.yaml` is stored as `a b.yaml`
        if unquote(uri) not in self.workspace.text_documents:
            return
        document = self.workspace.get_text_document(uri)
        version, text, language = document.version, document.source, document.language_id
        loop = asyncio.get_running_loop()
        diagnostics = await loop.run_in_executor(self.linter, self.compute_diagnostics, uri, text, language)
        current = self.workspace.text_documents.get(unquote(uri))
        if current is None or current.version != version or current.source != text:
            return  # the document changed or closed while we linted; a newer lint is scheduled
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=version)
        )

    def compute_diagnostics(self, uri: str, text: str, language_id: str | None) -> list[lsp.Diagnostic]:
        from wmaplint.engine import lint_text

        path = to_fs_path(uri) or uri
        if not wants_lint(path, language_id, text):
            return []
        self.load_rules()
        try:
            found = lint_text(text, path, self.options)
        except Exception as exc:  # an engine bug must not take the server down; say so in the log
            log.exception("linting %s failed", uri)
            self.window_log_message(
                lsp.LogMessageParams(
                    type=lsp.MessageType.Error, message=f"wmaplint: linting {path} failed: {exc}"
                )
            )
            return []
        index = LineIndex(text)
        return [to_lsp(d, index, path, uri, _uri_for_path, _index_of_file) for d in found]


def _is_json(uri: str, language_id: str | None) -> bool:
    return (language_id or "").lower() in ("json", "jsonc") or uri.lower().endswith(".json")


def _uri_for_path(path: str) -> str:
    return from_fs_path(os.path.abspath(path)) or path


def _index_of_file(path: str) -> LineIndex | None:
    from wmaplint.source import InputError, read_path

    try:
        return LineIndex(read_path(path))
    except (InputError, OSError):
        return None


def create_server(debounce: float = DEBOUNCE_SECONDS) -> WmaplintServer:
    server = WmaplintServer(debounce)

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: WmaplintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.schedule_lint(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: WmaplintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.schedule_lint(params.text_document.uri, ls.debounce)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: WmaplintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.schedule_lint(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: WmaplintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        handle = ls.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()
        ls.snapshots.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: WmaplintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        uri = params.text_document.uri
        snapshot = _guard(lambda: ls.snapshot(uri), None)
        if snapshot is None:
            return None
        return await ls.on_worker(lambda: hover.hover(snapshot, params.position, ls.schemas_for(uri)), None)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=[" ", "."]))
    async def on_completion(ls: WmaplintServer, params: lsp.CompletionParams) -> lsp.CompletionList:
        uri = params.text_document.uri
        snapshot = _guard(lambda: ls.snapshot(uri), None)
        items = []
        if snapshot is not None:
            items = await ls.on_worker(
                lambda: completion.completions(snapshot, params.position, ls.schemas_for(uri)), []
            )
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def on_definition(ls: WmaplintServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
        uri = params.text_document.uri
        return _guard(lambda: navigation.definition(ls.snapshot(uri), uri, params.position), [])

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def on_symbols(ls: WmaplintServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
        return _guard(lambda: navigation.document_symbols(ls.snapshot(params.text_document.uri)), [])

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix])
    )
    def on_code_action(ls: WmaplintServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        return _guard(
            lambda: actions.code_actions(ls.snapshot(uri), uri, list(params.context.diagnostics)), []
        )

    return server


def _guard(compute, fallback):  # type: ignore[no-untyped-def]
    """Run a feature; a failure is logged and answered with an empty result instead of an error popup."""
    try:
        return compute()
    except Exception:
        log.exception("request failed")
        return fallback


@click.command("lsp")
@click.option("--tcp", is_flag=True, help="Listen on TCP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind with --tcp.")
@click.option("--port", default=2087, show_default=True, type=int, help="Port to bind with --tcp.")
def lsp_command(tcp: bool, host: str, port: int) -> None:
    """Run the language server (stdio by default)."""
    server = create_server()
    if tcp:
        server.start_tcp(host, port)
    else:
        server.start_io()
