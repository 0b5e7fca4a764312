"""Run hostile cases through the real command line and hold each run to the promise: exit 0, 1 or 2, no
traceback on either stream, done within the time bound, under the memory bound.

Each run is a fresh process in its own directory and session, with an address-space cap it sets itself
(``resource.setrlimit``), its peak resident memory read from the kernel as it ends, and the whole process
group killed at the time bound (a resolution worker must not outlive it).

A case may also name what its run may write (``Case.writable``): every other file, link, pipe and device of
its directory and beside it is held to its kind and bytes, and a change is a write outside its place. An LSP
case may name the request ids to be answered exactly once (``Case.answers``).

Every run holds a secret it must never show: a canary in its environment (``WMAPLINT_FUZZ_SECRET``) and in a
file beside its directory (``../secret.yaml``, whose key and value are the canary). Any output, report or
file the run leaves in its home that holds the canary is a secret printed.

``python -m tests.hostile.fuzz [--count N] [--seed S] [--family F ...]`` (``make fuzz``) runs every family and
prints the counts: inputs, runs, tracebacks, bad exit codes, overruns, peak memory, writes outside their
place, requests not answered exactly once, secrets printed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from wmaplint.lsp import rpc

from .generators import FAMILIES, Case, Hardlink, Link, Sparse, Special, cases

TIME_BOUND = 20.0  # seconds per run
MEMORY_BOUND = 500 * 1024 * 1024  # peak resident bytes per run
ADDRESS_CAP = 3 << 30  # the child cannot grow past this at all: a runaway ends as an error, not a swap storm
REPO = Path(__file__).resolve().parents[2]
SECRET_VARIABLE = "WMAPLINT_FUZZ_SECRET"
SECRET_FILE = "secret.yaml"  # beside each case's directory
HUGE = 64 << 20  # a file larger than this is held to its size and inode, not read


@dataclass
class Outcome:
    case: Case
    returncode: int | None  # None: killed at the time bound
    seconds: float
    peak_bytes: int
    stdout: str
    stderr: str
    misplaced: list[str] = field(default_factory=list)  # writes outside their place
    unanswered: list[str] = field(default_factory=list)  # ids not answered exactly once
    leaked: list[str] = field(default_factory=list)  # where the secret was shown: a stream or a file

    @property
    def traceback(self) -> bool:
        return "Traceback (most recent call last)" in self.stdout + self.stderr

    @property
    def overrun(self) -> bool:
        return self.returncode is None or self.seconds > TIME_BOUND or self.peak_bytes > MEMORY_BOUND

    @property
    def bad_exit(self) -> bool:
        return self.returncode is not None and self.returncode not in (0, 1, 2)

    @property
    def ok(self) -> bool:
        return not (self.traceback or self.overrun or self.bad_exit or self.misplaced or self.unanswered
                    or self.leaked)

    def __str__(self) -> str:
        code = "killed" if self.returncode is None else f"exit {self.returncode}"
        notes = "".join(f"\n  write outside its place: {m}" for m in self.misplaced)
        notes += "".join(f"\n  {u}" for u in self.unanswered)
        notes += "".join(f"\n  secret printed: {where}" for where in self.leaked)
        return (f"{self.case.describe()[:300]}\n  -> {code}, {self.seconds:.1f} s, "
                f"{self.peak_bytes // (1024 * 1024)} MB{notes}\n{self.stdout[-1500:]}\n{self.stderr[-3000:]}")


def _write(directory: Path, case: Case, secret: str) -> None:
    (directory.parent / "outside.txt").write_text("a file beside the case, never to be written\n")
    (directory.parent / SECRET_FILE).write_text(f"{secret}: {secret}\n")
    for name, content in case.files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Sparse):
            with open(path, "wb") as handle:
                handle.truncate(content.size)
        elif isinstance(content, Link):
            os.symlink(content.target, path)
        elif isinstance(content, Hardlink):
            os.link(directory / content.target, path)
        elif isinstance(content, Special):
            if content.kind == "device" and os.geteuid() == 0:
                os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, 3))  # a null device of the case's own
            else:
                os.mkfifo(path)
        elif name.startswith("readonly"):
            path.write_text(str(content))
            path.chmod(0o444)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8", "surrogatepass"))
    for name, mode in case.modes.items():
        os.chmod(directory / name, mode)
    if os.geteuid() == 0:
        for name, uid in case.owners.items():
            os.chown(directory / name, uid, uid, follow_symlinks=False)


# The child sets its own limits, then runs wmaplint as `python -m wmaplint` would; at exit it writes its peak
# resident memory (VmHWM of this very program: the kernel's rusage of a child also counts the memory of the
# parent it was forked from) to the file the runner names.
BOOT = """
import atexit, os, resource, runpy, sys
cap = int(os.environ.pop("HOSTILE_ADDRESS_CAP"))
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
peak_file = os.environ.pop("HOSTILE_PEAK_FILE")

