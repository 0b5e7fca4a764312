from __future__ import annotations

import copy
import marshal
from pathlib import Path
from typing import Any

import pytest
import yaml

from wmaplint.schema.bundle import shipped_bundle


def load_all(path: Path) -> list[Any]:
    with path.open() as handle:
        return [d for d in yaml.load_all(handle, Loader=yaml.CSafeLoader) if isinstance(d, dict)]


@pytest.fixture(scope="session")
def crd_docs(bundled_crd_doc: Any) -> list[tuple[Path, dict[str, Any]]]:
    """Every CRD of the bundle, as (lock path, document)."""
    bundle = shipped_bundle()
    assert bundle is not None
    return [(Path(s.file), bundled_crd_doc(s.file)) for s in bundle.sources if s.format == "crd"]


@pytest.fixture(scope="session")
def karta_crd(bundled_crd_doc: Any) -> dict[str, Any]:
    """The Karta CRD with no shared subtrees (the bundle shares them), so a test can change one place."""
    doc = bundled_crd_doc("crds/run.ai/karta_v1alpha1.yaml")
    unshared: dict[str, Any] = marshal.loads(marshal.dumps(doc, 2))
    return unshared


@pytest.fixture(scope="session")
def core_openapi() -> dict[str, Any]:
    """The core (v1) OpenAPI document: its components, as the bundle ships them."""
    bundle = shipped_bundle()
    assert bundle is not None
    source = next(s for s in bundle.sources if s.file == "k8s-openapi/api__v1_openapi.json")
    return {"components": {"schemas": copy.deepcopy(bundle.payload(source)["components"])}}
