"""An editor frame under the 128 MB content limit is bounded by the values it holds, not only its bytes, and
every request is answered, with an error when it cannot be read: each session runs as the fuzz runner runs a
case (its own process, address space capped, peak memory read from the kernel).

Bounded by bytes alone, a 126 MB frame of 42 million `[]` took 3.2 GB to parse; under a 2 GB cap it ended in
a MemoryError in the session's handler and the request was never answered."""

from __future__ import annotations

import json
from pathlib import Path

from wmaplint.lsp import rpc

from .frames import frame, message
from .fuzz import environment, run_case
from .generators import Case

INITIALIZE = message({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                      "params": {"capabilities": {}, "rootUri": None, "processId": None}})
END = message({"jsonrpc": "2.0", "id": 9999, "method": "shutdown"}) + message({"jsonrpc": "2.0",
                                                                              "method": "exit"})
HEAD = b'{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.yaml"},'


def values_frame(size: int, value: bytes = b"[]") -> bytes:
    """A hover request of about ``size`` bytes whose params hold one list of ``value`` repeated."""
    count = (size - len(HEAD)) // (len(value) + 1)
    return frame(HEAD + b'"x":[' + b",".join([value] * count) + b"]}}")


def text_frame(size: int) -> bytes:
    """A document opened with a text of about ``size`` bytes (one string: few values)."""
    text = "a: [" + "1, " * (size // 3) + "]\n"
    return message({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": "file:///big.yaml", "languageId": "yaml", "version": 1, "text": text}}})


def _session(tmp_path: Path, middle: bytes, answers: list[int | str]):  # type: ignore[no-untyped-def]
    case = Case("frames", "huge", {}, ["lsp"], stdin=INITIALIZE + middle + END, answers=answers)
    outcome = run_case(case, tmp_path, environment(tmp_path))
    assert outcome.ok, str(outcome)  # every request answered once, 20 s, 500 MB, no traceback
    return outcome


def _replies(stdout: str) -> dict[object, dict]:  # type: ignore[type-arg]
    import io

    found = {}
    for item in rpc.read_frames(io.BytesIO(stdout.encode())):
        if isinstance(item, bytes):
            reply = json.loads(item)
            if "id" in reply and "method" not in reply:
                found[reply["id"]] = reply
    return found


def test_a_frame_of_126_mb_of_small_values_is_answered_with_an_error(tmp_path: Path) -> None:
    # the frame of the report, 42 million `[]`; the other small values (`{}`, `0`, `""`, `[[[]]]`) at 16, 64
    # and 126 MB are the huge frames of `make fuzz`'s lsp-frames family (frames.py huge_frame), ~10 s each
    outcome = _session(tmp_path, values_frame(126 << 20), [0, 1, 9999])
    error = _replies(outcome.stdout)[1].get("error")
    assert error is not None and "values" in error["message"], error


def test_a_large_document_of_few_values_still_opens(tmp_path: Path) -> None:
    big = text_frame(30 << 20)  # 30 MB of text: one string, 10 million commas in it
    hover = message({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": "file:///big.yaml"}, "position": {"line": 0, "character": 0}}})
    outcome = _session(tmp_path, big + hover, [0, 2, 9999])
    assert "error" not in _replies(outcome.stdout)[2], outcome.stdout[-2000:]


def test_the_counted_reader_parses_as_json_does() -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "m", "params": {
        "a": [1, 2.5, "x,[{", None, True, {"b": [[], {}]}], "s": "," * 5000}}).encode()
    parsed = rpc.parse(body, most=100)
    assert isinstance(parsed, rpc.Message) and parsed.params == json.loads(body)["params"]
    refused = rpc.parse(body.replace(b'"x,[{"', b", ".join([b"[]"] * 200)), most=100)
    assert isinstance(refused, rpc.Rejected) and refused.id == 3 and "values" in refused.message
