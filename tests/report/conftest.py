import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from jsonschema import Draft4Validator
from report_samples import register_test_rules, unregister


@pytest.fixture(autouse=True)
def test_rules() -> Iterator[None]:
    """Register the 8xx test rules for one test only, so project-wide rule tests never see them."""
    added = register_test_rules()
    yield
    unregister(added)


@pytest.fixture(scope="session")
def sarif_validator(shared: Path) -> Draft4Validator:
    """The official SARIF 2.1.0 schema (draft-04), as GitHub's upload action validates against."""
    schema = json.loads((shared / "external" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema)
