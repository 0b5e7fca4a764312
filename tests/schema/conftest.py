import pytest

from wmaplint.schema.store import SchemaStore


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Never touch the real user cache; one cache for the session keeps real-CRD tests fast."""
    root = tmp_path_factory.getbasetemp() / "wmaplint-cache"
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(root))
    monkeypatch.delenv("WMAPLINT_SCHEMA_PATH", raising=False)


@pytest.fixture(scope="session")
def store(bundle_store) -> SchemaStore:
    """The schemas a fresh machine checks against: the bundle shipped in the package."""
    return bundle_store
