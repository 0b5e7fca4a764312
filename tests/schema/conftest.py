from pathlib import Path

import pytest

from wmaplint.schema.store import SchemaStore


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Never touch the real user cache; one cache for the session keeps real-CRD tests fast."""
    root = tmp_path_factory.getbasetemp() / "wmaplint-cache"
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(root))
    monkeypatch.delenv("WMAPLINT_SCHEMA_PATH", raising=False)


@pytest.fixture(scope="session")
def store(shared: Path, tmp_path_factory) -> SchemaStore:
    cache = tmp_path_factory.getbasetemp() / "wmaplint-cache" / "parsed"
    return SchemaStore([shared / "crds", shared / "k8s-openapi"], cache_dir=cache)
