"""How `wmaplint check` grows with a definition's size: whole processes on definitions of 100 to 3,200 child
components, beside check-jsonschema on the same files.

What it measures (each a whole process timed from outside, wmaplint and its peer interleaved in one loop;
medians over the runs, after one untimed run of each):
- a clean definition with N child components (each with specDefinition, scaleDefinition, a pod selector and a
  gang membership, all in one pod group), N = 100, 200, 400, 800, 1,600, 3,200: `wmaplint check FILE` against
  `check-jsonschema --schemafile schemas/definition.schema.json FILE` (the format schema alone, which grows
  linearly with the file);
- the same definitions with every component a suspect of the shipped rule pack (no scaleDefinition, no
  selector), where the pack's rules run on each component and the CEL cost budget ends the largest;
- for each size: wmaplint's median, the peer's, their ratio, wmaplint's peak resident memory (of its runs,
  from the kernel's accounting of each process), and the growth exponent between successive sizes
  (log2 of the time ratio of doubled sizes: 1.0 is linear, 2.0 quadratic).
wmaplint reads its schemas from a private cache filled by `schemas pull` before timing (from ../shared when
present, else the shipped bundle).
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import time

from harness import REPO, WMAPLINT, WORK, check_jsonschema, environment

from wmaplint.rules.examples import job_with_children

SHARED = REPO.parent / "shared"
SCHEMA = str(REPO / "schemas" / "definition.schema.json")
SIZES = (100, 200, 400, 800, 1600, 3200)
def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Wall time and peak resident memory (KiB) of one whole process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=WORK, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = 0  # reaped above
    return time.perf_counter() - start, usage.ru_maxrss


def series(name: str, suspects: bool, peer: list[str] | None, env: dict[str, str]) -> None:
    print(f"== {name}")
    previous: float | None = None
    for count in SIZES:
        path = WORK / "scaling" / f"{'suspects' if suspects else 'clean'}-{count}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        text = job_with_children(count, scaled=not suspects, selected=not suspects)
        path.write_text(text, encoding="utf-8")
        runs = 5 if count <= 800 else 3
        ours_cmd = [*WMAPLINT, "check", str(path)]
        peer_cmd = [*peer, "--schemafile", SCHEMA, str(path)] if peer else None
        timed(ours_cmd, env)
        if peer_cmd:
            timed(peer_cmd, env)
        ours, theirs, memory = [], [], 0
        for _ in range(runs):
            seconds, rss = timed(ours_cmd, env)
            ours.append(seconds)
            memory = max(memory, rss)
            if peer_cmd:
                theirs.append(timed(peer_cmd, env)[0])
        median = statistics.median(ours)
        growth = f"; growth exponent {math.log2(median / previous):.2f}" if previous else ""
        versus = (f"; check-jsonschema {statistics.median(theirs):.2f} s, ratio "
                  f"{median / statistics.median(theirs):.1f}x" if theirs else "")
        row = f"check, {name}, {count} components: {median:.2f} s, {memory // 1024} MB{versus}{growth}"
        print(("TABLE|" if count == 800 else "") + row)  # the goal: 800 components within 8 s
        previous = median


def main() -> int:
    env = environment()
    WORK.mkdir(parents=True, exist_ok=True)
    pull = [*WMAPLINT, "schemas", "pull", *(["--from", str(SHARED)] if SHARED.is_dir() else [])]
    subprocess.run(pull, env=env, cwd=WORK, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    peer = check_jsonschema()
    if peer is None:
        print("check-jsonschema is not installed under .bench/peers (run `make bench`); ratios skipped")
    series("clean definition", False, peer, env)
    series("every component a rule-pack suspect", True, peer, env)
    return 0


if __name__ == "__main__":
    sys.exit(main())
