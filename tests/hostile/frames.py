"""Language server sessions for hostile testing: well-formed and broken base-protocol frames, requests with
parameters of the wrong shape, edits past the end of a document, and bursts; ``lsp_session`` returns the bytes
a client would write to the server's standard input, ending in shutdown and exit (or plain end of input), and
``framing_session`` valid requests between frames that lie about their length, with the ids to be answered.

``frame`` and ``message`` are usable on their own to script a particular session in a test."""

from __future__ import annotations

import json
import random
from typing import Any

URI = "file:///work/def.yaml"
METHODS = [
    "textDocument/hover", "textDocument/completion", "textDocument/definition", "textDocument/codeAction",
    "textDocument/documentSymbol", "textDocument/semanticTokens/full", "workspace/symbol", "$/cancelRequest",
    "$/setTrace", "textDocument/formatting", "no/such/method", "",
]


def frame(body: bytes, *, length: int | None = None, header: bytes | None = None) -> bytes:
    """One base-protocol frame; ``length`` and ``header`` let a test lie about either."""
    if header is None:
        header = b"Content-Length: %d\r\n\r\n" % (len(body) if length is None else length)
    return header + body


def message(payload: Any) -> bytes:
    return frame(json.dumps(payload).encode("utf-8", "surrogatepass"))


def _position(rng: random.Random) -> Any:
    line = rng.choice([0, 1, 5, 10_000, -1, 2**31, 2**63, "3", None, 1.5])
    character = rng.choice([0, 3, 200, -5, 2**40, "x", None])
    return {"line": line, "character": character}


def _params(rng: random.Random, method: str) -> Any:
    shapes = [
        {"textDocument": {"uri": URI}, "position": _position(rng)},
        {"textDocument": {"uri": rng.choice([URI, "file:///nope.yaml", "not a uri", "", 7])},
         "position": _position(rng), "range": {"start": _position(rng), "end": _position(rng)},
         "context": {"diagnostics": rng.choice([[], [{}], "x"])}},
        {"query": rng.choice(["", "a" * 10_000, None])},
        {"id": rng.choice([1, "x", None])},
        None, [], "string", 42, {"textDocument": None},
    ]
    return rng.choice(shapes)


def _edit(rng: random.Random, text: str) -> dict[str, Any]:
    if rng.random() < 0.3:
        whole = [text + "\u2028x: 1\n", "", text * 2, "\x85" * 1000, text.replace(":", "\u2029")]
        return {"text": rng.choice(whole)}
    start, end = _position(rng), _position(rng)
    insert = rng.choice(["x", "\n", "\u2028", "é", "'", "  - [", "\x00", "a" * 5000])
    return {"range": {"start": start, "end": end}, "text": insert}


def lsp_session(rng: random.Random, text: str) -> bytes:
    """A whole session: initialize, open a definition, hostile traffic, then (usually) shutdown and exit."""
    document = {"uri": URI, "languageId": "yaml", "version": 1, "text": text}
    out = [message({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"capabilities": {}, "rootUri": None, "processId": None}}),
           message({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
           message({"jsonrpc": "2.0", "method": "textDocument/didOpen",
                    "params": {"textDocument": document}})]
    version = 1
    for number in range(1, rng.randint(3, 25)):
        kind = rng.randrange(10)
        if kind < 4:
            method = rng.choice(METHODS)
            ident: Any = rng.choice([number, f"r{number}", None, [1], 1.5])
            params = _params(rng, method)
            out.append(message({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}))
        elif kind < 7:
            version += rng.choice([1, 0, -3])
            changes = [_edit(rng, text) for _ in range(rng.randint(1, 3))]
            uri = rng.choice([URI, URI, "file:///never-opened.yaml"])
            out.append(message({"jsonrpc": "2.0", "method": "textDocument/didChange",
                                "params": {"textDocument": {"uri": uri, "version": version},
                                           "contentChanges": changes}}))
        elif kind == 7:
            out.append(rng.choice([
                frame(b"{", length=1), frame(b"not json"), frame(b'{"jsonrpc": "2.0"}'), frame(b"[]"),
                frame(b"{}", header=b"Content-Length: x\r\n\r\n"), frame(b"{}", header=b"\r\n"),
                frame(b"{}", length=-1), frame(b'{"jsonrpc":"2.0","method":7}'), b"garbage\r\n\r\n",
                frame(b"\xff\xfe", length=2), frame(b'{"jsonrpc":"2.0","id":1,"method":"initialize"}'),
            ]))
        elif kind == 8:
            out.append(message({"jsonrpc": "2.0", "method": "textDocument/didClose",
                                "params": {"textDocument": {"uri": rng.choice([URI, "file:///x"])}}}))
        else:
            out.extend(
                message({"jsonrpc": "2.0", "id": f"burst{number}-{i}", "method": "textDocument/hover",
                         "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": i}}})
                for i in range(rng.randint(5, 40))
            )
    if rng.random() < 0.8:
        out.append(message({"jsonrpc": "2.0", "id": 9999, "method": "shutdown"}))
        out.append(message({"jsonrpc": "2.0", "method": "exit"}))
    return b"".join(out)


