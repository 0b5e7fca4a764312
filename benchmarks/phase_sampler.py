"""Run one wmaplint command in this process and say where its time went: the child of profile_phases.py.

Usage: phase_sampler.py [--sample] -- ARGS. Runs ``wmaplint ARGS`` with its output discarded and prints, when
it exits, one JSON line: ``{"seconds": in-process wall time, "stacks": [[seconds, [[function, file], ...]],
...]}``, the stacks (root first) only with ``--sample``.

The sampler is a timer signal (every SAMPLE_SECONDS of wall time) whose handler records the main thread's
stack; it costs no time per call, unlike a tracing profiler, so call-heavy code is not made to look slower
than it is. Nothing is imported before the command but what the interpreter has already loaded (``sys``,
``time``, ``_signal``, ``atexit``), so the command pays for every import of its own, as it does when run as
``wmaplint``.
"""

import _signal
import atexit
import sys
import time

SAMPLE_SECONDS = 0.001


def main() -> None:
    sample = sys.argv[1] == "--sample"
    args = sys.argv[sys.argv.index("--") + 1:]
    counts: dict[tuple[object, ...], float] = {}
    last = [0.0]

    def record(signum: int, frame: object) -> None:
        now = time.perf_counter()
        codes = []
        while frame is not None:
            codes.append(frame.f_code)  # type: ignore[attr-defined]
            frame = frame.f_back  # type: ignore[attr-defined]
        key = tuple(codes)
        counts[key] = counts.get(key, 0.0) + now - last[0]
        last[0] = now

    def report() -> None:  # at exit: the command may end the process itself once its exit functions ran
        seconds = time.perf_counter() - start
        if sample:
            _signal.setitimer(_signal.ITIMER_REAL, 0, 0)
        import json

        stacks = [[share, [[code.co_name, code.co_filename] for code in reversed(key)]]  # type: ignore[attr-defined]
                  for key, share in counts.items()]
        out.write(json.dumps({"seconds": seconds, "stacks": stacks}) + "\n")
        out.flush()

    sys.argv = ["wmaplint", *args]
    out = sys.stdout
    sys.stdout = open("/dev/null", "w")  # noqa: SIM115  # the command's output, closed at exit
    atexit.register(report)
    start = time.perf_counter()
    if sample:
        last[0] = start
        _signal.signal(_signal.SIGALRM, record)
        _signal.setitimer(_signal.ITIMER_REAL, SAMPLE_SECONDS, SAMPLE_SECONDS)
    from wmaplint.launch import main as wmaplint

    wmaplint()


if __name__ == "__main__":
    main()
