"""lint(): source -> model -> checks -> diagnostics, shared by the CLI, the language server and the tests."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wmaplint.config import Config, ConfigError, Overrides, find_config, load_config_file
from wmaplint.diagnostics import Diagnostic, Report, Severity
from wmaplint.source import InputError, SourceFile, load_text, read_path

YAML_SUFFIXES = (".yaml", ".yml", ".json")
STDIN = "-"

# Document handlers beyond definitions (CRDs, rule packs): kind -> function(document, ctx args) ->
# diagnostics.
DocumentLinter = Callable[[SourceFile, Any, "Options", Config], Iterable[Diagnostic]]
DOCUMENT_LINTERS: dict[str, str] = {
    "CustomResourceDefinition": "wmaplint.checks.crd:lint_crd_document",
    "RulePack": "wmaplint.rulepacks:lint_pack_document",
}


@dataclass
class Options:
    """What a lint run needs beyond the files: settings, schema sources, strictness."""

    overrides: Overrides = field(default_factory=Overrides)
    config_file: str | None = None
    strict: bool = False
    offline: bool = True
    jobs: int = 1

    def config_for(self, path: str) -> Config:
        if self.config_file:
            base = _load_explicit(self.config_file)
        else:
            from_stdin = path in ("<stdin>", STDIN)
            directory = os.getcwd() if from_stdin else os.path.dirname(os.path.abspath(path))
            base = find_config(directory)
        return self.overrides.apply(base)

    def schema_store(self, config: Config) -> Any:
        """The schema store for a configuration's sources, shared by every run in this process."""
        key = (*config.crds, "\0", os.environ.get("WMAPLINT_SCHEMA_PATH", ""),
               os.environ.get("WMAPLINT_CACHE_DIR", ""), os.environ.get("XDG_CACHE_HOME", ""))
        store = _STORES.get(key)
        if store is None:
            from wmaplint.schema import default_store

            store = _STORES[key] = default_store(list(config.crds))
        return store


_STORES: dict[tuple[str, ...], Any] = {}


_EXPLICIT: dict[str, Config] = {}


def _load_explicit(path: str) -> Config:
    if path not in _EXPLICIT:
        _EXPLICIT[path] = load_config_file(path)
    return _EXPLICIT[path]


def lint_text(text: str, path: str = "<stdin>", options: Options | None = None) -> list[Diagnostic]:
    """All findings for one file's text, after configuration and suppressions, sorted."""
    options = options or Options()
    config = options.config_for(path)
    return _lint_source(load_text(text, path), options, config)


def _lint_source(source: SourceFile, options: Options, config: Config) -> list[Diagnostic]:
    from wmaplint.checks import Context, run_checks
    from wmaplint.definition.model import build
    from wmaplint.suppress import apply_suppressions

    found: list[Diagnostic] = list(source.problems)
    for document in source.documents:
        definition = build(document.root)
        if definition is not None:
            ctx = Context(path=source.path, source=source, document=document, definition=definition,
                          options=(options, config))
            found.extend(run_checks(ctx))
            continue
        linter = _document_linter(document.root)
        if linter is not None:
            found.extend(linter(source, document, options, config))
    found = apply_suppressions(found, source.text, source.path)
    result = []
    for d in found:
        if not config.enabled(d.rule):
            continue
        d.severity = config.severity_of(d.rule, d.severity)
        if options.strict and d.rule.startswith("WM90") and d.severity == Severity.WARNING:
            d.severity = Severity.ERROR
        result.append(d)
    result.sort(key=Diagnostic.sort_key)
    return result


def _document_linter(root: Any) -> DocumentLinter | None:
    from wmaplint.source import MappingNode

    if not isinstance(root, MappingNode):
        return None
    kind = root.get("kind")
    target = DOCUMENT_LINTERS.get(getattr(kind, "value", None) or "")
    if target is None:
        return None
    import importlib

    module_name, attr = target.split(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr)


def is_lintable(source: SourceFile) -> bool:
    from wmaplint.definition.model import recognise

    if source.problems and not source.documents:
        return True  # a broken file is reported, not skipped
    return any(recognise(d.root) is not None or _document_linter(d.root) is not None
               for d in source.documents)


def collect_files(paths: Iterable[str], options: Options) -> tuple[list[str], list[str]]:
    """Files to lint (directories walked for YAML/JSON, excluded globs dropped) and one-line errors."""
    files: list[str] = []
    errors: list[str] = []
    for raw in paths:
        if raw == STDIN:
            files.append(STDIN)
            continue
        p = Path(raw)
        if p.is_dir():
            found = sorted(
                str(f) for f in p.rglob("*")
                if f.suffix in YAML_SUFFIXES and f.is_file() and not any(part.startswith(".") for part in
                                                                           f.relative_to(p).parts)
            )
            found = [f for f in found if not options.config_for(f).excluded(Path(f))]
            if not found:
                errors.append(f"{raw}: no YAML or JSON files in this directory")
            files.extend(found)
        elif p.exists():
            files.append(raw)
        else:
            errors.append(f"{raw}: no such file or directory")
    return files, errors


def lint_paths(paths: Iterable[str], options: Options | None = None, *, stdin_text: str | None = None,
               stdin_name: str = "<stdin>") -> Report:
    """Lint files and directories; unreadable inputs become ``report.errors`` lines."""
    options = options or Options()
    report = Report()
    files, errors = collect_files(paths, options)
    report.errors.extend(errors)
    work = [f for f in files if f != STDIN]
    results: list[tuple[str, str | None, list[Diagnostic] | None, str | None, bool]] = []
    if STDIN in files:
        results.append(_lint_one_text(stdin_text or "", stdin_name, options))
    if options.jobs > 1 and len(work) >= 8:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=options.jobs) as pool:
            results.extend(pool.map(_lint_one_file, work, [options] * len(work), chunksize=4))
    else:
        results.extend(_lint_one_file(f, options) for f in work)
    lintable = 0
    for path, text, diags, error, is_definition in results:
        if error:
            report.errors.append(error)
            continue
        if not is_definition:
            continue  # manifests and other YAML beside definitions are not ours to judge
        lintable += 1
        assert text is not None and diags is not None
        report.sources[path] = text
        report.diagnostics.extend(diags)
    report.files_checked = lintable
    if lintable == 0 and not report.errors:
        report.errors.append("no workload definitions found in " + ", ".join(paths))
    # findings about shared inputs (a rule pack, a schema source) come once per linted file: keep one
    unique = {(d.path, d.span, d.rule, d.message): d for d in report.diagnostics}
    report.diagnostics = sorted(unique.values(), key=Diagnostic.sort_key)
    return report


def _lint_one_file(path: str, options: Options
                   ) -> tuple[str, str | None, list[Diagnostic] | None, str | None, bool]:
    try:
        text = read_path(path)
    except InputError as exc:
        return path, None, None, str(exc), False
    return _lint_one_text(text, path, options)


def _lint_one_text(text: str, path: str, options: Options
                   ) -> tuple[str, str | None, list[Diagnostic] | None, str | None, bool]:
    try:
        config = options.config_for(path)
        source = load_text(text, path)
        if not is_lintable(source):
            return path, text, [], None, False
        return path, text, _lint_source(source, options, config), None, True
    except ConfigError as exc:
        return path, None, None, str(exc), False


def exit_code(report: Report, fail_level: Severity) -> int:
    if report.errors:
        return 2
    return 1 if any(d.severity >= fail_level for d in report.diagnostics) else 0
