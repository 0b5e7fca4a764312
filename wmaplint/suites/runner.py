"""Find suites, run them, and write current results back as expectations (--update)."""

from __future__ import annotations

import os
from pathlib import Path

from wmaplint.diagnostics import Diagnostic
from wmaplint.findings import diagnostics_of
from wmaplint.jq.runtime import JqRuntime, default_runtime
from wmaplint.resolve.loading import DefinitionIndex, load_file
from wmaplint.selection import SUITE_SUFFIX
from wmaplint.source import InputError
from wmaplint.suites.suite import SuiteError, SuiteResult, read_suite_document, run_suite

# The suites `wmaplint test` runs without a path: the working directory's, never the installed package's.
DEFAULT_SUITES = os.path.join("catalog", "tests")


def discover_suites(paths: list[str]) -> list[Path]:
    """Suite files and recordings among paths (files, or directories walked as `check` walks them, hidden and
    vendored directories left out); default: DEFAULT_SUITES of the working directory, when it is there, with
    no link out of the working directory followed (SuiteError when the directory itself is reached through
    one). In a directory, a file is a suite by its name (``*.test.yaml``) and a recording by its text
    (``recording.is_recording``); other files are passed by."""
    from wmaplint.selection import head_text, is_recording, walk

    bound = None
    if not paths:
        if not os.path.isdir(DEFAULT_SUITES):
            return []
        bound = _default_bound()
        paths = [DEFAULT_SUITES]
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files, _ = walk(str(path), lambda _path, _is_dir: False, bound)
            found.extend(
                Path(f) for f in files if f.endswith(SUITE_SUFFIX) or is_recording(head_text(f) or "")
            )
        else:
            found.append(path)  # a missing file is reported by run_suite as a suite error
    return found


def _default_bound() -> str:
    """The working directory, which the default suites must lie in: they are repository content, so a link
    out of it (``catalog -> ../elsewhere``) is not followed, as a walk of ``.`` would not enter it, and
    ``--update`` never rewrites a suite outside. SuiteError (one line) when the default directory leads
    out."""
    here = os.path.realpath(os.curdir)
    target = os.path.realpath(DEFAULT_SUITES)
    if target != here and not target.startswith(here.rstrip(os.sep) + os.sep):
        raise SuiteError(f"{DEFAULT_SUITES}: a symbolic link out of the working directory (to {target}); "
                         "not read")
    return here


def _is_recording(path: Path) -> bool:
    from wmaplint.selection import head_text, is_recording

    return not str(path).endswith(SUITE_SUFFIX) and is_recording(head_text(str(path)) or "")


def files_read(path: Path) -> list[str]:
    """The files running the suite or recording at ``path`` reads besides itself (the definition, manifests,
    pods and objects it names), read under its limits; none when it cannot be read or has the wrong shape,
    as it is then not run. Known before any suite runs, so that no report replaces one of them."""
    from wmaplint.suites.recording import read_recording
    from wmaplint.suites.suite import named_files, read_suite_document

    try:
        loaded = read_recording(path) if _is_recording(path) else read_suite_document(path)
    except SuiteError:
        return []
    return named_files(loaded.value, path.parent)


def recording_index(definitions: list[str] | tuple[str, ...] = ()) -> DefinitionIndex:
    """The definitions recordings without their own are replayed with: the files given, then the catalog.
    Raises SuiteError when a file cannot be read or holds no definition."""
    index = DefinitionIndex()
    for path in definitions:
        try:
            loaded = load_file(path)
        except InputError as exc:
            raise SuiteError(str(exc)) from None
        if loaded.problems:
            raise SuiteError(f"{path}: {loaded.problems[0].message}")
        if not index.add(loaded.documents):
            raise SuiteError(f"{path}: no Karta or ResourceInterface document with a root kind")
    index.add_catalog()
    return index


def run_suites(
    paths: list[Path],
    *,
    update: bool = False,
    runtime: JqRuntime | None = None,
    crds: list[str] | tuple[str, ...] = (),
    validate: bool = True,
    index: DefinitionIndex | None = None,
    used: set[str] | None = None,
) -> list[SuiteResult]:
    """Run the suites and recordings; ``crds`` (files or directories) come before WMAPLINT_SCHEMA_PATH and
    the user cache when manifests are validated. Recordings without their own definition are replayed with
    ``index`` (default: the catalog); the definition files they used are added to ``used``. Recordings are
    never updated: what was recorded is the expectation."""
    runtime = runtime or default_runtime()
    results = []
    for path in paths:
        if _is_recording(path):
            from wmaplint.suites.recording import run_recording

            if index is None:
                index = recording_index()
            replayed, files = run_recording(path, index, runtime)
            if used is not None:
                used.update(files)
            results.append(replayed)
            continue
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
    return list(diagnostics_of(result.findings()))


def skipped_schema_sources(crds: list[str] | tuple[str, ...] = ()) -> list[Diagnostic]:
    """The diagnostics of schema sources (a --crds typo, a broken CRD file) that validation could not use."""
    from wmaplint.resolve.validate import skipped_sources
    from wmaplint.schema.store import shared_store

    return skipped_sources(shared_store(crds))


def update_suite(path: Path, result: SuiteResult) -> None:
    """Rewrite the ``expect`` of each failing case with its actual results, in place: only those blocks' text
    changes, every other byte of the suite (comments, indentation, quoting, blank lines) is kept. Written as
    --fix writes (``wmaplint.writes``): whole or not at all, mode and owner kept, a symbolic link left alone;
    WriteError says why not."""
    from wmaplint.suites.expect_edits import expect_edits
    from wmaplint.writes import WriteError, replace_file

    if os.path.islink(path):
        raise WriteError(f"{path}: is a symbolic link; not updated (update the file it points to)")
    try:
        loaded = read_suite_document(path)
    except SuiteError as exc:
        raise WriteError(f"{path}: {exc}; not updated") from None
    changed = {case.index: case.actual for case in result.cases if case.error is None and not case.passed}
    text = expect_edits(loaded, changed)
    if text is None:
        raise WriteError(f"{path}: the expectations cannot be written in place; not updated")
    replace_file(str(path), text.encode("utf-8"), shown=str(path), refusal="not updated")
