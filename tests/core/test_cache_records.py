"""Records of the tool's own YAML data in the user cache: the same data on every run, damage ignored."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from wmaplint import cache_records
from wmaplint.shipped_data import shipped

KNOWLEDGE = (shipped("schemas") / "controllers" / "kubernetes.yaml").read_text(encoding="utf-8")


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_the_record_gives_what_parsing_gives(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = cache_records.yaml_data("knowledge", KNOWLEDGE)
    assert first == yaml.safe_load(KNOWLEDGE) and list((cache / "records" / "knowledge").glob("*.json"))

    def no_parsing(*args: object, **kwargs: object) -> None:
        raise AssertionError("parsed again")

    monkeypatch.setattr(yaml, "load", no_parsing)
    assert cache_records.yaml_data("knowledge", KNOWLEDGE) == first


def test_a_damaged_record_is_parsed_again(cache: Path) -> None:
    cache_records.yaml_data("knowledge", "a: [1, 2]\n")
    [record] = (cache / "records" / "knowledge").glob("*.json")
    record.write_text('{"value": ', encoding="utf-8")
    assert cache_records.yaml_data("knowledge", "a: [1, 2]\n") == {"a": [1, 2]}


def test_data_json_cannot_hold_is_parsed_every_time_and_reads_the_same_on_the_first_run(cache: Path) -> None:
    assert cache_records.yaml_data("knowledge", "when: 2001-12-14\n") == yaml.safe_load("when: 2001-12-14\n")
    assert not (cache / "records" / "knowledge").exists()
    # as every later run reads it back
    assert cache_records.yaml_data("knowledge", "1: one\n") == {"1": "one"}
