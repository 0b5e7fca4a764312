"""The session's decisions, watched from inside: which documents get lint work, what is published, and how a
newer edit overtakes a long lint. Messages go in as the editor would send them; the worker is a recorder or
the stand-in worker (`fake_worker.py`)."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from wmaplint.lsp.session import Session
from wmaplint.lsp.supervisor import Supervisor
from wmaplint.rules.examples import JOB

FAKE = (sys.executable, str(Path(__file__).with_name("fake_worker.py")))
HELM = "{{- if .Values.enabled }}\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n{{- end }}\n"
WORKFLOW = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: [{run: make}]\n"
PACKAGE = '{"name": "ext", "version": "1.0.0", "scripts": {"test": "mocha"}}'


class Output:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any]) -> bool:
        self.sent.append(message)
        return True

    def published(self, uri: str) -> list[dict[str, Any]]:
        return [m["params"] for m in self.sent
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]


class Recorder:
    """A worker keeper that runs nothing: it records the jobs and answers lints with no findings."""

    def __init__(self) -> None:
        self.jobs: list[dict[str, Any]] = []

    async def warm(self) -> None:
        pass

    async def run(self, build: Any, timeout: float) -> Any:
        job = build()
        if job is None:
            return None
        self.jobs.append(job)
        return {"diagnostics": []} if job["kind"] == "lint" else None

    def overtake(self, uri: str, after: float) -> bool:
        return False

    async def recycle_if_large(self) -> bool:
        return False

    async def close(self) -> None:
        pass


def feed(session: Session, method: str, params: Any, msg_id: int | None = None) -> None:
    message = {"jsonrpc": "2.0", "method": method, "params": params}
    if msg_id is not None:
        message["id"] = msg_id
    session.receive(json.dumps(message).encode())


def open_document(session: Session, uri: str, text: str, language: str = "yaml") -> None:
    feed(session, "textDocument/didOpen",
         {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})


async def settle(session: Session) -> None:
    for _ in range(50):
        await asyncio.sleep(0.01)
        if not session.timers and all(t.done() for t in session.tasks if t is not asyncio.current_task()):
            return


@pytest.mark.asyncio
async def test_documents_that_are_not_ours_get_no_work_and_no_diagnostics() -> None:
    output, recorder = Output(), Recorder()
    session = Session(output, 0.0, 10.0, supervisor=recorder)  # type: ignore[arg-type]
    others = {"file:///repo/package.json": (PACKAGE, "json"),
              "file:///repo/chart/templates/deploy.yaml": (HELM, "yaml"),
              "file:///repo/.github/workflows/ci.yml": (WORKFLOW, "yaml")}
    for number, (uri, (text, language)) in enumerate(others.items()):
        open_document(session, uri, text, language)
        feed(session, "textDocument/hover", {"textDocument": {"uri": uri},
                                             "position": {"line": 0, "character": 1}}, msg_id=number)
    await settle(session)
    assert recorder.jobs == []
    assert all(output.published(uri) == [] for uri in others)
    answers = [m for m in output.sent if "id" in m]
    assert len(answers) == 3 and all(m["result"] is None for m in answers)
    open_document(session, "file:///repo/job.yaml", JOB)
    await settle(session)
    assert [j["kind"] for j in recorder.jobs] == ["lint"]
    assert output.published("file:///repo/job.yaml") == [
        {"uri": "file:///repo/job.yaml", "diagnostics": [], "version": 1}]


@pytest.mark.asyncio
async def test_a_document_that_stops_being_ours_is_cleared_once() -> None:
    output, recorder = Output(), Recorder()
    session = Session(output, 0.0, 10.0, supervisor=recorder)  # type: ignore[arg-type]
    uri = "file:///repo/job.yaml"
    open_document(session, uri, JOB)
    await settle(session)
    for version in (2, 3):
        feed(session, "textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [{"text": WORKFLOW}]})
        await settle(session)
    assert len(recorder.jobs) == 1
    assert [p["diagnostics"] for p in output.published(uri)] == [[], []]
    feed(session, "textDocument/didClose", {"textDocument": {"uri": uri}})
    await settle(session)
    assert len(output.published(uri)) == 2  # nothing shown, nothing to clear


@pytest.mark.asyncio
async def test_an_edit_overtakes_a_long_lint_of_its_document() -> None:
    output = Output()
    keeper = Supervisor(1 << 31, 1 << 30, command=FAKE)
    session = Session(output, 0.0, 60.0, supervisor=keeper)
    uri = "file:///repo/job.yaml"
    try:
        open_document(session, uri, JOB + "# sleep 30\n")
        for _ in range(400):  # until the worker is on it
            await asyncio.sleep(0.05)
            if keeper.running is not None:
                break
        await asyncio.sleep(0.7)
        feed(session, "textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": [{"text": JOB + "# quick\n"}]})
        for _ in range(400):
            await asyncio.sleep(0.05)
            if output.published(uri):
                break
        assert [p["version"] for p in output.published(uri)] == [2]
        assert keeper.starts == 2  # the overtaken worker was replaced
    finally:
        await keeper.close()
