"""A count and its noun, in the one form wmaplint writes for people: 1 file, 2 files.

Below everything, with nothing to import: the summary line of every `check` uses it, and a count of pods or
GPUs (``resolve.quantities.counted``) gives it the count as written.
"""

from __future__ import annotations


def plural(count: object, word: str, shown: str | None = None) -> str:
    """``count`` and ``word``, plural unless the count is one; ``shown``: the count as written, when that is
    not ``str(count)``."""
    return f"{count if shown is None else shown} {word}" + ("" if count == 1 else "s")
