"""The outputs of a check: its CheckOutcome as text for a terminal, JSON, SARIF or GitHub workflow commands.

Every format orders findings the same way (path, span, rule, message), states columns in UTF-16 code units
(``common.py``), and none of them prints: the caller writes the returned string.
"""

from __future__ import annotations

from pathlib import Path

from wmaplint.diagnostics import CheckOutcome

FORMATS = ("text", "json", "sarif", "github")


class UnknownFormatError(ValueError):
    """``render`` was asked for a format not in ``FORMATS``."""


def render(
    report: CheckOutcome,
    fmt: str,
    *,
    color: bool = False,
    root: Path | None = None,
    tool_version: str,
    category: str | None = None,
) -> str:
    """Render ``report`` in format ``fmt`` (one of ``FORMATS``).

    ``color`` applies to ``text`` only. ``root`` is the repository root that SARIF URIs and GitHub
    annotation paths are relative to (default: the git work tree of the working directory, else the working
    directory). ``category`` is SARIF's ``automationDetails.id``. Raises UnknownFormatError for any other
    ``fmt``.
    """
    # Imported per format so a run that prints text never loads the SARIF machinery.
    if fmt == "text":
        from wmaplint.report.text import render_text

        return render_text(report, color=color)
    if fmt == "json":
        from wmaplint.report.json import render_json

        return render_json(report, tool_version=tool_version)
    if fmt == "sarif":
        from wmaplint.report.sarif import render_sarif

        return render_sarif(report, tool_version=tool_version, root=root, category=category)
    if fmt == "github":
        from wmaplint.report.common import repository_root
        from wmaplint.report.github import render_github

        return render_github(report, root=root if root is not None else repository_root())
    raise UnknownFormatError(f"unknown output format {fmt!r} (expected one of: {', '.join(FORMATS)})")


__all__ = ["FORMATS", "UnknownFormatError", "render"]
