"""`wmaplint tree` over 1,000 manifests against libjq alone evaluating their definitions' expressions.

What it measures: two whole processes, interleaved in one loop (medians and p95 after one untimed run each):
`wmaplint tree` on 1,000 manifest files (renamed copies of the catalog's examples, made once under .bench/;
YAML reading, definition choice, every expression, schema validation, the text tree), as a user runs it
(`--jobs 0`: the validation in a child forked beside the resolution where a CPU is idle), against
benchmarks/peer_jq.py on the same files (PyYAML's C loader and the `jq` binding compiling each expression of
the catalog's definitions once and pulling all its outputs on every manifest). Then `tree --jobs 1` (one
process) against the automatic choice, interleaved likewise. Also a stream of 5,000 Job documents in one
file, whole process, wall time and peak memory of the process tree.
"""

from __future__ import annotations

import resource
import subprocess
import sys

from harness import REPO, WMAPLINT, WORK, environment, manifests_corpus, paired, ratio_line, run_once

JOB = """\
apiVersion: batch/v1
kind: Job
metadata: {name: j%d}
spec:
  parallelism: 2
  template: {spec: {containers: [{name: c, image: busybox}]}}
"""


def main() -> None:
    env = environment()
    WORK.mkdir(parents=True, exist_ok=True)
    files = sorted(str(p) for p in manifests_corpus(1000).glob("*.yaml"))
    peer = [sys.executable, str(REPO / "benchmarks" / "peer_jq.py"), str(REPO / "catalog"), *files]
    ours, theirs = paired([*WMAPLINT, "tree", *files], peer, 5, env)
    name = "tree over 1,000 manifests vs libjq evaluating their definitions alone"
    print("TABLE|" + ratio_line(name, ours, theirs, "<= 1.3x"))
    one = [*WMAPLINT, "tree", "--jobs", "1", *files]
    serial, automatic = paired(one, [*WMAPLINT, "tree", *files], 5, env)
    ratio = automatic.median / serial.median
    print(f"tree over 1,000 manifests, automatic --jobs vs --jobs 1: {ratio:.2f}x; --jobs 1 {serial.show()} "
          f"({serial.median / theirs.median:.2f}x the peer); automatic {automatic.show()}")

    stream = WORK / "stream-5000.yaml"
    if not stream.exists():
        stream.write_text("---\n".join(JOB % i for i in range(5000)), encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    seconds = run_once([*WMAPLINT, "tree", str(stream)], env)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    note = f"{peak / 1024:.0f} MB" if peak > before else "below earlier runs' peak"
    print(f"tree over a stream of 5,000 Job documents: {seconds:.1f} s, peak memory {note}")
    subprocess.run([*WMAPLINT, "--version"], env=env, stdout=subprocess.DEVNULL, check=False)


if __name__ == "__main__":
    main()
