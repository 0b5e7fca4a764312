"""Shared fixtures: real upstream data lives in ../shared beside the repository and is never copied in."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"

# Definitions in tests are checked against the real schemas beside the repository, as a user's --crds would.
if SHARED.is_dir():
    os.environ.setdefault("WMAPLINT_SCHEMA_PATH", f"{SHARED / 'crds'}:{SHARED / 'k8s-openapi'}")


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present beside the repository")
    return SHARED


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO
