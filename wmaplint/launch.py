"""The `wmaplint` executable. `wmaplint lsp` is served without importing the command-line library: an editor
waits for the server's first answer, and without bytecode (an install that did not compile) importing that
library alone took longer than the rest of the start. Anything else, and any `lsp` invocation this cannot
read (``--help``, an unknown or malformed option), goes to the full command line (``wmaplint.cli``).

A command that ran to its end leaves the process without the interpreter's teardown (``leave``)."""

from __future__ import annotations

import sys
from typing import Any, NoReturn


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["lsp"]:
        options = lsp_options(args[1:])
        if options is not None:
            from wmaplint.lsp.server import exit_now, serve

            exit_now(serve(**options))
    from wmaplint.cli import main as cli_main

    try:
        cli_main()
    except SystemExit as exc:
        leave(exc.code)
    leave(0)


def leave(code: str | int | None) -> NoReturn:
    """End the process with ``code`` once its output is out, without tearing the interpreter down: freeing
    every module, schema and node tree one by one, and the cyclic collector's last pass over them, took a
    sixth of a one-file check and a fifth of a check of the catalog (benchmarks/profile_phases.py). The
    functions registered to run at exit still run. Where the output cannot be flushed, or the code is not a
    number, the interpreter's own exit reports it as it always did."""
    import atexit
    import os

    if isinstance(code, str):
        sys.exit(code)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:  # None: the process started with that descriptor closed
                stream.flush()
    except (OSError, ValueError):
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(code or 0)


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