def report():
    try:
        with open("/proc/self/status") as status:
            kib = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
        with open(peak_file, "w") as out:
            out.write(kib)
    except (OSError, StopIteration):
        pass

atexit.register(report)
leave = os._exit


def exit_now(code):  # a server that ends with os._exit runs no exit handlers
    report()
    leave(code)


os._exit = exit_now
sys.argv = ["wmaplint", *sys.argv[1:]]
runpy.run_module("wmaplint", run_name="__main__", alter_sys=True)
"""


def _snapshot(home: Path, secret: str = "", leaked: list[str] | None = None) -> dict[str, tuple[str, object]]:
    """Every entry below ``home``: its kind and, for a file, the digest of its bytes and its mode; for a link,
    its target. With ``leaked``, each file but the secret's own that holds ``secret`` is added to it."""
    seen: dict[str, tuple[str, object]] = {}
    canary = secret.encode()
    for folder, directories, names in os.walk(home):
        for name in [*directories, *names]:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, home)
            info = os.lstat(path)
            if stat.S_ISLNK(info.st_mode):
                seen[relative] = ("link", os.readlink(path))
            elif stat.S_ISREG(info.st_mode) and info.st_size > HUGE:  # a planted hole: known by its size
                seen[relative] = ("file", (info.st_size, info.st_ino, stat.S_IMODE(info.st_mode)))
            elif stat.S_ISREG(info.st_mode):
                digest, holds = _digest(path, canary)
                seen[relative] = ("file", (digest, stat.S_IMODE(info.st_mode)))
                if holds and leaked is not None and relative != SECRET_FILE and info.st_nlink == 1:
                    leaked.append(f"file {relative}")
            elif stat.S_ISDIR(info.st_mode):
                seen[relative] = ("directory", None)
            else:
                seen[relative] = ("special", stat.S_IFMT(info.st_mode))
    return seen


def _digest(path: str, canary: bytes) -> tuple[str, bool]:
    """The sha256 of a file's bytes, and whether they hold ``canary`` (read in chunks: a huge sparse record
    is read, never held)."""
    digest, holds, tail = hashlib.sha256(), False, b""
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
            holds = holds or bool(canary) and canary in tail + chunk
            tail = chunk[-len(canary):] if canary else b""
    return digest.hexdigest(), holds


def _misplaced(before: dict[str, tuple[str, object]], after: dict[str, tuple[str, object]],
               writable: set[str]) -> list[str]:
    allowed = {os.path.normpath(os.path.join("case", name)) for name in writable}
    changed = [name for name in sorted(set(before) | set(after))
               if before.get(name) != after.get(name) and not _below(name, allowed)
               and not (after.get(name, ("directory",))[0] == "directory" and name not in before)]
    return [f"{name}: {_kind(before.get(name))} -> {_kind(after.get(name))}" for name in changed]


def _below(name: str, allowed: set[str]) -> bool:
    return any(name == place or name.startswith(place + os.sep) for place in allowed)


def _kind(entry: tuple[str, object] | None) -> str:
    return "absent" if entry is None else entry[0]


def _unanswered(stdout: str, wanted: list[int | str]) -> list[str]:
    """The ids of ``wanted`` not answered exactly once, and any id answered twice."""
    import io
    import json

    counts: dict[object, int] = {}
    for item in rpc.read_frames(io.BytesIO(stdout.encode("utf-8", "replace"))):
        if isinstance(item, bytes):
            try:
                reply = json.loads(item)
            except ValueError:
                continue
            if isinstance(reply, dict) and "method" not in reply and reply.get("id") is not None:
                counts[reply["id"]] = counts.get(reply["id"], 0) + 1
    problems = [f"request {i!r} answered {counts.get(i, 0)} times" for i in wanted if counts.get(i, 0) != 1]
    problems += [f"request {i!r} answered {n} times" for i, n in counts.items() if n > 1 and i not in wanted]
    return problems


