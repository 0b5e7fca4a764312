"""A stand-in lint worker: speaks the worker's channel and does what a job's text says, so the server's
handling of slow, greedy and crashing workers is tested without a real lint.

Words in the text: ``sleep S`` (seconds), ``grow M`` (hold M more MB), ``creep M`` (hold M more MB, a MB every
10 ms), ``crash`` (exit at once). The reply is a lint answer with no findings that carries the text.
"""

from __future__ import annotations

import os
import re
import sys
import time

from wmaplint.lsp.worker import frame, read_frame, resident_of


def main() -> None:
    out = sys.stdout.buffer
    out.write(frame({"id": 0, "result": "ready", "rss": resident_of("self")}))
    out.flush()
    held: list[bytes] = []
    while True:
        job = read_frame(sys.stdin.buffer)
        if job is None:
            return
        text = str(job.get("text") or "")
        for word, amount in re.findall(r"(sleep|grow|creep) ([\d.]+)", text):
            if word == "sleep":
                time.sleep(float(amount))
            elif word == "grow":
                held.append(b"x" * (int(amount) << 20))
            else:
                for _ in range(int(amount)):
                    held.append(b"x" * (1 << 20))
                    time.sleep(0.01)
        if "crash" in text:
            os._exit(3)
        result = {"diagnostics": [], "text": text}  # a lint answer with nothing found
        out.write(frame({"id": job["id"], "result": result, "rss": resident_of("self")}))
        out.flush()


if __name__ == "__main__":
    main()
