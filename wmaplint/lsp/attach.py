"""Which documents the server attaches to: definitions, CRDs, rule packs and definition suites -- the files
`check` reads -- and nothing else.

A document that is not one of those (a package.json, a Helm template, a workflow file) gets no lint work, no
diagnostics and empty answers. This is the textual test `check` makes before parsing (`engine.declares_kind`,
`selection.is_suite`), run in the server's process on each change; the worker then makes `check`'s test after
parsing too.
"""

from __future__ import annotations

LINTED_SUFFIXES = (".yaml", ".yml", ".json")
LINTED_LANGUAGES = ("yaml", "json", "jsonc")


def is_ours(path: str, language_id: str | None, text: str) -> bool:
    """Whether the document is YAML or JSON that `check` would read."""
    from wmaplint.engine import declares_kind
    from wmaplint.selection import is_suite

    by_language = (language_id or "").lower() in LINTED_LANGUAGES
    if not (by_language or path.lower().endswith(LINTED_SUFFIXES)):
        return False
    return is_suite(path, text) or declares_kind(text)
