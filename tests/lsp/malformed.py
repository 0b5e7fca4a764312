"""Generators of malformed language-server input: requests with bad ids, methods and parameters, and frames
that break the base protocol. Deterministic for a seed; the hostile-input suite can draw on them too.

Each request comes with the id its answer must carry (None: the request's id is unusable, so the answer's id
is null); every request must be answered exactly once, with a result or an error.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

FEATURES = ("textDocument/hover", "textDocument/completion", "textDocument/definition",
            "textDocument/documentSymbol", "textDocument/codeAction")

BAD_NUMBERS: list[Any] = [-1, -(2**40), 2**31, 2**63, 1.5, float("inf"), "3", "", True, None, [], {}, [1]]
BAD_STRINGS: list[Any] = [None, 1, 1.5, True, [], {}, ["file:///x.yaml"], {"uri": "file:///x.yaml"}]
BAD_PARAMS: list[Any] = ["params", 1, True, [], [1, 2], {}, {"textDocument": None}, {"textDocument": "x"}]


def _position(rng: random.Random) -> Any:
    choice = rng.randrange(5)
    if choice == 0:
        return {"line": rng.choice(BAD_NUMBERS), "character": 0}
    if choice == 1:
        return {"line": 0, "character": rng.choice(BAD_NUMBERS)}
    if choice == 2:
        return {"line": rng.randrange(10**6), "character": rng.randrange(10**6)}  # valid, past the end
    if choice == 3:
        return rng.choice([None, "0:0", [0, 0], {}])
    return {"line": 0}


def _params(rng: random.Random, method: str, uri: str) -> Any:
    choice = rng.randrange(6)
    if choice == 0:
        return rng.choice(BAD_PARAMS)
    document = {"uri": rng.choice(BAD_STRINGS)} if choice == 1 else {"uri": uri}
    if choice == 2:
        document = {"uri": uri + "-not-open"}
    params: dict[str, Any] = {"textDocument": document}
    if method == "textDocument/codeAction":
        params["range"] = {"start": _position(rng), "end": _position(rng)}
        params["context"] = rng.choice([{"diagnostics": []}, {"diagnostics": "x"}, None,
                                        {"diagnostics": [{"range": _position(rng), "message": 1}]},
                                        {"diagnostics": [{"range": {"start": {"line": 0, "character": 0},
                                                                    "end": {"line": 0, "character": 1}},
                                                          "message": "m", "data": {"fixes": "x"}}]}])
    elif method != "textDocument/documentSymbol":
        params["position"] = _position(rng)
    return params


def requests(seed: int, count: int, uri: str) -> Iterator[tuple[dict[str, Any], Any]]:
    """``count`` malformed or awkward requests about the open document ``uri``, with their expected ids."""
    rng = random.Random(seed)
    for number in range(count):
        kind = rng.randrange(10)
        msg_id: Any = 10_000 + number
        expected: Any = msg_id
        if kind == 0:
            msg_id = rng.choice([f"id-{number}", -number - 1, 2**53 + number])
            expected = msg_id
        elif kind == 1:
            msg_id, expected = rng.choice([1.5, True, [number], {"n": number}]), None
        if kind == 2:
            method: Any = rng.choice([5, None, ["textDocument/hover"], {"m": 1}, True])
        elif kind == 3:
            method = rng.choice(["", "textDocument/unknown", "$/unknown", "workspace/symbol", "initialize"])
        else:
            method = rng.choice(FEATURES)
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if isinstance(method, str):
            message["params"] = _params(rng, method, uri)
        yield message, expected


def bad_frames() -> Iterator[tuple[bytes, int]]:
    """Raw frames and how many error answers (id null) each must get."""
    def framed(body: bytes) -> bytes:
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    yield b"Content-Length: abc\r\n\r\n", 1
    yield b"Content-Type: application/json\r\n\r\n", 1
    yield b"X" * 20_000 + b"\r\n\r\n", 1
    yield framed(b"{not json"), 1
    yield framed(b"\xff\xfe\x00garbage"), 1
    yield framed(b"[1, 2, 3]"), 1
    yield framed(b"42"), 1
    yield framed(b"[" * 100_000 + b"]" * 100_000), 1
    yield framed(json.dumps({"jsonrpc": "2.0", "id": None, "method": "textDocument/hover"}).encode()), 0
    yield framed(json.dumps({"jsonrpc": "2.0", "method": 12}).encode()), 0
    yield b"\r\n\r\n", 0
