"""The server's side of the lint worker: start it, give it one job at a time, bound each job's time and
memory, and replace it when it dies, overruns, is overtaken by an edit, or keeps the memory of a closed
document.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import pickle
import sys
from collections.abc import Callable
from typing import Any

from wmaplint.dataclass import dataclass, field
from wmaplint.lsp.worker import HEADER, frame, resident_of

POLL_SECONDS = 0.2  # how often a running job's memory is looked at
START_SECONDS = 120.0  # a worker that has not finished importing by then is broken


class WorkerStopped(Exception):
    """The job did not finish: ``reason`` is "timeout", "memory", "cancelled" or "crashed"."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(detail or reason)
        self.reason = reason


class JobFailed(Exception):
    """The worker answered with an error (a JSON-RPC code and message)."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class _Process:
    proc: asyncio.subprocess.Process
    waiting: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    stop_reason: str | None = None
    reader: asyncio.Task[None] | None = None


@dataclass
class Running:
    kind: str
    uri: str | None
    started: float
    process: _Process


WORKER = (sys.executable, "-m", "wmaplint.lsp.worker")


class Supervisor:
    def __init__(self, memory_limit: int, recycle_growth: int, command: tuple[str, ...] = WORKER) -> None:
        self.command = command  # the worker's command line; the server's pid is appended
        self.memory_limit = memory_limit
        self.recycle_growth = recycle_growth
        self.rss: int | None = None  # the worker's resident memory after its last job
        self.ready_rss: int | None = None  # ... when it had imported everything
        self.running: Running | None = None
        self.starts = 0  # workers started so far (tests and logs)
        self._process: _Process | None = None
        self._turn = asyncio.Lock()
        self._ids = itertools.count(1)
        self._started: list[asyncio.subprocess.Process] = []

    async def warm(self) -> None:
        """Start the worker ahead of the first job (it imports the engine meanwhile)."""
        async with self._turn:
            try:
                await self._ensure()
            except WorkerStopped:
                pass  # the first job reports it

    async def run(self, build: Callable[[], dict[str, Any] | None], timeout: float) -> Any:
        """Run the job ``build()`` makes once the worker is free (None: nothing to do, None returned)."""
        loop = asyncio.get_running_loop()
        async with self._turn:
            job = build()
            if job is None:
                return None
            process = await self._ensure()
            job_id = next(self._ids)
            job["id"] = job_id
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            process.waiting[job_id] = future
            self.running = Running(job["kind"], job.get("uri"), loop.time(), process)
            try:
                assert process.proc.stdin is not None
                process.proc.stdin.write(frame(job))
                await process.proc.stdin.drain()
                reply = await self._wait(future, process, timeout)
            except (BrokenPipeError, ConnectionResetError):
                raise WorkerStopped(process.stop_reason or "crashed", "the worker ended") from None
            finally:
                self.running = None
                process.waiting.pop(job_id, None)
        if reply.get("rss") is not None:
            self.rss = reply["rss"]
        if "error" in reply:
            code, message = reply["error"]
            raise JobFailed(code, message)
        return reply.get("result")

    def overtake(self, uri: str, after: float) -> bool:
        """Stop the running lint of ``uri`` when it has run ``after`` seconds (a newer version waits)."""
        running = self.running
        if running is None or running.kind != "lint" or running.uri != uri:
            return False
        if asyncio.get_running_loop().time() - running.started < after:
            return False
        self._kill(running.process, "cancelled")
        return True

    async def recycle_if_large(self) -> bool:
        """Replace an idle worker that holds much more memory than when it was ready (after a document closed:
        caches of its expressions and parsed text would keep it)."""
        async with self._turn:
            if self._process is None or self.rss is None or self.ready_rss is None:
                return False
            if self.rss - self.ready_rss <= self.recycle_growth:
                return False
            await self._stop(self._process)
            return True

    async def close(self) -> None:
        if self._process is not None:
            await self._stop(self._process)

    def kill_all(self) -> None:
        """Kill every worker this supervisor started that may still run (the session is over)."""
        for proc in self._started:
            if proc.returncode is None:
                try:
                    proc.kill()
                except ProcessLookupError:
                    pass
        self._started.clear()

    async def _ensure(self) -> _Process:
        if self._process is not None and self._process.proc.returncode is None:
            return self._process
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.command, str(os.getpid()),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )
        except OSError as exc:
            raise WorkerStopped("crashed", f"cannot start the lint worker: {exc}") from None
        self.starts += 1
        self._started = [p for p in self._started if p.returncode is None] + [proc]
        self.rss = self.ready_rss = None
        process = _Process(proc)
        self._process = process
        ready: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        process.waiting[0] = ready  # the worker says so when its imports are done
        process.reader = asyncio.create_task(self._read_replies(process))
        try:
            hello = await asyncio.wait_for(asyncio.shield(ready), START_SECONDS)
            self.ready_rss = self.rss = hello.get("rss")
        except TimeoutError:
            self._kill(process, "crashed")
            raise WorkerStopped("crashed", "the lint worker did not start") from None
        except WorkerStopped:
            raise WorkerStopped("crashed", "the lint worker ended while starting") from None
        return process

    async def _read_replies(self, process: _Process) -> None:
        stream = process.proc.stdout
        assert stream is not None
        try:
            while True:
                (length,) = HEADER.unpack(await stream.readexactly(HEADER.size))
                reply = pickle.loads(await stream.readexactly(length))
                future = process.waiting.pop(reply.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(reply)
        except (asyncio.IncompleteReadError, ConnectionError, pickle.UnpicklingError, EOFError):
            pass
        finally:
            await process.proc.wait()
            reason = process.stop_reason or "crashed"
            for future in process.waiting.values():
                if not future.done():
                    future.set_exception(WorkerStopped(reason))
            process.waiting.clear()
            if self._process is process:
                self._process = None

    async def _wait(self, future: asyncio.Future[dict[str, Any]], process: _Process, timeout: float
                    ) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            done, _ = await asyncio.wait({future}, timeout=max(0.0, min(POLL_SECONDS, left)))
            if done:
                return future.result()
            if loop.time() >= deadline:
                self._kill(process, "timeout")
            elif (resident_of(process.proc.pid) or 0) > self.memory_limit:
                self._kill(process, "memory")
            else:
                continue
            return await future  # raises WorkerStopped once the reader sees the process end

    def _kill(self, process: _Process, reason: str) -> None:
        if process.proc.returncode is None:
            process.stop_reason = process.stop_reason or reason
            try:
                process.proc.kill()
            except ProcessLookupError:
                pass
        if self._process is process:
            self._process = None

    async def _stop(self, process: _Process) -> None:
        """End a worker politely (end of its input), then firmly."""
        if self._process is process:
            self._process = None
        process.stop_reason = process.stop_reason or "recycled"
        if process.proc.stdin is not None:
            process.proc.stdin.close()
        try:
            await asyncio.wait_for(process.proc.wait(), 2.0)
        except TimeoutError:
            self._kill(process, "recycled")
            await process.proc.wait()
        if process.reader is not None:
            await asyncio.gather(process.reader, return_exceptions=True)

