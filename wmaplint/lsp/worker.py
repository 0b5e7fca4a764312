"""The lint worker: a child process of `wmaplint lsp` that lints documents and answers feature requests.

Everything heavy (the engine, the schemas, lsprotocol) lives here, so the server answers ``initialize`` at
once and stays small. The server kills this process when a lint outlives its time bound or is overtaken by an
edit, and replaces it when its memory does not come back after a large document closes.

Channel: stdin and stdout, frames of an 8-byte big-endian length and a pickled dict; one reply per job, in
order. The only peer is the server that started this process (same user, same interpreter).
Jobs: ``{"id", "kind": "lint" | "request" | "forget", "uri", "text", "language", "method", "params"}``;
replies: ``{"id", "result"}`` or ``{"id", "error": [code, message]}``, with ``"rss"`` (bytes) in both.
"""

from __future__ import annotations

import gc
import logging
import os
import pickle
import struct
import sys
from collections import OrderedDict
from typing import IO, Any

HEADER = struct.Struct(">Q")
RELATED_INDEXES = 32  # line indexes of related files (CRDs) kept between lints
# How long the worker waits for the next job before it collects the garbage of the last one. A lint comes at
# the earliest a debounce (150 ms) after the edit that made it, so it finds the collection done.
IDLE_SECONDS = 0.02
log = logging.getLogger("wmaplint.lsp")


def read_frame(stream: IO[bytes]) -> Any:
    """The next pickled object, or None at the end of the stream."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (length,) = HEADER.unpack(head)
    body = stream.read(length)
    if len(body) < length:
        return None
    return pickle.loads(body)


def frame(obj: object) -> bytes:
    body = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


class InvalidParams(Exception):
    pass


def resident_of(pid: int | str) -> int | None:
    """A process's resident memory in bytes (Linux), or None where /proc is not available."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def give_back_memory() -> None:
    """Free what the documents left and hand free heap pages back to the system (glibc keeps them)."""
    gc.collect()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None).malloc_trim(0)
        except (OSError, AttributeError):
            pass


def keep_imports() -> None:
    """Take what the imports made (modules, rules, the protocol's converters), which lives as long as the
    process, out of the cyclic collector's sight: a full collection then scans only what documents and
    schemas added, 3 ms after a lint of the largest catalog definition instead of 20 ms."""
    gc.collect()
    gc.freeze()


def collect_when_idle(stream: IO[bytes], seconds: float) -> int | None:
    """Collect the garbage of the last job unless the next one arrives within ``seconds``: the generation
    collected, or None.

    Between jobs, the young generations are emptied (a fraction of a millisecond), and a full collection runs
    when the next collection of the middle generation would run one anyway, so that none falls inside a
    lint: with the collector left to itself, a lint of the largest catalog definition now and then waited for
    a full one (25 ms on a quiet machine before `keep_imports`, 3 to 8 ms after). The collector stays on
    during a job, so a long job's garbage is still collected as it goes."""
    import select

    try:
        ready, _, _ = select.select([stream], [], [], seconds)
    except (OSError, ValueError):  # a stream select cannot wait on (a pipe on Windows): the collector's own
        return None
    if ready:
        return None
    # get_count()[2]: collections of the middle generation since the last full one; past the threshold, the
    # next collection of the middle generation is a full one
    generation = 2 if gc.get_count()[2] >= gc.get_threshold()[2] else 1
    gc.collect(generation)
    return generation


