"""The `wmaplint` executable. `wmaplint lsp` is served without importing the command-line library: an editor
waits for the server's first answer, and without bytecode (an install that did not compile) importing that
library alone took longer than the rest of the start. Anything else, and any `lsp` invocation this cannot
read (``--help``, an unknown or malformed option), goes to the full command line (``wmaplint.cli``)."""

from __future__ import annotations

import sys
from typing import Any


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["lsp"]:
        options = lsp_options(args[1:])
        if options is not None:
            from wmaplint.lsp.server import exit_now, serve

            exit_now(serve(**options))
    from wmaplint.cli import main as cli_main

    cli_main()


def lsp_options(args: list[str]) -> dict[str, Any] | None:
    """The options of `wmaplint lsp` (``--tcp``, ``--host``, ``--port``, ``--lint-timeout``, as ``--x v`` or
    ``--x=v``), or None when the arguments need the full command line."""
    options: dict[str, Any] = {}
    values = {"--host": ("host", str), "--port": ("port", int), "--lint-timeout": ("lint_timeout", float)}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg == "--tcp":
            options["tcp"] = True
            continue
        name, eq, value = arg.partition("=")
        if name not in values or not (eq or rest):
            return None
        if not eq:
            value = rest.pop(0)
        key, convert = values[name]
        try:
            options[key] = convert(value)
        except ValueError:
            return None
    if not options.get("lint_timeout", 1.0) >= 0.1 or not 0 <= options.get("port", 0) <= 65535:
        return None  # out of range (or NaN): the command line says why
    return options
