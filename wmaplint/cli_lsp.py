"""`wmaplint lsp` as a command of the command line (its help, its option errors); the launcher serves the
common invocations without it (``wmaplint.launch``)."""

from __future__ import annotations

import click

from wmaplint.lsp.server import LINT_TIMEOUT_SECONDS, exit_now, serve


@click.command("lsp")
@click.option("--tcp", is_flag=True, help="Listen on TCP instead of stdio.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to bind with --tcp.")
@click.option("--port", default=2087, show_default=True, type=int, help="Port to bind with --tcp.")
@click.option("--lint-timeout", default=LINT_TIMEOUT_SECONDS, show_default=True,
              type=click.FloatRange(min=0.1), help="Seconds a check in the editor may take before it stops.")
def lsp_command(tcp: bool, host: str, port: int, lint_timeout: float) -> None:
    """Run the language server (stdio by default)."""
    exit_now(serve(tcp, host, port, lint_timeout))
