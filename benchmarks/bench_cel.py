"""Type-checking every validation rule of every shared CRD, cold (fresh process caches) and warm."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import yaml

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def main() -> None:
    if not (SHARED / "crds").is_dir():
        print("skipped: needs ../shared beside the repository")
        return
    docs: list[dict[str, Any]] = []
    for path in sorted((SHARED / "crds").rglob("*.yaml")):
        with path.open() as handle:
            docs.extend(d for d in yaml.load_all(handle, Loader=yaml.CSafeLoader) if isinstance(d, dict))
    start = time.perf_counter()
    from wmaplint.cel import check_crd

    issues = sum(len(check_crd(doc)) for doc in docs)
    cold = time.perf_counter() - start
    start = time.perf_counter()
    for doc in docs:
        check_crd(doc)
    warm = time.perf_counter() - start
    print(f"cel_check_all_crds_cold: {cold * 1000:.0f} ms")
    print(f"cel_check_all_crds_warm: {warm * 1000:.0f} ms")
    print(f"cel_issues_on_real_crds: {issues} count")


if __name__ == "__main__":
    main()