def _symbols(ident: int) -> bytes:
    return message({"jsonrpc": "2.0", "id": ident, "method": "textDocument/documentSymbol",
                    "params": {"textDocument": {"uri": "file:///never-opened.yaml"}}})


def _lying(rng: random.Random, ident: int) -> bytes:
    """A request framed with a Content-Length that is wrong, or garbage where a frame should start."""
    params = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}
    request = {"jsonrpc": "2.0", "id": ident, "method": "textDocument/hover", "params": params}
    body = json.dumps(request).encode()
    shape = rng.randrange(5)
    if shape == 0:
        return frame(body, length=max(0, len(body) - rng.randint(1, len(body))))  # too short
    if shape == 1:
        return frame(body, length=len(body) + rng.choice([1, 5, 17, 19, 20, 23, 60, 5000]))  # too long
    if shape == 2:
        return rng.choice([b"garbage\r\n", b"\x00\xff\xfe junk\r\n", b"}}}", b"{" * 50, b"\r\n" * 3])
    if shape == 3:
        return b"X-Other: 1\r\n" + frame(body)  # a header wmaplint does not know: the frame is fine
    return frame(body, header=b"Content-Length: %d\r\n\r\n" % len(body))


def huge_frame(rng: random.Random, ident: int) -> bytes:
    """A request under the 128 MB content limit that holds millions of small values (`[]`, `{}`, `0`, `""`),
    or a document opened with a text as large and few values."""
    size = rng.choice([16 << 20, 64 << 20, 126 << 20])
    if rng.random() < 0.25:
        text = "a: [" + "1, " * (size // 4) + "]\n"
        return message({"jsonrpc": "2.0", "id": ident, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}, "text": text}})
    value = rng.choice([b"[]", b"{}", b"0", b'""', b"[[[]]]"])
    head = b'{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"x":[' % ident
    return frame(head + b",".join([value] * ((size - len(head)) // (len(value) + 1))) + b"]}}")


def framing_session(rng: random.Random) -> tuple[bytes, list[int | str]]:
    """The bytes a client sends (initialize, valid requests between lying frames, cancellations and, now and
    then, a huge frame; shutdown, exit) and the ids that must be answered exactly once."""
    out = [message({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"capabilities": {}, "rootUri": None, "processId": None}}),
           message({"jsonrpc": "2.0", "method": "initialized", "params": {}})]
    answers: list[int | str] = [0]
    if rng.random() < 0.1:
        out.append(huge_frame(rng, 5000))
        answers.append(5000)
    for number in range(1, rng.randint(4, 30)):
        kind = rng.randrange(4)
        if kind == 0:
            out.append(_lying(rng, 10_000 + number))
        elif kind == 1:
            out.append(_symbols(number))
            out.append(message({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": number}}))
            answers.append(number)  # with its result, or RequestCancelled
        else:
            out.append(_symbols(number))
            answers.append(number)
    out.append(message({"jsonrpc": "2.0", "id": 9999, "method": "shutdown"}))
    out.append(message({"jsonrpc": "2.0", "method": "exit"}))
    return b"".join(out), [*answers, 9999]
