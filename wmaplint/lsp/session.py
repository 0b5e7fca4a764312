"""The language server after ``initialize``: open documents, lint scheduling, feature requests.

This process keeps the open documents, speaks JSON-RPC with the editor and decides what is linted and when;
a child process (`worker.py`) lints and answers feature requests.

Every request gets a result or an error response, whatever its shape. A lint runs at most ``lint_timeout``
seconds, is stopped by a newer edit of its document once it has run ``OVERTAKE_SECONDS``, and a worker that
keeps much memory after a document closes is replaced, so memory returns.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

from wmaplint.childproc import process_alive
from wmaplint.lsp import attach, rpc
from wmaplint.lsp.documents import TextDocument
from wmaplint.lsp.params import BadParams, check_changes, check_request, check_text_document, document_uri
from wmaplint.lsp.rpc import Output
from wmaplint.lsp.supervisor import JobFailed, Supervisor, WorkerStopped
from wmaplint.lsp.uris import path_or_uri
from wmaplint.lsp.worker import give_back_memory

REQUEST_TIMEOUT_SECONDS = 10.0
OVERTAKE_SECONDS = 0.5  # a lint that has run this long gives way to a newer version of its document
WORKER_MEMORY_LIMIT = 1536 * 1024 * 1024  # a lint that needs more is stopped
# A worker that holds this much more than when it was ready, after a document closes, is replaced: a normal
# session (the whole catalog linted, its schemas loaded) adds about half of it.
RECYCLE_GROWTH = 128 * 1024 * 1024
MAX_UNHANDLED = 64  # messages read ahead of handling; the reader waits beyond that
# bytes of messages read ahead of handling: past them (one large message) the reader waits until they are
# handled, so a second large frame is not read while the first is parsed
MAX_UNHANDLED_BYTES = 1024 * 1024
CLIENT_POLL_SECONDS = 1.0  # how often the client's process is looked for
STOP_SECONDS = 3.0  # the worker's polite end after the session, before it is killed
DRAIN_SECONDS = 5.0  # how long open requests may take to be answered at shutdown, exit or end of input

log = logging.getLogger("wmaplint.lsp")

# The answer to a feature request for a document that is not ours (or not open).
EMPTY_RESULTS: dict[str, Any] = {
    "textDocument/hover": None,
    "textDocument/completion": {"isIncomplete": False, "items": []},
    "textDocument/definition": [],
    "textDocument/documentSymbol": [],
    "textDocument/codeAction": [],
}


class Session:
    def __init__(self, output: Output, debounce: float, lint_timeout: float,
                 supervisor: Supervisor | None = None) -> None:
        self.output = output
        self.debounce = debounce
        self.lint_timeout = lint_timeout
        self.state = "running"  # initialize was answered; -> "shutdown"
        self.documents: dict[str, TextDocument] = {}
        self.supervisor = supervisor or Supervisor(WORKER_MEMORY_LIMIT, RECYCLE_GROWTH)
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.lints_waiting: set[str] = set()  # lint tasks that have not read their document yet
        self.published: set[str] = set()  # documents showing diagnostics of ours
        self.requests: dict[rpc.Id, asyncio.Task[None]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.finished = asyncio.Event()
        self.exit_code = 0
        self.shutting_down: asyncio.Task[None] | None = None
        self.leaving: asyncio.Task[None] | None = None

    # -- output -----------------------------------------------------------------------------------

    def send(self, message: dict[str, Any]) -> None:
        if not self.output.send(message):
            self.finish(1)  # the editor is gone

    def notify(self, method: str, params: Any) -> None:
        self.send(rpc.notification(method, params))

    def log_message(self, kind: int, text: str) -> None:
        self.notify("window/logMessage", {"type": kind, "message": text})

    # -- input ------------------------------------------------------------------------------------

    def receive(self, item: bytes | rpc.Rejected) -> None:
        message = rpc.parse(item) if isinstance(item, bytes) else item
        if isinstance(message, rpc.Rejected):
            self.send(rpc.error(message.id, message.code, message.message))
        elif message is not None and message.method is not None:
            if message.is_request:
                self.on_request(message)
            else:
                self.on_notification(message.method, message.params)

    def answer_unread(self, item: bytes | rpc.Rejected) -> None:
        """Answer a message that could not be handled for want of memory (its id read from its head)."""
        msg_id = item.id if isinstance(item, rpc.Rejected) else rpc.id_of(item)
        self.send(rpc.error(msg_id, rpc.INTERNAL_ERROR, "out of memory handling the message"))

    def on_request(self, message: rpc.Message) -> None:
        method, msg_id = message.method, message.id
        if self.state == "shutdown":
            self.send(rpc.error(msg_id, rpc.INVALID_REQUEST, "the server is shut down"))
        elif method == "initialize":
            self.send(rpc.error(msg_id, rpc.INVALID_REQUEST, "initialize was already received"))
        elif method == "shutdown":
            self.state = "shutdown"
            if msg_id is not None:  # a shutdown sent as a notification has nothing to answer
                self.shutting_down = self.spawn(self.shut_down(msg_id))
        elif method in EMPTY_RESULTS:
            assert msg_id is not None and method is not None
            if msg_id in self.requests:
                self.send(rpc.error(msg_id, rpc.INVALID_REQUEST, f"request id {msg_id!r} is already in use"))
                return
            task = self.spawn(self.answer(msg_id, method, message.params))
            self.requests[msg_id] = task
            task.add_done_callback(functools.partial(self._settled, msg_id))
        else:
            self.send(rpc.error(msg_id, rpc.METHOD_NOT_FOUND, f"unsupported method {method!r}"))

    def on_notification(self, method: str, params: Any) -> None:
        if method == "exit":
            self.leave()
            return
        if self.state != "running":
            return  # after shutdown, notifications other than exit are dropped
        handler = self.NOTIFICATIONS.get(method)
        if handler is None:
            return  # $/setTrace, workspace notifications, ...: nothing to do
        try:
            handler(self, params)
        except BadParams as exc:
            log.info("wmaplint lsp: ignored %s: %s", method, exc)

    # -- documents --------------------------------------------------------------------------------

    def did_open(self, params: Any) -> None:
        item = check_text_document(params)
        self.documents[item.uri] = item
        self.schedule_lint(item.uri, 0)

    def did_change(self, params: Any) -> None:
        uri, version, changes = check_changes(params)
        document = self.documents.get(uri)
        if document is None:
            raise BadParams(f"{uri} is not open")
        for change in changes:
            document.apply(change)
        document.version = version
        self.schedule_lint(uri, self.debounce)

    def did_save(self, params: Any) -> None:
        uri = document_uri(params)
        if uri in self.documents:
            self.schedule_lint(uri, 0)

    def did_close(self, params: Any) -> None:
        uri = document_uri(params)
        if self.documents.pop(uri, None) is None:
            return
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.supervisor.overtake(uri, 0)
        if uri in self.published:
            self.published.discard(uri)
            self.notify("textDocument/publishDiagnostics", {"uri": uri, "diagnostics": []})
        self.spawn(self.forget(uri))

    def cancel_request(self, params: Any) -> None:
        msg_id = params.get("id") if isinstance(params, dict) else None
        task = self.requests.get(msg_id) if isinstance(msg_id, (int, str)) else None
        if task is not None:
            task.cancel()

    NOTIFICATIONS: dict[str, Callable[[Session, Any], None]] = {
        "textDocument/didOpen": did_open,
        "textDocument/didChange": did_change,
        "textDocument/didSave": did_save,
        "textDocument/didClose": did_close,
        "$/cancelRequest": cancel_request,
    }

    async def forget(self, uri: str) -> None:
        """Drop the worker's copy of a closed document; replace the worker if its memory stays high."""
        try:
            await self.supervisor.run(lambda: {"kind": "forget", "uri": uri}, REQUEST_TIMEOUT_SECONDS)
        except (WorkerStopped, JobFailed):
            return
        give_back_memory()  # the server held the document's text too: what is free goes back here as well
        if not self.documents or all(_small(d) for d in self.documents.values()):
            if await self.supervisor.recycle_if_large():
                await self.supervisor.warm()  # the next lint should not wait for the imports

    # -- linting ----------------------------------------------------------------------------------

    def schedule_lint(self, uri: str, delay: float) -> None:
        timer = self.timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        self.supervisor.overtake(uri, OVERTAKE_SECONDS)
        loop = asyncio.get_running_loop()
        self.timers[uri] = loop.call_later(delay, self._start_lint, uri)

    def _start_lint(self, uri: str) -> None:
        self.timers.pop(uri, None)
        if uri not in self.lints_waiting:  # a waiting lint reads the newest text when its turn comes
            self.lints_waiting.add(uri)
            self.spawn(self.lint(uri))

    async def lint(self, uri: str) -> None:
        linted: list[tuple[TextDocument, str, int | None]] = []  # the version the job was made from

        def job() -> dict[str, Any] | None:
            self.lints_waiting.discard(uri)
            document = self.documents.get(uri)
            if document is None:
                return None
            linted.append((document, document.text, document.version))
            if not is_ours(document):
                return None
            return {"kind": "lint", "uri": uri, "text": document.text, "language": document.language_id}

        try:
            outcome = await self.supervisor.run(job, self.lint_timeout) or {"skipped": "not ours"}
        except WorkerStopped as stopped:
            if stopped.reason == "cancelled":
                return  # a newer version of the document is on its way
            outcome = {"diagnostics": [_stopped_diagnostic(stopped, self.lint_timeout)]}
        except JobFailed as failed:
            outcome = {"error": str(failed)}
        if not linted:
            return
        document, text, version = linted[0]
        current = self.documents.get(uri)
        if current is not document or (document.text, document.version) != (text, version):
            return  # the document changed or closed meanwhile; a newer lint is scheduled
        if "error" in outcome:
            self.log_message(1, f"wmaplint: checking {path_or_uri(uri)} failed: {outcome['error']}")
        if "diagnostics" not in outcome and uri not in self.published:
            return  # a document that is not ours never hears from us
        found = outcome.get("diagnostics") or []
        self.published.add(uri) if "diagnostics" in outcome else self.published.discard(uri)
        self.notify("textDocument/publishDiagnostics", {"uri": uri, "diagnostics": found, "version": version})

    # -- feature requests -------------------------------------------------------------------------

    async def answer(self, msg_id: rpc.Id, method: str, params: Any) -> None:
        try:
            uri = check_request(method, params)
            document = self.documents.get(uri)
            if document is None or not is_ours(document):
                result = EMPTY_RESULTS[method]
            else:
                def job() -> dict[str, Any]:
                    return {"kind": "request", "method": method, "uri": uri, "text": document.text,
                            "language": document.language_id, "params": params}

                result = await self.supervisor.run(job, REQUEST_TIMEOUT_SECONDS)
            self.send(rpc.response(msg_id, result))
        except BadParams as exc:
            self.send(rpc.error(msg_id, rpc.INVALID_PARAMS, str(exc)))
        except JobFailed as failed:
            self.send(rpc.error(msg_id, failed.code, str(failed)))
        except WorkerStopped as stopped:
            self.send(rpc.error(msg_id, rpc.REQUEST_FAILED, f"the request was stopped ({stopped.reason})"))

    def _settled(self, msg_id: rpc.Id, task: asyncio.Task[None]) -> None:
        """A request's task is done: forget it, and answer it if it was cancelled. A task cancelled before it
        first ran never enters its own code, so the answer cannot come from inside it."""
        if self.requests.get(msg_id) is task:
            del self.requests[msg_id]
        if task.cancelled() and not self.finished.is_set():
            self.send(rpc.error(msg_id, rpc.REQUEST_CANCELLED, "cancelled"))

    # -- lifecycle --------------------------------------------------------------------------------

    def spawn(self, work: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def finish(self, code: int) -> None:
        if not self.finished.is_set():  # the first reason to end is the one that counts
            self.exit_code = code
            self.finished.set()

    async def shut_down(self, msg_id: rpc.Id) -> None:
        """Answer shutdown once every request received before it is answered."""
        await self._drain()
        self.send(rpc.response(msg_id, None))

    def leave(self) -> None:
        """Exit, or the end of the input: answer what is still open (in bounded time), then end; 0 only after
        shutdown."""
        if self.leaving is None:
            code = 0 if self.state == "shutdown" else 1
            self.leaving = self.spawn(self._leave(code))

    async def _leave(self, code: int) -> None:
        await self._drain()
        if self.shutting_down is not None:
            await asyncio.wait({self.shutting_down}, timeout=DRAIN_SECONDS)
        self.finish(code)

    async def _drain(self) -> None:
        pending = set(self.requests.values())
        if pending:
            await asyncio.wait(pending, timeout=DRAIN_SECONDS)
            await asyncio.sleep(0)  # their done callbacks (the answers of cancelled ones) run first

    async def serve(self, frames: Iterator[bytes | rpc.Rejected], client_process: int | None = None) -> int:
        """Serve until exit, the end of the input, or the end of the client's process (``client_process``,
        the processId of initialize: polled); then stop the worker, in bounded time."""
        loop = asyncio.get_running_loop()
        self.spawn(self.supervisor.warm())
        if client_process is not None:
            self.spawn(self.watch_client(client_process))
        room = threading.BoundedSemaphore(MAX_UNHANDLED)
        unhandled = threading.Condition()
        pending = [0]  # bytes read and not yet handled

        def handle(item: bytes | rpc.Rejected) -> None:
            room.release()
            try:
                if not self.finished.is_set():
                    self.receive(item)
            except MemoryError:  # answered all the same: what the message took is freed as this unwinds
                self.answer_unread(item)
            finally:
                with unhandled:
                    pending[0] -= len(item) if isinstance(item, bytes) else 0
                    unhandled.notify()

        def read() -> None:
            try:
                for item in frames:
                    room.acquire()
                    with unhandled:
                        pending[0] += len(item) if isinstance(item, bytes) else 0
                    loop.call_soon_threadsafe(handle, item)
                    with unhandled:
                        while pending[0] > MAX_UNHANDLED_BYTES and not self.finished.is_set():
                            unhandled.wait(CLIENT_POLL_SECONDS)
            except (OSError, ValueError):
                pass
            except MemoryError:
                log.error("wmaplint lsp: out of memory reading the input; ending")
            loop.call_soon_threadsafe(self.leave)  # the state is read when the messages before are handled

        threading.Thread(target=read, name="wmaplint-lsp-reader", daemon=True).start()
        await self.finished.wait()
        for task in list(self.tasks):
            task.cancel()
        try:
            await asyncio.wait_for(self.supervisor.close(), STOP_SECONDS)
        except TimeoutError:
            pass
        self.supervisor.kill_all()
        return self.exit_code

    async def watch_client(self, pid: int) -> None:
        while process_alive(pid):
            await asyncio.sleep(CLIENT_POLL_SECONDS)
        log.warning("wmaplint lsp: the client process %d is gone; exiting", pid)
        self.finish(0 if self.state == "shutdown" else 1)


def is_ours(document: TextDocument) -> bool:
    """Whether the document is one `check` reads; nothing else gets lint work (cached per text)."""
    if document.ours is None or document.ours[0] is not document.text:
        document.ours = (document.text, attach.is_ours(path_or_uri(document.uri), document.language_id,
                                                       document.text))
    return document.ours[1]


def _small(document: TextDocument) -> bool:
    return len(document.text) < 1024 * 1024


def _stopped_diagnostic(stopped: WorkerStopped, timeout: float) -> dict[str, Any]:
    why = {
        "timeout": f"checking it took longer than {timeout:g} s",
        "memory": f"checking it needed more than {WORKER_MEMORY_LIMIT // (1024 * 1024)} MB",
    }.get(stopped.reason, "the checker stopped unexpectedly")
    return {
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
        "severity": 3,
        "source": "wmaplint",
        "message": f"wmaplint did not check this document: {why}. `wmaplint check` on the file checks it "
                   f"without the editor's limits.",
    }
