"""Releases of an operator, as its tags and its objects spell them (``v1.7.0``, ``1.2.1``,
``knative-v1.23.0``, ``v0.1.0-alpha.12-rc1``), ordered as semantic versions; and the range of releases a
fact holds in.

A tag's prefix before its version (``knative-``, ``operator/``) is not part of the version. Pre-release
identifiers are split at dots and hyphens and compared as Semantic Versioning 2.0 compares them (numbers as
numbers, below words; a release above its pre-releases). The library that parses versions, ``packaging``,
takes PEP 440 spellings and refuses tags such as ``v0.1.0-alpha.12-rc1``, so the few lines here compare them.
"""

from __future__ import annotations

import re

from wmaplint import memo
from wmaplint.dataclass import dataclass

_VERSION = re.compile(
    r"(?<![0-9A-Za-z])v?(?P<core>\d+(?:\.\d+)*)(?:-(?P<pre>[0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$")

Key = tuple[tuple[int, ...], tuple[tuple[int, int | str], ...]]


@memo.lru_cache(maxsize=512, pure=True)
def release_key(text: str) -> Key | None:
    """The sort key of a release, or None when ``text`` holds no version."""
    found = _VERSION.search(text.strip())
    if found is None:
        return None
    core = tuple(int(part) for part in found.group("core").split("."))
    core = core + (0,) * max(0, 3 - len(core))
    pre = found.group("pre")
    if pre is None:
        return core, ((2, 0),)  # a release sorts above every pre-release of it
    parts = tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"[.-]", pre) if p)
    return core, ((1, 0), *parts)


def before(a: str, b: str) -> bool:
    """Whether release ``a`` comes before release ``b`` (False when either is no version)."""
    ka, kb = release_key(a), release_key(b)
    return ka is not None and kb is not None and _less(ka, kb)


def _less(a: Key, b: Key) -> bool:
    if a[0] != b[0]:
        return a[0] < b[0]
    for x, y in zip(a[1], b[1], strict=False):
        if x != y:
            if x[0] != y[0]:
                return x[0] < y[0]
            return x[1] < y[1]  # type: ignore[operator]  # the same rank: both numbers or both words
    return len(a[1]) < len(b[1])


@dataclass(frozen=True)
class Releases:
    """The releases a fact holds in: from ``since`` (the first that has it; any before when None) up to,
    not including, ``until`` (the first that no longer has it; none when None)."""

    since: str | None = None
    until: str | None = None

    @property
    def always(self) -> bool:
        return self.since is None and self.until is None

    def holds_at(self, release: str) -> bool:
        if self.since is not None and before(release, self.since):
            return False
        return self.until is None or before(release, self.until)

    def holds_from(self, release: str) -> bool:
        """Whether the fact holds in ``release`` or any later one."""
        return self.until is None or before(release, self.until)

    def words(self) -> str:
        """The range in words, for a message or a hover: ``since v1.2.0``, ``before v1.1.0``."""
        if self.since and self.until:
            return f"from {self.since} up to {self.until}"
        if self.since:
            return f"since {self.since}"
        return f"before {self.until}" if self.until else ""


ALWAYS = Releases()
