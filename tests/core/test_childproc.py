"""Work on another CPU: how many CPUs are idle, and a computation run in a forked child whose value comes
back, or is computed here where the child cannot give it."""

import os
import threading
import time

import pytest

from wmaplint import childproc, engine
from wmaplint.childproc import Apart


@pytest.fixture()
def forkable(monkeypatch):
    """The test runner's own threads (xdist's) would keep every fork away."""
    monkeypatch.setattr(childproc.threading, "active_count", lambda: 1)


def test_automatic_workers_only_for_idle_cores_and_enough_files(monkeypatch, forkable) -> None:
    monkeypatch.setattr(childproc.sys, "platform", "linux")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(childproc, "busy_elsewhere", lambda: 0.0)
    assert engine.auto_jobs(400) == 2
    assert engine.auto_jobs(20) == 1  # too few files for a second process to pay
    monkeypatch.setattr(childproc, "busy_elsewhere", lambda: 1.8)
    assert engine.auto_jobs(400) == 1  # the other core is busy
    monkeypatch.setattr(childproc, "busy_elsewhere", lambda: None)
    assert engine.auto_jobs(400) == 1  # nothing to go by: one process


def test_busy_cores_are_the_runnable_tasks_now_less_this_one(monkeypatch, tmp_path) -> None:
    loadavg = tmp_path / "loadavg"
    # A minute of back-to-back checks leaves a load average near 1 while the other core is idle right now.
    loadavg.write_text("1.20 1.69 2.70 1/91 5656\n")
    assert childproc.busy_elsewhere(str(loadavg)) == 0.0
    loadavg.write_text("6.80 7.46 6.05 4/523 9000\n")
    assert childproc.busy_elsewhere(str(loadavg)) == 3.0
    monkeypatch.setattr(os, "getloadavg", lambda: (1.5, 1.0, 1.0))
    loadavg.write_text("not a load average\n")
    assert childproc.busy_elsewhere(str(loadavg)) == 1.5
    assert childproc.busy_elsewhere(str(tmp_path / "missing")) == 1.5


def test_no_fork_while_another_thread_runs_or_off_linux(monkeypatch) -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not childproc.can_fork()
        assert childproc.idle_cpus() == 1
        assert Apart(os.getpid).result() == os.getpid()
    finally:
        stop.set()
        other.join()
    monkeypatch.setattr(childproc.threading, "active_count", lambda: 1)
    monkeypatch.setattr(childproc.sys, "platform", "darwin")
    assert not childproc.can_fork() and childproc.idle_cpus() == 1


def test_the_value_is_computed_in_the_child_and_read_back(forkable) -> None:
    apart = Apart(lambda: (os.getpid(), "x" * 200_000))  # more than a pipe holds at once
    pid, text = apart.result()
    assert pid != os.getpid() and text == "x" * 200_000


def test_without_a_fork_the_value_is_computed_here_when_asked(forkable) -> None:
    calls: list[int] = []
    apart = Apart(lambda: calls.append(os.getpid()) or len(calls), fork=False)
    assert calls == []
    assert apart.result() == 1 and calls == [os.getpid()]


@pytest.mark.parametrize("failure", ["raises", "exits", "unpicklable"])
def test_a_child_that_gives_no_value_leaves_it_to_be_computed_here(forkable, failure) -> None:
    parent = os.getpid()

    def work():
        if os.getpid() == parent:
            return "computed here"
        if failure == "raises":
            raise MemoryError
        if failure == "exits":
            os._exit(3)
        return lambda: None  # a value pickle refuses

    assert Apart(work).result() == "computed here"


def test_cancel_ends_the_child_at_once(forkable) -> None:
    apart = Apart(lambda: time.sleep(60))
    child = apart._pid
    started = time.monotonic()
    apart.cancel()
    assert time.monotonic() - started < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(child, os.WNOHANG)  # reaped
