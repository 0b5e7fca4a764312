"""Helm templates among the files: text with template actions (``{{ ... }}``) is not YAML until Helm renders
it, so its parse errors say nothing useful ("while parsing a flow node"). The reader recognises one and gives
a single fault saying what to do instead.

A file is a template when an action stands outside quoted scalars and comments (``name: {{ .Values.x }}``),
or, in a chart's ``templates/`` folder (a ``Chart.yaml`` beside it), when any action stands outside comments
(quoted ones too, which parse but hold template text instead of the values the runtime would see).
"""

from __future__ import annotations

import os
import re

from wmaplint.diagnostics import Span

_ACTION = re.compile(r"\{\{.*?\}\}")
# A quoted scalar starts a value: at the start of a line, or after `:`, `-`, `?`, `[`, `{` or `,` and blanks.
_VALUE_START = re.compile(r"(?:^|[:\-?\[{,])[ \t]*$")


def template_action(text: str, quoted_too: bool = False) -> tuple[Span, str] | None:
    """The first template action outside comments (and outside quoted scalars unless ``quoted_too``): its
    span (1-based, code points) and text; None when there is none."""
    if "{{" not in text:
        return None
    for number, line in enumerate(text.splitlines(), 1):
        if "{{" not in line:
            continue
        found = _first_action(line, quoted_too)
        if found is not None:
            start, end = found
            return Span(number, start + 1, number, end + 1), line[start:end]
    return None


def _first_action(line: str, quoted_too: bool) -> tuple[int, int] | None:
    quote = ""
    i = 0
    while i < len(line):
        char = line[i]
        if quote:
            if char == "\\" and quote == '"':
                i += 2
                continue
            if char == quote:
                quote = ""
            elif quoted_too and line.startswith("{{", i):
                match = _ACTION.match(line, i)
                if match:
                    return match.start(), match.end()
        elif char in "\"'" and _VALUE_START.search(line[:i]):
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return None
        elif line.startswith("{{", i):
            match = _ACTION.match(line, i)
            if match:
                return match.start(), match.end()
        i += 1
    return None


def chart_of(path: str) -> str | None:
    """The chart directory when ``path`` lies in a chart's ``templates/`` folder (``Chart.yaml`` beside the
    folder), else None."""
    parts = os.path.normpath(path).split(os.sep)
    for index in range(len(parts) - 2, -1, -1):
        if parts[index] == "templates":
            chart = os.sep.join(parts[:index]) or os.curdir
            if os.path.isfile(os.path.join(chart, "Chart.yaml")):
                return chart
    return None


def recognise(path: str, text: str) -> tuple[Span, str, str | None] | None:
    """Where ``text`` shows itself a Helm template: the action's span and text, and the chart directory when
    the file lies in one; None for a file that is not a template."""
    if "{{" not in text:
        return None
    chart = chart_of(path) if not path.startswith("<") else None
    found = template_action(text, quoted_too=chart is not None)
    if found is None:
        return None
    return found[0], found[1], chart


_SOURCE = re.compile(r"^# Source: (\S.*?)[ \t]*$", re.MULTILINE)


def rendered_sources(text: str) -> list[tuple[int, str]]:
    """In ``helm template`` output, the 1-based line of each ``# Source: chart/templates/x.yaml`` comment
    and the template it names, in order; empty for any other text."""
    if "# Source: " not in text:
        return []
    return [(text.count("\n", 0, match.start()) + 1, match.group(1)) for match in _SOURCE.finditer(text)]


def rendered_from(sources: list[tuple[int, str]], line: int) -> str | None:
    """The template that rendered ``line`` of the stream: the last ``# Source:`` above it."""
    named = None
    for start, template in sources:
        if start > line:
            break
        named = template
    return named