def run_case(case: Case, base: Path, env: dict[str, str]) -> Outcome:
    # Each case in a directory of its own: a link to ".." must reach this case only, not every other case.
    home = Path(tempfile.mkdtemp(prefix=f"{case.family}-", dir=base))
    directory = home / "case"
    directory.mkdir()
    secret = env.get(SECRET_VARIABLE, "")
    _write(directory, case, secret)
    before = _snapshot(home) if case.writable is not None else {}
    peak_file = base / f"{home.name}.peak"
    limits = {"HOSTILE_ADDRESS_CAP": str(ADDRESS_CAP), "HOSTILE_PEAK_FILE": str(peak_file)}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", BOOT, *case.args],
        cwd=directory,
        env={**env, **{k: v.replace("{home}", str(home)) for k, v in case.env.items()}, **limits},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group: the kill below reaches any worker it started
    )
    streams: dict[str, bytes] = {}

    def pump(name: str, stream) -> None:  # type: ignore[no-untyped-def]
        streams[name] = stream.read(4 << 20)
        stream.read()  # drain the rest unread, so the child never blocks on a full pipe

    readers = [threading.Thread(target=pump, args=(n, s), daemon=True)
               for n, s in (("out", proc.stdout), ("err", proc.stderr))]
    for reader in readers:
        reader.start()
    feeder = threading.Thread(target=_feed, args=(proc, case.stdin or b""), daemon=True)
    feeder.start()
    timer = threading.Timer(TIME_BOUND * 1.5, _kill, args=(proc,))
    timer.start()
    _, status = os.waitpid(proc.pid, 0)
    timer.cancel()
    seconds = time.perf_counter() - start
    _kill(proc)  # anything of its group still running
    for reader in readers:
        reader.join(5)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    code = None if killed else os.waitstatus_to_exitcode(status)
    proc.returncode = -1 if code is None else code
    out, err = (streams.get(name, b"").decode("utf-8", "replace") for name in ("out", "err"))
    try:
        peak = int(peak_file.read_text()) * 1024
    except (OSError, ValueError):
        peak = 0  # killed, or ended without running its exit handlers
    outcome = Outcome(case, code, seconds, peak, out, err)
    after = _snapshot(home, secret, outcome.leaked)
    if case.writable is not None:
        outcome.misplaced = _misplaced(before, after, case.writable)
    if secret:
        outcome.leaked[:0] = [name for name, text in (("standard output", out), ("standard error", err))
                              if secret in text]
    if case.answers is not None and code is not None:
        outcome.unanswered = _unanswered(out, case.answers)
    return outcome


def _feed(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(data)
        proc.stdin.close()
    except OSError:
        pass  # the child stopped reading: its own business


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def environment(base: Path) -> dict[str, str]:
    """No colour, a private cache and configuration home, and a secret the runs must never show (a fresh
    canary each time); the schema path the caller set (if any) stays."""
    env = {**os.environ, "NO_COLOR": "1", "WMAPLINT_CACHE_DIR": str(base / "cache"),
           "XDG_CONFIG_HOME": str(base / "config"), "HOME": str(base / "home"),
           SECRET_VARIABLE: f"canary-{secrets.token_hex(16)}"}
    return env


@dataclass
class Tally:
    inputs: int = 0
    runs: int = 0
    tracebacks: int = 0
    bad_exits: int = 0
    overruns: int = 0
    misplaced: int = 0  # runs that wrote outside their place
    unanswered: int = 0  # runs with a request not answered exactly once
    leaked: int = 0  # runs that printed or wrote the secret
    peak_bytes: int = 0
    slowest: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.inputs += 1
        self.runs += 1
        self.tracebacks += outcome.traceback
        self.bad_exits += outcome.bad_exit
        self.overruns += outcome.overrun
        self.misplaced += bool(outcome.misplaced)
        self.unanswered += bool(outcome.unanswered)
        self.leaked += bool(outcome.leaked)
        self.peak_bytes = max(self.peak_bytes, outcome.peak_bytes)
        self.slowest = max(self.slowest, outcome.seconds)

    def line(self, name: str) -> str:
        return (f"{name:<12} inputs {self.inputs:>5}  runs {self.runs:>5}  tracebacks {self.tracebacks:>3}  "
                f"bad exits {self.bad_exits:>3}  overruns {self.overruns:>3}  "
                f"misplaced writes {self.misplaced:>3}  unanswered {self.unanswered:>3}  "
                f"secrets printed {self.leaked:>3}  "
                f"peak {self.peak_bytes // (1024 * 1024):>4} MB  slowest {self.slowest:5.1f} s")


def run_family(family: str, seed: int, count: int, base: Path) -> tuple[Tally, list[Outcome]]:
    env = environment(base)
    tally, failures = Tally(), []
    for case in cases(family, seed, count):
        outcome = run_case(case, base, env)
        tally.add(outcome)
        if not outcome.ok:
            failures.append(outcome)
    return tally, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="inputs per family")
    parser.add_argument("--seed", type=int, default=20251201)
    parser.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only these families")
    args = parser.parse_args(argv)
    total = Tally()
    failures: list[Outcome] = []
    with tempfile.TemporaryDirectory(prefix="wmaplint-fuzz-") as tmp:
        for family in args.family or list(FAMILIES):
            tally, failed = run_family(family, args.seed, args.count, Path(tmp))
            print(tally.line(family), flush=True)
            for name in ("inputs", "runs", "tracebacks", "bad_exits", "overruns", "misplaced", "unanswered",
                         "leaked"):
                setattr(total, name, getattr(total, name) + getattr(tally, name))
            total.peak_bytes = max(total.peak_bytes, tally.peak_bytes)
            total.slowest = max(total.slowest, tally.slowest)
            failures.extend(failed)
    print(total.line("all"))
    for outcome in failures:
        print("\n--- " + str(outcome))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
