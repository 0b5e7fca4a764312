from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml


def load_all(path: Path) -> list[Any]:
    with path.open() as handle:
        return [d for d in yaml.load_all(handle, Loader=yaml.CSafeLoader) if isinstance(d, dict)]


@pytest.fixture(scope="session")
def crd_docs(shared: Path) -> list[tuple[Path, dict[str, Any]]]:
    docs = []
    for path in sorted((shared / "crds").rglob("*.yaml")):
        docs.extend((path, d) for d in load_all(path) if d.get("kind") == "CustomResourceDefinition")
    return docs


@pytest.fixture(scope="session")
def karta_crd(shared: Path) -> dict[str, Any]:
    return load_all(shared / "crds" / "run.ai" / "karta_v1alpha1.yaml")[0]


@pytest.fixture(scope="session")
def core_openapi(shared: Path) -> dict[str, Any]:
    return json.loads((shared / "k8s-openapi" / "api__v1_openapi.json").read_text())
