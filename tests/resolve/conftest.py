from pathlib import Path

import pytest
import yaml

from wmaplint.jq.runtime import JqRuntime

FIXTURES = Path(__file__).parent / "fixtures"


def load(name: str):
    return yaml.safe_load((FIXTURES / name).read_text())


@pytest.fixture(scope="session")
def runtime():
    rt = JqRuntime(timeout=1.0)
    yield rt
    rt.close()


@pytest.fixture()
def jobset_definition():
    return load("jobset.karta.yaml")


@pytest.fixture()
def jobset_manifest():
    return load("jobset-leader-workers.yaml")
