"""A pack text that compiled cleanly once is not validated or compiled again: its record in the user cache."""

from __future__ import annotations

from pathlib import Path

import pytest

from wmaplint import cache_records
from wmaplint.packs import loader, run
from wmaplint.packs.in_use import shipped_pack_paths
from wmaplint.packs.problems import BadAssert
from wmaplint.packs.run import run_rules
from wmaplint.source import load_text

from .helpers import PACK_HEAD, acme_rule

REPO = Path(__file__).resolve().parents[2]
SHIPPED = shipped_pack_paths()[0]
# A catalog definition on which the shipped pack reports KBP003 (its name breaks the convention).
DEFINITION = (REPO / "catalog" / "batch-job-v1.yaml").read_text().replace(
    "name: batch-job-v1", "name: my-job", 1
)


@pytest.fixture
def compilations(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The expressions compiled (a private user cache for the records)."""
    monkeypatch.setenv("WMAPLINT_CACHE_DIR", str(tmp_path / "cache"))
    seen: list[str] = []
    real = loader._check_cel

    def counting(text: str, *args: object, **kwargs: object) -> object:
        seen.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(loader, "_check_cel", counting)
    return seen


def _findings(pack: loader.LoadedPack) -> list[tuple[str, int, str]]:
    root = load_text(DEFINITION, "def.yaml").documents[0].root
    assert root is not None
    return [(d.rule, d.span.start_line, d.message) for d in run_rules(pack.rules, root, "def.yaml")]


def test_the_shipped_pack_compiles_once_and_runs_the_same_from_its_record(
    compilations: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = Path(SHIPPED).read_text()
    first = loader.load_pack_text(text, SHIPPED)
    assert len(compilations) == 6 and not first.problems  # three rules, each an assert and a message
    monkeypatch.setattr(loader, "_schema_problems", lambda *a: pytest.fail("validated again"))
    again = loader.load_pack_text(text, SHIPPED)
    assert len(compilations) == 6
    def programs(pack: loader.LoadedPack) -> list[tuple[str, bytes, bytes | None]]:
        return [(r.id, r.assertion.serialized, r.message_program and r.message_program.serialized)
                for r in pack.rules]

    assert programs(again) == programs(first)
    assert _findings(again) == _findings(first)
    assert [f[0] for f in _findings(again)] == ["KBP003"]


def test_the_shipped_pack_runs_from_its_record_without_the_cel_runtime(
    compilations: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = Path(SHIPPED).read_text()
    expected = _findings(loader.load_pack_text(text, SHIPPED))
    again = loader.load_pack_text(text, SHIPPED)
    assert len(compilations) == 6
    assert all(r.assertion.plan is not None and r.message_program is not None and r.message_program.plan
               for r in again.rules)
    monkeypatch.setattr(run, "_program", lambda serialized: pytest.fail("the CEL runtime was used"))
    assert _findings(again) == expected


def test_a_record_without_plans_is_not_used(compilations: list[str], tmp_path: Path) -> None:
    text = PACK_HEAD + acme_rule("$.metadata.name", "self.size() > 1")
    loader.load_pack_text(text, "acme.yaml")
    (path,) = (tmp_path / "cache" / "records" / "packs").iterdir()
    data = cache_records.read(path)
    assert data["rules"]["ACME001"][0]["plan"] is not None
    del data["rules"]["ACME001"][0]["plan"]
    cache_records.write(path, data)
    (rule,) = loader.load_pack_text(text, "acme.yaml").rules
    assert len(compilations) == 2 and rule.assertion.interpreted is not None


def test_a_changed_text_compiles_afresh(compilations: list[str]) -> None:
    text = PACK_HEAD + acme_rule("$.metadata.name", "self.size() > 1")
    loader.load_pack_text(text, "acme.yaml")
    loader.load_pack_text(text.replace("> 1", "> 2"), "acme.yaml")
    assert compilations == ["self.size() > 1", "self.size() > 2"]


def test_a_damaged_record_is_not_used(compilations: list[str], tmp_path: Path) -> None:
    text = PACK_HEAD + acme_rule("$.metadata.name", "self.size() > 1")
    loader.load_pack_text(text, "acme.yaml")
    (record,) = (tmp_path / "cache" / "records" / "packs").iterdir()
    for damage in ("{", '{"rules": {"ACME001": ["not base64!", null]}}', '{"rules": []}', "[]"):
        framed = cache_records.cachefiles.frame("packs", cache_records.RECORD_VERSION, damage.encode())
        record.write_bytes(framed)
        pack = loader.load_pack_text(text, "acme.yaml")
        assert [r.id for r in pack.rules] == ["ACME001"] and not pack.problems
    assert len(compilations) == 5


def test_a_rule_that_does_not_compile_is_reported_every_time(compilations: list[str]) -> None:
    text = PACK_HEAD + acme_rule("$.metadata.name", "self.size() > 1") + acme_rule(
        "$.metadata.name", "self.nope", rule_id="ACME002"
    )
    for _ in range(2):
        pack = loader.load_pack_text(text, "acme.yaml")
        assert [r.id for r in pack.rules] == ["ACME001"]
        assert [type(p) for p in pack.problems] == [BadAssert]
    assert compilations == ["self.size() > 1", "self.nope", "self.nope"]
