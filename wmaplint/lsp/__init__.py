"""The language server (``wmaplint lsp``).

Two processes. The server's (`server`, `session`) keeps the open documents and speaks JSON-RPC with the
editor using the standard library only (`rpc`, `documents`, `params`, `attach`); the worker's (`worker`,
driven by `supervisor`) lints and answers feature requests. The feature modules (`hover`, `completion`,
`navigation`, `actions`, `convert`, ...) are plain functions over a parsed document that return lsprotocol
types, tested without a running server.
"""
