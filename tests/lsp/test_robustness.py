"""The server keeps answering: malformed requests and frames, unopened documents, line separators, long lints,
bursts, and memory after a large document closes. Driven over stdio with a bare client."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from wmaplint.rules.examples import JOB

from . import malformed
from .rawclient import RawClient

BROKEN = JOB.replace("specDefinition:", "specDefiniton:")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RawClient]:
    client = RawClient(stderr_path=tmp_path / "stderr.txt")
    client.initialize()
    yield client
    client.stop()


def _uri(tmp_path: Path, name: str) -> str:
    return (tmp_path / name).as_uri()


def _stderr(tmp_path: Path) -> str:
    return (tmp_path / "stderr.txt").read_text(errors="replace")


def _codes(diagnostics: list[dict]) -> list[str]:
    return [d.get("code") for d in diagnostics]


def test_every_malformed_request_gets_one_answer(server: RawClient, tmp_path: Path) -> None:
    uri = _uri(tmp_path, "job.yaml")
    server.open(uri, BROKEN)
    assert "WM112" in _codes(server.diagnostics(uri))
    expected = []
    for message, answer_id in malformed.requests(seed=13, count=300, uri=uri):
        server.send(message)
        expected.append(answer_id)
    answers = [server.wait_for(lambda m: "method" not in m, timeout=60) for _ in expected]
    assert sorted(map(repr, (a["id"] for a in answers))) == sorted(map(repr, expected))
    assert all(("result" in a) != ("error" in a) for a in answers)
    # still serving: a well-formed request after the storm
    hover = server.call("textDocument/hover", {"textDocument": {"uri": uri},
                                               "position": {"line": 9, "character": 8}})
    assert "error" not in hover
    assert "Traceback" not in _stderr(tmp_path)


def test_bad_parameters_get_invalid_params(server: RawClient, tmp_path: Path) -> None:
    uri = _uri(tmp_path, "job.yaml")
    server.open(uri, JOB)
    server.diagnostics(uri)
    for position in ({"line": "3", "character": 0}, {"line": -1, "character": 0}, {"line": 0}):
        reply = server.call("textDocument/hover", {"textDocument": {"uri": uri}, "position": position})
        assert reply["error"]["code"] == -32602, reply
    reply = server.call("textDocument/completion", {"textDocument": {"uri": uri},
                                                    "position": {"line": 10_000, "character": 10_000}})
    assert reply["result"]["items"] == [] or isinstance(reply["result"]["items"], list)
    server.send({"jsonrpc": "2.0", "id": 7, "method": 5})
    assert server.response(7)["error"]["code"] == -32600
    assert server.call("workspace/unknownThing", {})["error"]["code"] == -32601
    assert "Traceback" not in _stderr(tmp_path)


def test_malformed_frames_are_answered_and_skipped(server: RawClient, tmp_path: Path) -> None:
    errors = 0
    for frame, answers in malformed.bad_frames():
        server.send_bytes(frame)
        errors += answers
    reply = server.call("textDocument/documentSymbol", {"textDocument": {"uri": _uri(tmp_path, "none.yaml")}})
    assert reply["result"] == []
    null_answers = [m for m in server.seen if "method" not in m and m.get("id") is None]
    assert len(null_answers) == errors
    assert all(m["error"]["code"] in (-32700, -32600) for m in null_answers)


def test_requests_before_initialize_and_after_shutdown(tmp_path: Path) -> None:
    client = RawClient()
    try:
        assert client.call("textDocument/hover", {})["error"]["code"] == -32002
        client.initialize()
        assert client.call("initialize", {"capabilities": {}})["error"]["code"] == -32600
        assert client.call("shutdown")["result"] is None
        assert client.call("textDocument/documentSymbol", {})["error"]["code"] == -32600
        client.notify("exit")
        assert client.proc.wait(timeout=20) == 0
    finally:
        client.proc.kill()


def test_changes_to_unknown_documents_are_ignored(server: RawClient, tmp_path: Path) -> None:
    uri = _uri(tmp_path, "job.yaml")
    server.change(_uri(tmp_path, "never-opened.yaml"), 2, [{"text": "x"}])
    start = {"line": 0, "character": 0}
    server.change(uri, 2, [{"range": {"start": start, "end": start}, "text": "x"}])
    server.close(_uri(tmp_path, "never-opened.yaml"))
    server.notify("textDocument/didChange", {"textDocument": "x", "contentChanges": 5})
    server.open(uri, BROKEN)
    assert "WM112" in _codes(server.diagnostics(uri))
    assert "Traceback" not in _stderr(tmp_path)


# U+2028 inside a quoted value and NEL ending a comment: libyaml breaks lines there, LSP clients do not.
SEPARATED = BROKEN.replace("metadata: {name: batch-job-v1}",
                           "metadata: {name: batch-job-v1, annotations: {note: \"a\u2028b\"}}  # c\x85")


def _range_of(text: str, token: str) -> dict:
    before = text[: text.index(token)]
    line, character = before.count("\n"), len(before) - (before.rfind("\n") + 1)
    return {"start": {"line": line, "character": character},
            "end": {"line": line, "character": character + len(token)}}


def test_incremental_edits_after_line_separators_land_on_their_line(server: RawClient, tmp_path: Path):
    uri = _uri(tmp_path, "separated.yaml")
    server.open(uri, SEPARATED)
    found = server.diagnostics(uri, version=1)
    unknown = [d for d in found if d["code"] == "WM112"]
    assert [d["range"] for d in unknown] == [_range_of(SEPARATED, "specDefiniton")]
    # the client renames the key back, then breaks another one further down
    server.change(uri, 2, [{"range": _range_of(SEPARATED, "specDefiniton"), "text": "specDefinition"}])
    assert "WM112" not in _codes(server.diagnostics(uri, version=2))
    fixed = SEPARATED.replace("specDefiniton", "specDefinition")
    server.change(uri, 3, [{"range": _range_of(fixed, "scaleDefinition"), "text": "scaleDefinitoin"}])
    after = server.diagnostics(uri, version=3)
    assert "WM101" not in _codes(after)
    broken = fixed.replace("scaleDefinition", "scaleDefinitoin")
    assert [d["range"] for d in after if d["code"] == "WM112"] == [_range_of(broken, "scaleDefinitoin")]
    actions = server.call("textDocument/codeAction", {
        "textDocument": {"uri": uri}, "range": _range_of(broken, "scaleDefinitoin"),
        "context": {"diagnostics": [d for d in after if d["code"] == "WM112"]}})["result"]
    rename = next(a for a in actions if a["title"] == "rename to scaleDefinition")
    # the fix edits only the characters that change, inside the token, on its line
    token = _range_of(broken, "scaleDefinitoin")
    (edit,) = rename["edit"]["changes"][uri]
    assert edit["range"]["start"]["line"] == edit["range"]["end"]["line"] == token["start"]["line"]
    start = edit["range"]["start"]["character"] - token["start"]["character"]
    end = edit["range"]["end"]["character"] - token["start"]["character"]
    assert 0 <= start <= end <= len("scaleDefinitoin")
    assert "scaleDefinitoin"[:start] + edit["newText"] + "scaleDefinitoin"[end:] == "scaleDefinition"


def test_a_burst_of_changes_ends_with_the_last_version(server: RawClient, tmp_path: Path) -> None:
    uri = _uri(tmp_path, "burst.yaml")
    server.open(uri, JOB)
    server.diagnostics(uri, version=1)
    for version in range(2, 202):
        text = BROKEN if version % 2 else JOB
        server.change(uri, version, [{"text": text}])
        if version % 50 == 0:
            server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
    assert "WM112" in _codes(server.diagnostics(uri, version=201))  # odd versions are the broken text


def test_initialize_is_answered_before_anything_heavy_is_imported() -> None:
    program = """
