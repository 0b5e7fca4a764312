"""The smallest pygls 2 language server that can stand beside `wmaplint lsp` in bench_lsp_pygls.py.

It answers `initialize` (pygls does that itself), `shutdown`/`exit`, and `textDocument/hover` after a short
asynchronous wait, the way a server that lints in the background answers: the wait is where a cancellation can
arrive while the request is in flight. It imports pygls at the top, as every pygls server does.
"""

from __future__ import annotations

import asyncio

from lsprotocol import types
from pygls.lsp.server import LanguageServer

IN_FLIGHT_SECONDS = 0.02

server = LanguageServer("pygls-probe", "1")


@server.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(params: types.HoverParams) -> types.Hover:
    await asyncio.sleep(IN_FLIGHT_SECONDS)
    return types.Hover(contents="probe")


if __name__ == "__main__":
    server.start_io()
