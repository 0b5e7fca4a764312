"""The shipped catalog is clean under `check --strict` against the frameworks' schemas: those bundled in the
package, as on a fresh machine."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from wmaplint.cli import main

CATALOG = Path(__file__).resolve().parents[2] / "catalog"


def test_the_catalog_has_25_definitions_clean_under_strict() -> None:
    definitions = sorted(CATALOG.glob("*.yaml"))
    assert len(definitions) == 25
    result = CliRunner().invoke(main, ["check", "--strict", "--no-color", *map(str, definitions)])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == "no findings in 25 files"
