"""Run rule examples of modes ``tree`` and ``definition-file`` (see wmaplint.resolve.rules)."""

from __future__ import annotations

import os
import tempfile

from wmaplint.diagnostics import Diagnostic
from wmaplint.resolve.run import resolve_files


def lint_example(text: str, mode: str = "tree", filename: str = "example.yaml") -> list[Diagnostic]:
    """Diagnostics for a rule example: ``tree`` resolves a file holding definitions, manifests and pods;
    ``definition-file`` passes the text with --definition."""
    if mode == "test":
        from wmaplint.suites.examples import lint_test_example

        return lint_test_example(text, filename)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, filename)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        if mode == "definition-file":
            return resolve_files([], [path], use_catalog=False).diagnostics
        return resolve_files([path], use_catalog=False).diagnostics
