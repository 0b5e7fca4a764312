"""Every process-wide cache of the package, registered with the module that owns it and how to empty it.

A cache that lives as long as the process carries what one run computed into the next: a language server
serves many files and settings, and a test sees what the tests before it left. Each cache is made through
this module (``lru_cache``, ``kept``) or registers its own reset (``register``), so that ``reset_all()``
empties every one; the test suite calls it before each test, and ``tests/core/test_memo.py`` finds every
module-level cache of the package and fails on one that is not registered here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Protocol, TypeVar

T = TypeVar("T")


class _Clearable(Protocol):
    def clear(self) -> None: ...


C = TypeVar("C", bound=_Clearable)

# "owner module:name" -> the function that empties that cache
_RESETS: dict[str, Callable[[], None]] = {}


def register(owner: str, name: str, reset: Callable[[], None]) -> None:
    """Register the cache ``name`` of module ``owner`` (its ``__name__``) with the function emptying it."""
    _RESETS[f"{owner}:{name}"] = reset


def kept(owner: str, name: str, container: C) -> C:
    """``container`` (a dict, set or list kept at module level as a cache), registered with its ``clear``."""
    register(owner, name, container.clear)
    return container


def lru_cache(maxsize: int) -> Callable[[Callable[..., T]], functools._lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)``, the cached function registered under its module and name."""

    def wrap(function: Callable[..., T]) -> functools._lru_cache_wrapper[T]:
        cached = functools.lru_cache(maxsize=maxsize)(function)
        register(function.__module__, function.__qualname__, cached.cache_clear)
        return cached

    return wrap


def registered() -> dict[str, Callable[[], None]]:
    """Every registered cache, as ``owner module:name`` -> its reset."""
    return dict(_RESETS)


def reset_all() -> None:
    """Empty every registered cache (those of the modules imported so far: the others hold nothing)."""
    for reset in list(_RESETS.values()):
        reset()
