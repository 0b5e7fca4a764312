"""Schema benchmarks: cold parse and warm (cached) load of the largest CRD, its load from the bundle shipped
in the package, typing 124 jq expressions.

Prints `name: value unit` lines. Reads the real CRDs from ../shared beside the repository; the stores that
read them have no bundle (a file whose content is bundled would otherwise be read pre-parsed from it).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from wmaplint.schema.store import SchemaStore, forget_parsed
from wmaplint.typecheck.expectations import Expectation, check_expression

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
LARGEST = SHARED / "crds/serving.kserve.io/llminferenceservice_v1alpha2.yaml"
GVK = ("serving.kserve.io", "v1alpha2", "LLMInferenceService")
MILVUS = SHARED / "crds/milvus.io/milvus_v1beta1.yaml"

# fields of a fragmented Milvus definition, per component: 18 components x 7 paths = 126, take 124
_FIELDS = {
    "replicasPath": ".spec.components.{c}.replicas // 1",
    "imagePath": ".spec.components.{c}.image // .spec.components.image",
    "resourcesPath": ".spec.components.{c}.resources",
    "labelsPath": ".spec.components.{c}.podLabels",
    "annotationsPath": ".spec.components.{c}.podAnnotations",
    "schedulerNamePath": ".spec.components.{c}.schedulerName // .spec.components.schedulerName",
    "priorityClassNamePath": ".spec.components.{c}.priorityClassName",
}


def _components(store: SchemaStore) -> list[str]:
    (milvus,) = store.lookup("milvus.io", "v1beta1", "Milvus")
    spec = milvus.type.member("spec")
    comps = spec.member("components") if spec is not None else None
    assert comps is not None
    return sorted(n for n, p in comps.properties.items()
                  if p.type.kind == "object" and "replicas" in p.type.properties)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        forget_parsed()
        t = time.perf_counter()
        SchemaStore([LARGEST], cache_dir=tmp, bundle=None).lookup(*GVK)
        print(f"schema_cold_parse_largest_crd: {(time.perf_counter() - t) * 1000:.1f} ms")
        best = float("inf")
        for _ in range(5):
            forget_parsed()
            t = time.perf_counter()
            found = SchemaStore([LARGEST], cache_dir=tmp, bundle=None).lookup(*GVK)
            best = min(best, time.perf_counter() - t)
            assert found
        print(f"schema_warm_load_largest_crd: {best * 1000:.1f} ms")
        times = []
        for _ in range(5):  # a new reader each time: decompress the source and the pool, build the root type
            forget_parsed()
            t = time.perf_counter()
            found = SchemaStore([], cache_dir=None).lookup(*GVK)
            times.append(time.perf_counter() - t)
            assert found
        print(f"schema_bundle_load_largest_crd (median of 5): {statistics.median(times) * 1000:.1f} ms")

        store = SchemaStore([MILVUS], cache_dir=tmp, bundle=None)
        (milvus,) = store.lookup("milvus.io", "v1beta1", "Milvus")
        exprs = [(f, text.format(c=c)) for c in _components(store) for f, text in _FIELDS.items()]
        exprs = (exprs * 2)[:124]
        t = time.perf_counter()
        findings = 0
        for field_name, text in exprs:
            findings += len(check_expression(text, Expectation.for_field(field_name), milvus.type))
        elapsed = time.perf_counter() - t
        print(f"schema_typing_124_expressions: {elapsed * 1000:.1f} ms")
        print(f"schema_typing_124_expressions_findings: {findings} count")

        # a fresh process: the warm cache gives a lazy graph, the expressions build the parts they read
        forget_parsed()
        t = time.perf_counter()
        (fresh,) = SchemaStore([MILVUS], cache_dir=tmp, bundle=None).lookup("milvus.io", "v1beta1", "Milvus")
        for field_name, text in exprs:
            check_expression(text, Expectation.for_field(field_name), fresh.type)
        elapsed = time.perf_counter() - t
        print(f"schema_warm_load_and_typing_124_expressions: {elapsed * 1000:.1f} ms")


if __name__ == "__main__":
    main()
