"""The lint worker's keeper: time and memory bounds, overtaking by a newer edit, crashes and recycling, with a
stand-in worker (`fake_worker.py`) whose jobs sleep, hold memory or crash on demand."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from wmaplint.lsp.supervisor import JobFailed, Supervisor, WorkerStopped

FAKE = (sys.executable, str(Path(__file__).with_name("fake_worker.py")))
MB = 1 << 20


def supervisor(memory_limit: int = 2048 * MB, recycle_growth: int = 1024 * MB) -> Supervisor:
    return Supervisor(memory_limit, recycle_growth, command=FAKE)


def job(text: str, uri: str = "file:///a.yaml", kind: str = "lint"):
    return lambda: {"kind": kind, "uri": uri, "text": text}


@pytest.mark.asyncio
async def test_a_job_past_its_time_is_stopped_and_the_next_job_gets_a_new_worker() -> None:
    keeper = supervisor()
    try:
        with pytest.raises(WorkerStopped) as stopped:
            await asyncio.wait_for(keeper.run(job("sleep 30"), timeout=0.5), 20)
        assert stopped.value.reason == "timeout"
        assert await keeper.run(job("quick"), timeout=20) == {"diagnostics": [], "text": "quick"}
        assert keeper.starts == 2
    finally:
        await keeper.close()


@pytest.mark.asyncio
async def test_a_newer_edit_overtakes_a_long_lint_of_its_document() -> None:
    keeper = supervisor()
    try:
        await keeper.run(job("warm"), timeout=20)
        running = asyncio.ensure_future(keeper.run(job("sleep 30"), timeout=60))
        await asyncio.sleep(0.3)
        assert not keeper.overtake("file:///a.yaml", after=10)  # not running long enough yet
        assert not keeper.overtake("file:///other.yaml", after=0)  # another document's lint
        await asyncio.sleep(0.4)
        assert keeper.overtake("file:///a.yaml", after=0.5)
        with pytest.raises(WorkerStopped) as stopped:
            await asyncio.wait_for(running, 20)
        assert stopped.value.reason == "cancelled"
        assert await keeper.run(job("next"), timeout=20) == {"diagnostics": [], "text": "next"}
    finally:
        await keeper.close()


@pytest.mark.asyncio
async def test_a_job_over_the_memory_limit_is_stopped() -> None:
    keeper = supervisor(memory_limit=150 * MB)
    try:
        with pytest.raises(WorkerStopped) as stopped:
            await asyncio.wait_for(keeper.run(job("creep 400 sleep 30"), timeout=60), 30)
        assert stopped.value.reason == "memory"
    finally:
        await keeper.close()


@pytest.mark.asyncio
async def test_a_crashed_worker_fails_its_job_and_is_replaced() -> None:
    keeper = supervisor()
    try:
        with pytest.raises(WorkerStopped) as stopped:
            await keeper.run(job("crash"), timeout=20)
        assert stopped.value.reason == "crashed"
        assert await keeper.run(job("again"), timeout=20) == {"diagnostics": [], "text": "again"}
    finally:
        await keeper.close()


@pytest.mark.asyncio
async def test_a_worker_holding_memory_is_recycled_and_a_small_one_is_kept() -> None:
    keeper = supervisor(recycle_growth=100 * MB)
    try:
        await keeper.run(job("small"), timeout=20)
        assert not await keeper.recycle_if_large()
        await keeper.run(job("grow 200"), timeout=20)
        assert keeper.rss is not None and keeper.rss > 200 * MB
        assert await keeper.recycle_if_large()
        await keeper.run(job("fresh"), timeout=20)
        assert keeper.starts == 2 and keeper.rss is not None and keeper.rss < 150 * MB
    finally:
        await keeper.close()


@pytest.mark.asyncio
async def test_error_replies_become_job_failures() -> None:
    keeper = Supervisor(2048 * MB, 1024 * MB)  # the real worker: an unknown job kind is an error reply
    try:
        with pytest.raises(JobFailed) as failed:
            await keeper.run(job("x", kind="nonsense"), timeout=60)
        assert failed.value.code == -32601
    finally:
        await keeper.close()