import io, json, sys
from wmaplint import launch  # what `wmaplint lsp` runs first
assert launch.lsp_options([]) == {}
from wmaplint.lsp import rpc, server
frames = rpc.read_frames(io.BytesIO(rpc.encode({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                                 "params": {"capabilities": {}}})))
out = io.BytesIO()
assert server.initialize(frames, rpc.Output(out))
print(json.dumps(sorted(sys.modules)))
"""
    proc = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    loaded = set(json.loads(proc.stdout))
    heavy = {"asyncio", "click", "yaml", "lsprotocol", "cattrs", "pygls", "wmaplint.engine",
             "wmaplint.source", "wmaplint.lsp.session", "wmaplint.lsp.worker"}
    assert loaded & heavy == set()


@pytest.mark.parametrize(("args", "expected"), [
    ([], {}),
    (["--tcp", "--port", "9000"], {"tcp": True, "port": 9000}),
    (["--host=0.0.0.0", "--lint-timeout", "2.5"], {"host": "0.0.0.0", "lint_timeout": 2.5}),
    (["--help"], None),
    (["--port"], None),
    (["--port", "x"], None),
    (["--port", "70000"], None),
    (["--lint-timeout", "nan"], None),
    (["--lint-timeout=0.01"], None),
    (["--verbose"], None),
])
def test_the_launcher_reads_the_common_lsp_options_and_leaves_the_rest_to_the_command_line(
        args: list[str], expected: dict[str, object] | None) -> None:
    from wmaplint.launch import lsp_options

    assert lsp_options(args) == expected


def test_lsp_options_the_launcher_cannot_read_get_the_command_lines_answer() -> None:
    proc = subprocess.run([sys.executable, "-m", "wmaplint", "lsp", "--port", "x"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "--port" in proc.stderr
