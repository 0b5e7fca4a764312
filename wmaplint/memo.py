"""Every process-wide cache of the package, registered with the module that owns it and how to empty it.

A cache that lives as long as the process carries what one run computed into the next: a language server
serves many files and settings, and a test sees what the tests before it left. Each cache is made through
this module (``lru_cache``, ``kept``) or registers its own reset (``register``), so that ``reset_all()``
empties every one; ``tests/core/test_memo.py`` finds every module-level cache of the package and fails on
one that is not registered here.

A cache is *pure* when each entry is determined by its key alone (a text, a digest, an object it holds, the
data shipped in the package): it is never out of date and holds nothing of one run that another would see
differently. The others depend on files, the environment or the working directory. The test suite empties
the others before every test (``reset_all(keep_pure=True)``), since refilling the pure ones (the controller
model, the schema bundle, parsed jq) before every test is only cost.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar

T = TypeVar("T")
V = TypeVar("V")


class _Clearable(Protocol):
    def clear(self) -> None: ...


C = TypeVar("C", bound=_Clearable)

# "owner module:name" -> the function that empties that cache, and whether the cache is pure
_RESETS: dict[str, tuple[Callable[[], None], bool]] = {}


def register(owner: str, name: str, reset: Callable[[], None], pure: bool = False) -> None:
    """Register the cache ``name`` of module ``owner`` (its ``__name__``) with the function emptying it."""
    _RESETS[f"{owner}:{name}"] = (reset, pure)


def kept(owner: str, name: str, container: C, pure: bool = False) -> C:
    """``container`` (a dict, set or list kept at module level as a cache), registered with its ``clear``."""
    register(owner, name, container.clear, pure)
    return container


def lru_cache(
    maxsize: int, pure: bool = False
) -> Callable[[Callable[..., T]], functools._lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)``, the cached function registered under its module and name."""

    def wrap(function: Callable[..., T]) -> functools._lru_cache_wrapper[T]:
        cached = functools.lru_cache(maxsize=maxsize)(function)
        register(function.__module__, function.__qualname__, cached.cache_clear, pure)
        return cached

    return wrap


class ByIdentity(Generic[V]):
    """A pure cache of values computed from objects that are not hashable or not cheaply so (schema nodes),
    keyed by each object's identity and, where one object has several values, a hashable part. Each entry
    holds its object, and an entry is taken for an object only while it holds that very object: an id is not
    reused while its object is kept. Past ``most`` entries the cache starts anew (a process that reads ever
    new schemas stays bounded). Registered under its owner module and name, as ``kept`` registers a
    container."""

    def __init__(self, owner: str, name: str, most: int = 200_000) -> None:
        self._entries: dict[Hashable, tuple[object, V]] = {}  # by id(key), or (id(key), part)
        self._most = most
        register(owner, name, self.clear, pure=True)

    def get(self, key: object, part: Hashable = None) -> V | None:
        """The value kept for ``key`` (and ``part``), or None."""
        found = self._entries.get(id(key) if part is None else (id(key), part))
        return found[1] if found is not None and found[0] is key else None

    def put(self, key: object, value: V, part: Hashable = None) -> V:
        if len(self._entries) > self._most:
            self._entries.clear()
        self._entries[id(key) if part is None else (id(key), part)] = (key, value)
        return value

    def clear(self) -> None:
        self._entries.clear()


def registered() -> dict[str, bool]:
    """Every registered cache, as ``owner module:name`` -> whether it is pure."""
    return {key: pure for key, (_, pure) in _RESETS.items()}


def reset_all(keep_pure: bool = False) -> None:
    """Empty every registered cache (those of the modules imported so far: the others hold nothing); with
    ``keep_pure``, those that are not pure."""
    for reset, pure in list(_RESETS.values()):
        if not (keep_pure and pure):
            reset()
