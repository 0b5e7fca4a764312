"""The language server (``wmaplint lsp``).

Only ``server`` imports pygls; the other modules here are plain functions over text and the engine's models
(they use lsprotocol types for their results), so they are tested without a running server.
"""
