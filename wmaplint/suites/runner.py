"""Find suites, run them, and write current results back as expectations (--update)."""

from __future__ import annotations

import io
import os
from pathlib import Path

from wmaplint.diagnostics import Diagnostic
from wmaplint.resolve.jqrun import JqRuntime, default_runtime
from wmaplint.resolve.loading import catalog_dir
from wmaplint.selection import SUITE_SUFFIX
from wmaplint.source import read_path
from wmaplint.suites.suite import SuiteResult, run_suite


def discover_suites(paths: list[str]) -> list[Path]:
    """Suite files among paths (files, or directories searched recursively); default: catalog/tests."""
    if not paths:
        paths = [str(catalog_dir() / "tests")]
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
            from wmaplint.writes import WriteError

            try:
                update_suite(path, result)
            except WriteError as exc:
                result.not_updated = str(exc)
            else:
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
    """Rewrite each case's `expect` with its actual results, keeping comments and layout elsewhere. Written as
    --fix writes (``wmaplint.writes``): whole or not at all, mode and owner kept, a symbolic link left alone;
    WriteError says why not."""
    from ruamel.yaml import YAML

    from wmaplint.writes import WriteError, replace_file

    if os.path.islink(path):
        raise WriteError(f"{path}: is a symbolic link; not updated (update the file it points to)")
    yaml = YAML()
    yaml.preserve_quotes = True
    yaml.width = 110
    data = yaml.load(read_path(path))
    for case in result.cases:
        if case.error is None and not case.passed:
            data["cases"][case.index]["expect"] = case.actual
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    replace_file(str(path), buffer.getvalue().encode("utf-8"), shown=str(path), refusal="not updated")
