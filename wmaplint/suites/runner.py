"""Find suites, run them, and write current results back as expectations (--update)."""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from wmaplint.diagnostics import Diagnostic
from wmaplint.resolve.jqrun import JqRuntime, default_runtime
from wmaplint.selection import SUITE_SUFFIX
from wmaplint.source import read_path
from wmaplint.suites.suite import SuiteResult, run_suite


# The suites `wmaplint test` runs without a path: the working directory's, never the installed package's.
DEFAULT_SUITES = os.path.join("catalog", "tests")


def discover_suites(paths: list[str]) -> list[Path]:
    """Suite files among paths (files, or directories searched recursively); default: DEFAULT_SUITES of the
    working directory, when it is there."""
    if not paths:
        if not os.path.isdir(DEFAULT_SUITES):
            return []
        paths = [DEFAULT_SUITES]
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob(f"*{SUITE_SUFFIX}") if p.is_file()))
        else:
            found.append(path)  # a missing file is reported by run_suite as a suite error
    return found


def run_suites(
    paths: list[Path],
    *,
    update: bool = False,
    runtime: JqRuntime | None = None,
    crds: list[str] | tuple[str, ...] = (),
    validate: bool = True,
) -> list[SuiteResult]:
    """Run the suites; ``crds`` (files or directories) come before WMAPLINT_SCHEMA_PATH and the user cache
    when manifests are validated."""
    runtime = runtime or default_runtime()
    results = []
    for path in paths:
        result = run_suite(path, runtime, crds=crds, validate=validate)
        if update and result.error is None and any(not c.passed and c.error is None for c in result.cases):
            update_suite(path, result)
            result = run_suite(path, runtime, crds=crds, validate=validate)
            result.updated = True
        results.append(result)
    return results


def suite_diagnostics(result: SuiteResult) -> list[Diagnostic]:
    """What running a suite found (a suite that cannot be run, each failing case), as diagnostics."""
    from wmaplint.rules import diagnostics_of

    return list(diagnostics_of(result.facts()))


def skipped_schema_sources(crds: list[str] | tuple[str, ...] = ()) -> list[Diagnostic]:
    """The diagnostics of schema sources (a --crds typo, a broken CRD file) that validation could not use."""
    from wmaplint.resolve.validate import schema_store, skipped_sources

    return skipped_sources(schema_store(crds))


def update_suite(path: Path, result: SuiteResult) -> None:
    """Rewrite each case's `expect` with its actual results, keeping comments and layout elsewhere."""
    from ruamel.yaml import YAML

    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 110
    data = yaml.load(read_path(path))
    for case in result.cases:
        if case.error is None and not case.passed:
            data["cases"][case.index]["expect"] = case.actual
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    # write atomically: a crash never leaves half a suite
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".wmaplint-", suffix=".yaml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(buffer.getvalue())
        os.replace(temp, path)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
