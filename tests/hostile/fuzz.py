"""Run hostile cases through the real command line and hold each run to the promise: exit 0, 1 or 2, no
traceback on either stream, done within the time bound, under the memory bound, no secret of the environment
printed or written, nothing written outside the case's own directory.

Each run is a fresh process in its own directory and session, with an address-space cap it sets itself
(``resource.setrlimit``), its peak resident memory read from the kernel as it ends, and the whole process
group killed at the time bound (a resolution worker must not outlive it).

``python -m tests.hostile.fuzz [--count N] [--seed S] [--family F ...]`` (``make fuzz``) runs every family and
prints the counts: inputs, runs, tracebacks, bad exit codes, overruns, peak memory, secrets printed, writes
outside their place (a file beside the case's directory changed or added, or code run from a cache).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .generators import FAMILIES, Case, Fifo, Link, cases

TIME_BOUND = 20.0  # seconds per run
MEMORY_BOUND = 500 * 1024 * 1024  # peak resident bytes per run
ADDRESS_CAP = 3 << 30  # the child cannot grow past this at all: a runaway ends as an error, not a swap storm
REPO = Path(__file__).resolve().parents[2]
# In every run's environment; jq's env, $ENV and friends must never bring it to an output or a file.
SECRET = "fuzz-s3cr3t-5d1c8e"
VICTIM = "precious\n"


@dataclass
class Outcome:
    case: Case
    returncode: int | None  # None: killed at the time bound
    seconds: float
    peak_bytes: int
    stdout: str
    stderr: str
    secret_printed: bool = False
    wrote_outside: bool = False

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
        broken = self.traceback or self.overrun or self.bad_exit
        return not (broken or self.secret_printed or self.wrote_outside)

    def __str__(self) -> str:
        code = "killed" if self.returncode is None else f"exit {self.returncode}"
        code += ", secret printed" if self.secret_printed else ""
        code += ", wrote outside its place" if self.wrote_outside else ""
        return (f"{self.case.describe()[:300]}\n  -> {code}, {self.seconds:.1f} s, "
                f"{self.peak_bytes // (1024 * 1024)} MB\n{self.stdout[-1500:]}\n{self.stderr[-3000:]}")


def _write(directory: Path, case: Case) -> None:
    for name, content in case.files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            os.symlink(content.target, path)
        elif isinstance(content, Fifo):
            os.mkfifo(path)
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8", "surrogatepass"))
    for name, mode in case.modes.items():
        (directory / name).mkdir(parents=True, exist_ok=True)
        os.chmod(directory / name, mode)
    for name, owner in case.owners.items():
        (directory / name).mkdir(parents=True, exist_ok=True)
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            os.chown(directory / name, owner, owner)


def _holds_secret(directory: Path) -> bool:
    """Whether a regular file the run left in its directory holds the secret (a report, a rewritten suite)."""
    for path in directory.rglob("*"):
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > 8 << 20:
                continue
            if SECRET.encode() in path.read_bytes():
                return True
        except OSError:
            continue
    return False


def _wrote_outside(home: Path, directory: Path) -> bool:
    """Whether the run changed what lies beside its directory, or ran code from a cache (``pwned``)."""
    try:
        beside = sorted(p.name for p in home.iterdir())
        victim = (home / "victim.txt").read_text()
    except OSError:
        return True
    return beside != ["case", "victim.txt"] or victim != VICTIM or (directory / "pwned").exists()


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


def run_case(case: Case, base: Path, env: dict[str, str]) -> Outcome:
    # Each case in a directory of its own: a link to ".." must reach this case only, not every other case.
    home = Path(tempfile.mkdtemp(prefix=f"{case.family}-", dir=base))
    directory = home / "case"
    directory.mkdir()
    (home / "victim.txt").write_text(VICTIM)
    _write(directory, case)
    peak_file = base / f"{home.name}.peak"
    limits = {"HOSTILE_ADDRESS_CAP": str(ADDRESS_CAP), "HOSTILE_PEAK_FILE": str(peak_file)}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", BOOT, *case.args],
        cwd=directory,
        env={**env, **case.env, **limits},
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
    secret = SECRET in out + err or _holds_secret(directory)
    outside = _wrote_outside(home, directory)
    return Outcome(case, code, seconds, peak, out, err, secret, outside)


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
    """No colour, a private cache and configuration home; the schema path the caller set (if any) stays."""
    env = {**os.environ, "NO_COLOR": "1", "WMAPLINT_CACHE_DIR": str(base / "cache"),
           "XDG_CONFIG_HOME": str(base / "config"), "HOME": str(base / "home"),
           "WMAPLINT_FUZZ_SECRET": SECRET}
    return env


@dataclass
class Tally:
    inputs: int = 0
    runs: int = 0
    tracebacks: int = 0
    bad_exits: int = 0
    overruns: int = 0
    peak_bytes: int = 0
    slowest: float = 0.0
    secrets: int = 0
    outside: int = 0

    def add(self, outcome: Outcome) -> None:
        self.inputs += 1
        self.runs += 1
        self.tracebacks += outcome.traceback
        self.bad_exits += outcome.bad_exit
        self.overruns += outcome.overrun
        self.secrets += outcome.secret_printed
        self.outside += outcome.wrote_outside
        self.peak_bytes = max(self.peak_bytes, outcome.peak_bytes)
        self.slowest = max(self.slowest, outcome.seconds)

    def line(self, name: str) -> str:
        return (f"{name:<12} inputs {self.inputs:>5}  runs {self.runs:>5}  tracebacks {self.tracebacks:>3}  "
                f"bad exits {self.bad_exits:>3}  overruns {self.overruns:>3}  "
                f"peak {self.peak_bytes // (1024 * 1024):>4} MB  slowest {self.slowest:5.1f} s  "
                f"secrets printed {self.secrets:>2}  writes outside {self.outside:>2}")


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
            for field in ("inputs", "runs", "tracebacks", "bad_exits", "overruns", "secrets", "outside"):
                setattr(total, field, getattr(total, field) + getattr(tally, field))
            total.peak_bytes = max(total.peak_bytes, tally.peak_bytes)
            total.slowest = max(total.slowest, tally.slowest)
            failures.extend(failed)
    print(total.line("all"))
    for outcome in failures:
        print("\n--- " + str(outcome))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
