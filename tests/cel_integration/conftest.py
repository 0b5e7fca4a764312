from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wmaplint.checks import load_checks
from wmaplint.rule_modules import import_rule_modules

load_checks()
import_rule_modules()


@pytest.fixture(scope="session")
def karta_crd(shared: Path) -> dict:
    return yaml.load(
        (shared / "crds" / "run.ai" / "karta_v1alpha1.yaml").read_text(), Loader=yaml.CSafeLoader
    )
