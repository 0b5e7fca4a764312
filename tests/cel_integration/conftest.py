from __future__ import annotations

from typing import Any

import pytest
import yaml

from wmaplint import rules

rules.load()


@pytest.fixture(scope="session")
def karta_crd(bundled_crd: Any) -> dict:
    """The Karta CRD (its schema as the bundle ships it)."""
    return yaml.load(bundled_crd("crds/run.ai/karta_v1alpha1.yaml"), Loader=yaml.CSafeLoader)
