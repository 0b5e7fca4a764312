"""A fresh machine: empty home, no --crds, no WMAPLINT_SCHEMA_PATH, no `schemas pull`. The bundled schemas
check the whole catalog, and a misspelled path in any shipped definition is an error at its token."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from wmaplint.definition.model import build
from wmaplint.engine import lint_text
from wmaplint.source import load_text

REPO = Path(__file__).resolve().parents[2]
CATALOG = sorted((REPO / "catalog").glob("*.yaml"))
# a field below .spec, else below .status (often an open object, then a misspelling cannot be told)
SEGMENTS = (re.compile(r"\.spec\.([A-Za-z][A-Za-z0-9]*)"), re.compile(r"\.status\.([A-Za-z][A-Za-z0-9]*)"))


def fresh_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("WMAPLINT_")}
    env.update(HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"))
    return env


def test_the_catalog_checks_clean_on_a_fresh_machine(tmp_path):
    run = subprocess.run([sys.executable, "-m", "wmaplint", "check", "--format", "json", "catalog/"],
                         cwd=REPO, env=fresh_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert (run.returncode, run.stderr) == (0, "")
    assert '"diagnostics": []' in run.stdout, run.stdout[:2000]
    assert not (tmp_path / ".cache" / "wmaplint" / "parsed").exists()  # nothing parsed, nothing cached


def test_schemas_list_names_the_bundled_source_of_each_kind(tmp_path):
    run = subprocess.run([sys.executable, "-m", "wmaplint", "schemas", "list"], cwd=REPO,
                         env=fresh_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    rows = {tuple(line.split("  [")[0].split()): line for line in run.stdout.splitlines()}
    assert rows[("ray.io/v1", "RayJob")].endswith("]  bundled: crds/ray.io/rayjob_v1.yaml")
    assert rows[("v1", "Pod")].endswith("]  bundled: k8s-openapi/api__v1_openapi.json")
    assert str(REPO) not in run.stdout and str(tmp_path) not in run.stdout


def _first_root_segment(path: Path) -> tuple[str, int, int]:
    """(segment, line, column) of the first field below ``.spec`` or ``.status`` a root-context expression
    reads."""
    definition = build(load_text(path.read_text(), str(path)).documents[0].root)
    assert definition is not None
    for segment in SEGMENTS:
        for expr in definition.expressions():
            match = segment.search(expr.text) if expr.context == "root" else None
            if match:
                span = expr.node.span_of(match.start(1), match.end(1))
                return match.group(1), span.start_line, span.start_col
    raise AssertionError(f"{path.name}: no root path reads .spec or .status")


@pytest.mark.parametrize("path", CATALOG, ids=[p.stem for p in CATALOG])
def test_a_misspelled_path_in_a_shipped_definition_is_an_error_at_its_token(path):
    segment, line, column = _first_root_segment(path)
    lines = path.read_text().splitlines(keepends=True)
    at = column - 1 + len(segment)
    assert lines[line - 1][column - 1:at] == segment
    lines[line - 1] = lines[line - 1][:at] + "zz" + lines[line - 1][at:]
    found = [d for d in lint_text("".join(lines), str(path)) if d.rule == "WM301"]
    hit = [d for d in found if (d.span.start_line, d.span.start_col) == (line, column)]
    assert hit, (segment, [(d.span, d.message) for d in found])
    assert all(d.severity.label == "error" and f"'{segment}zz'" in d.message for d in hit)
    assert not [d for d in lint_text(path.read_text(), str(path)) if d.rule == "WM301"]
