"""Speed of the jq front end: parse + analyze of one expression, and of a Milvus-sized definition (124
expressions), cold (caches cleared) and cached. Prints `name: value unit` lines."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from wmaplint.jq.parser import _parse_cached
from wmaplint.jq.roles import ExprRole
from wmaplint.rules import _cached_findings, load
from wmaplint.rules import expression_findings as analyze

ONE = ".spec.rayClusterSpec.workerGroupSpecs[]? | (.replicas // 1)"
SCALE = ExprRole("replicasPath", "root", "per-instance", has_instances=False)
SPEC = ExprRole("resourcesPath", "root", "per-instance", writable=True)
SELECTOR = ExprRole("keyPath", "pod", "stream", selector_value="querynode")
PHASE = ExprRole("path", "root", "first")

COMPONENTS = [
    "standalone",
    "proxy",
    "mixCoord",
    "dataNode",
    "queryNode",
    "streamingNode",
    "indexNode",
    "rootCoord",
    "dataCoord",
    "queryCoord",
    "indexCoord",
    "cdc",
    "etcd",
    "minio",
    "zookeeper",
    "bookkeeper",
    "broker",
    "pulsarProxy",
]
FIELDS = [
    "resources",
    "nodeSelector",
    "affinity.nodeAffinity",
    "podLabels",
    "podAnnotations",
    "schedulerName",
    "priorityClassName",
]


def milvus_expressions() -> list[tuple[str, ExprRole]]:
    exprs: list[tuple[str, ExprRole]] = []
    for comp in COMPONENTS:
        for field in FIELDS:
            if len(exprs) >= 110:
                break
            exprs.append((f".spec.components.{comp}.{field} // .spec.components.{field.split('.')[0]}", SPEC))
    for comp in COMPONENTS[:12]:
        exprs.append((f".spec.components.{comp}.replicas // 1", SCALE))
    exprs.append(('.metadata.labels["app.kubernetes.io/component"]', SELECTOR))
    exprs.append((".status.status", PHASE))
    return exprs[:124]


def clear() -> None:
    _parse_cached.cache_clear()
    _cached_findings.cache_clear()


def median_us(fn: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6


def main() -> None:
    load()

    def cold_one() -> None:
        clear()
        analyze(ONE, SCALE)

    print(f"jq_one_expression_cold: {median_us(cold_one, 300):.1f} us")
    print(f"jq_one_expression_cached: {median_us(lambda: analyze(ONE, SCALE), 2000):.2f} us")
    exprs = milvus_expressions()
    assert len(exprs) == 124

    def cold_all() -> None:
        clear()
        for text, role in exprs:
            analyze(text, role)

    def cached_all() -> None:
        for text, role in exprs:
            analyze(text, role)

    print(f"jq_milvus_124_cold: {median_us(cold_all, 30) / 1000:.2f} ms")
    print(f"jq_milvus_124_cached: {median_us(cached_all, 200) / 1000:.3f} ms")


if __name__ == "__main__":
    main()
