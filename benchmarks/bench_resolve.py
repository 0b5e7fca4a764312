"""Resolution throughput: JobSet-sized manifests resolved per second on one core.

Definitions are compiled once (the jq runtime caches programs by text); each iteration resolves a fresh
manifest dict into the full workload (tree, GPU totals, status, gangs). Prints `name: value unit` lines.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path

import yaml

from wmaplint.definition.model import build
from wmaplint.jq.runtime import JqRuntime
from wmaplint.resolve.tree import resolve_workload
from wmaplint.source import load_text

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "resolve" / "fixtures"


def main() -> None:
    path = FIXTURES / "jobset.karta.yaml"
    [document] = load_text(path.read_text(), str(path)).documents
    definition = build(document.root)
    assert definition is not None
    manifest = yaml.safe_load((FIXTURES / "jobset-leader-workers.yaml").read_text())
    manifests = []
    for i in range(200):
        m = copy.deepcopy(manifest)
        m["metadata"]["name"] = f"train-{i}"
        m["spec"]["replicatedJobs"][1]["replicas"] = 1 + i % 8
        manifests.append(m)
    runtime = JqRuntime()
    workload = resolve_workload(definition, manifests[0], runtime=runtime)  # warm-up: compile once
    assert workload.total_pods == 2 and not workload.findings
    rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 2.0:
        for m in manifests:
            resolve_workload(definition, m, runtime=runtime)
        rounds += 1
    elapsed = time.perf_counter() - start
    print(f"resolve_jobset: {rounds * len(manifests) / elapsed:.0f} manifests/s")
    start = time.perf_counter()
    for _ in range(20_000):
        runtime.evaluate(".spec.replicatedJobs[] | (.replicas // 1)", manifests[0])
    print(f"jq_evaluate_inprocess: {(time.perf_counter() - start) / 20_000 * 1e6:.1f} us/eval")
    start = time.perf_counter()
    for _ in range(200):
        runtime.evaluate("[limit(3; repeat(1))]", 1)
    print(f"jq_evaluate_worker: {(time.perf_counter() - start) / 200 * 1e6:.1f} us/eval")
    runtime.close()


if __name__ == "__main__":
    main()
