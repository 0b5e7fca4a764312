"""Manifest validation and definition CEL checks on the real samples and the catalog.

Prints `name: value unit` lines. Needs ../shared beside the repository (schemas and samples).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
os.environ.setdefault("WMAPLINT_SCHEMA_PATH", f"{SHARED / 'crds'}:{SHARED / 'k8s-openapi'}")


def main() -> None:
    if not (SHARED / "samples").is_dir():
        print("skipped: needs ../shared beside the repository")
        return
    import wmaplint.rules  # noqa: F401  (an entry point installs the rules that word the analyses' findings)
    from wmaplint.engine import lint_text
    from wmaplint.resolve.loading import load_file
    from wmaplint.resolve.validate import validate_loaded
    from wmaplint.schema.store import shared_store

    documents = [d for p in sorted((SHARED / "samples").rglob("*.yaml")) for d in load_file(str(p)).documents]
    start = time.perf_counter()
    store = shared_store()
    first = validate_loaded(documents, store)
    cold = time.perf_counter() - start
    rounds = 5
    start = time.perf_counter()
    for _ in range(rounds):
        validate_loaded(documents, store)
    warm = (time.perf_counter() - start) / rounds
    print(f"manifests_validated: {first.checked} count")
    print(f"validate_samples_first: {cold * 1000:.1f} ms")
    print(f"validate_samples_warm: {warm * 1000:.1f} ms")
    print(f"validate_per_manifest_warm: {warm * 1000 / max(first.checked, 1):.2f} ms")

    texts = [(p.name, p.read_text()) for p in sorted((REPO / "catalog").glob("*.yaml"))]
    for name, text in texts:
        lint_text(text, name)  # load schemas and compile once
    start = time.perf_counter()
    for name, text in texts:
        lint_text(text, name)
    per_definition = (time.perf_counter() - start) * 1000 / len(texts)
    print(f"lint_catalog_definitions_warm: {per_definition:.1f} ms/definition")


if __name__ == "__main__":
    main()
