"""The lint worker's garbage collection between jobs: what the imports made is kept out of every collection,
and the garbage of a job is collected while the worker waits for the next, not when the next has come."""

from __future__ import annotations

import gc
import os
import sys
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import BinaryIO

from wmaplint.lsp.worker import collect_when_idle, keep_imports


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def _garbage_cycle() -> weakref.ref[_Cycle]:
    """A cycle nothing refers to: only the cyclic collector frees it."""
    return weakref.ref(_Cycle())


@contextmanager
def _idle_worker(waiting: bytes = b"") -> Iterator[BinaryIO]:
    """The stream a worker waits on for its next job (holding ``waiting``), with the automatic collector off
    meanwhile: only what the test runs collects."""
    read, write = os.pipe()
    try:
        os.write(write, waiting)
        with os.fdopen(read, "rb", buffering=0) as stream:
            was = gc.isenabled()
            gc.disable()
            try:
                yield stream
            finally:
                if was:
                    gc.enable()
    finally:
        os.close(write)


def test_garbage_of_a_job_is_collected_when_no_job_comes() -> None:
    with _idle_worker() as stream:  # the automatic collector must not be the one that frees it
        cycle = _garbage_cycle()
        assert cycle() is not None
        assert collect_when_idle(stream, 0.01) in (1, 2)
        assert cycle() is None


def test_a_waiting_job_is_read_before_any_collection() -> None:
    with _idle_worker(b"\0" * 8) as stream:  # the head of the next job's frame
        cycle = _garbage_cycle()
        assert collect_when_idle(stream, 1.0) is None
        assert cycle() is not None  # left for later: the job comes first
        gc.collect()
        assert cycle() is None


def test_a_full_collection_runs_between_jobs_when_the_next_collection_would_be_one() -> None:
    with _idle_worker() as stream:  # no automatic collection moves the counts meanwhile
        gc.collect()
        assert gc.get_count()[2] == 0
        assert collect_when_idle(stream, 0.001) == 1  # young and middle generations only
        assert gc.get_count()[2] == 1
        for _ in range(gc.get_threshold()[2]):
            gc.collect(1)
        assert collect_when_idle(stream, 0.001) == 2
        assert gc.get_count()[2] == 0


def test_what_the_imports_made_is_kept_out_of_collections() -> None:
    before = gc.get_freeze_count()
    try:
        keep_imports()
        assert gc.get_freeze_count() > before
        assert gc.get_freeze_count() >= len(sys.modules)  # every module object among them
    finally:
        gc.unfreeze()  # the test process goes on: its objects go back under the collector