class Worker:
    """The state a worker keeps between jobs: parsed documents, schema stores, related files' line indexes."""

    def __init__(self) -> None:
        from lsprotocol.converters import get_converter

        from wmaplint import rules
        from wmaplint.engine import Options
        from wmaplint.lsp import features

        rules.load()
        self.options = Options()
        self.converter = get_converter()
        self.features = features
        self.snapshots: dict[str, Any] = {}
        self.related: OrderedDict[str, tuple[tuple[int, int], Any]] = OrderedDict()

    def handle(self, job: dict[str, Any]) -> dict[str, Any]:
        reply: dict[str, Any] = {"id": job.get("id")}
        try:
            kind = job["kind"]
            if kind == "lint":
                reply["result"] = self.lint(job["uri"], job["text"], job.get("language"))
            elif kind == "request":
                reply["result"] = self.request(job["method"], job["uri"], job["text"], job.get("language"),
                                               job.get("params"))
            elif kind == "forget":
                self.snapshots.pop(job["uri"], None)
                give_back_memory()
                reply["result"] = None
            else:
                reply["error"] = [-32601, f"unknown job {kind!r}"]
        except InvalidParams as exc:
            reply["error"] = [-32602, str(exc)]
        except Exception as exc:  # a fault of ours: one line in the log, an error for the request
            where = _origin(exc)
            log.error("wmaplint lsp: %s failed: %s: %s%s", job.get("method") or job.get("kind"),
                      type(exc).__name__, exc, where)
            reply["error"] = [-32603, f"{type(exc).__name__}: {exc}"[:500]]
        reply["rss"] = resident_of("self")
        return reply

    def snapshot(self, uri: str, text: str, language: str | None) -> Any:
        from wmaplint.lsp.snapshot import Snapshot
        from wmaplint.lsp.uris import path_or_uri

        cached = self.snapshots.get(uri)
        if cached is not None and cached.text == text:
            return cached
        snapshot = Snapshot(text, path_or_uri(uri), is_json=_is_json(uri, language))
        self.snapshots[uri] = snapshot
        return snapshot

    def lint(self, uri: str, text: str, language: str | None) -> dict[str, Any]:
        """``{"diagnostics": [...]}``, ``{"skipped": why}`` for a file `check` would not read, or
        ``{"error": line}`` when the configuration is broken."""
        from wmaplint.engine import _lint_one_text  # exactly what `check` does with one file's text
        from wmaplint.lsp.convert import to_lsp
        from wmaplint.lsp.uris import from_path

        snapshot = self.snapshot(uri, text, language)
        outcome = _lint_one_text(text, snapshot.path, self.options)
        if outcome.skipped is not None:
            return {"skipped": outcome.skipped}
        if outcome.error is not None:
            return {"error": outcome.error}
        found = outcome.diagnostics
        index, path = snapshot.index, snapshot.path
        return {"diagnostics": [self.converter.unstructure(to_lsp(d, index, path, uri, from_path,
                                                                  self.related_index)) for d in found]}

    def related_index(self, path: str) -> Any:
        """The line index of a related file (a CRD), kept while its modification time and size stay put."""
        from wmaplint.lsp.positions import LspPositions
        from wmaplint.source import InputError, read_path

        try:
            st = os.stat(path)
        except OSError:
            return None
        stamp = (st.st_mtime_ns, st.st_size)
        cached = self.related.get(path)
        if cached is not None and cached[0] == stamp:
            self.related.move_to_end(path)
            return cached[1]
        try:
            index = LspPositions(read_path(path))
        except (InputError, OSError):
            return None
        self.related[path] = (stamp, index)
        while len(self.related) > RELATED_INDEXES:
            self.related.popitem(last=False)
        return index

    def request(self, method: str, uri: str, text: str, language: str | None, params: Any) -> Any:
        feature = self.features.FEATURES.get(method)
        if feature is None:
            raise InvalidParams(f"no feature {method}")
        try:
            typed: Any = self.converter.structure(params, feature.params)
        except Exception as exc:  # cattrs reports bad shapes in several exception types
            raise InvalidParams(f"invalid params for {method}: {_first_line(exc)}") from None
        snapshot = self.snapshot(uri, text, language)
        result = feature.compute(self, snapshot, uri, typed)
        return self.converter.unstructure(result)

    def schemas_for(self, path: str) -> Any:
        """Schema sources for a document's jq expressions (none when the configuration is broken: the lint
        reports the configuration problem)."""
        from wmaplint.lsp import jqschema
        from wmaplint.schema.store import shared_store

        try:
            store = shared_store(self.options.config_for(path).crds)
        except Exception as exc:
            log.warning("wmaplint lsp: no schemas for %s: %s", path, _first_line(exc))
            store = None
        return jqschema.schemas_from_store(store)


def _is_json(uri: str, language_id: str | None) -> bool:
    return (language_id or "").lower() in ("json", "jsonc") or uri.lower().endswith(".json")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__)[:300]


def _origin(exc: BaseException) -> str:
    """Where in wmaplint an exception was raised, for a one-line log entry."""
    tb = exc.__traceback__
    where = ""
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if "wmaplint" in name:
            where = f" ({os.path.basename(name)}:{tb.tb_lineno})"
        tb = tb.tb_next
    return where


def main() -> None:
    from wmaplint.childproc import die_with_parent

    die_with_parent(int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 0)
    channel_in = sys.stdin.buffer
    channel_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to the log, never into the channel
    sys.stdout = sys.stderr
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    worker = Worker()
    keep_imports()
    channel_out.write(frame({"id": 0, "result": "ready", "rss": resident_of("self")}))
    channel_out.flush()
    while True:
        try:
            job = read_frame(channel_in)
        except (OSError, EOFError, pickle.UnpicklingError):
            return
        if job is None:
            return  # the server closed the channel: it is done with us, or gone
        channel_out.write(frame(worker.handle(job)))
        channel_out.flush()
        collect_when_idle(channel_in, IDLE_SECONDS)


if __name__ == "__main__":
    main()
