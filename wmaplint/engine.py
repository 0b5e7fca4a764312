"""lint(): source -> model -> checks -> diagnostics, shared by the CLI, the language server and the tests.

A definition is checked by the built-in rules (``wmaplint.rules``) and by the rule packs in force
(``wmaplint.packs``); a document of another kind the tool reads, by the rules on that kind."""

from __future__ import annotations

import gc
import itertools
import os
import re
import stat
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from wmaplint import memo
from wmaplint.config import Config, ConfigError, Overrides, discovery_bound, find_config, load_config_file
from wmaplint.dataclass import dataclass, field
from wmaplint.diagnostics import RULES, CheckOutcome, Diagnostic, Severity
from wmaplint.selection import LINK_OUT, Skip, head_text, is_suite, kind_test, link_out_of, vendored, walk
from wmaplint.source import Document, InputError, SourceFile, load_text, read_path

STDIN = "-"


@dataclass
class Options:
    """What a lint run needs beyond the files: settings, schema sources, strictness."""

    overrides: Overrides = field(default_factory=Overrides)
    config_file: str | None = None
    strict: bool = False
    jobs: int = 1  # 0: chosen by auto_jobs (the command line's default)
    # Named files in vendored directories or matched by `exclude` are skipped too, as walks skip them (for
    # hooks that name every changed file); without it a file the user names is checked.
    force_exclude: bool = False

    named: tuple[str, ...] = ()  # the directories named on the command line (bound discovery outside a repo)

    def config_for(self, path: str) -> Config:
        if self.config_file:
            base = _load_explicit(self.config_file)
        else:
            from_stdin = path in ("<stdin>", STDIN)
            directory = os.getcwd() if from_stdin else os.path.dirname(os.path.abspath(path))
            base = find_config(directory, self._named_above(directory))
        return self.overrides.apply(base)

    def _named_above(self, directory: str) -> str | None:
        holding = [d for d in self.named if directory == d or directory.startswith(d.rstrip(os.sep) + os.sep)]
        return min(holding, key=len) if holding else None


_EXPLICIT: dict[str, Config] = memo.kept(__name__, "_EXPLICIT", {})


def _load_explicit(path: str) -> Config:
    if path not in _EXPLICIT:
        _EXPLICIT[path] = load_config_file(path)
    return _EXPLICIT[path]


def lint_text(text: str, path: str = "<stdin>", options: Options | None = None) -> list[Diagnostic]:
    """All findings for one file's text, after configuration and suppressions, sorted."""
    options = options or Options()
    config = options.config_for(path)
    return _lint_source(read_text(text, path), options, config)


def read_text(text: str, path: str) -> SourceFile:
    """A file's documents as `check` reads them: YAML (a JSON value is YAML too), or each value of a stream of
    JSON values where it stands (``kubectl get -w -o json``)."""
    from wmaplint.resolve.kubectl import json_stream, stream_source

    stream = json_stream(text)
    return load_text(text, path) if stream is None else stream_source(text, path, stream)


def _lint_source(source: SourceFile, options: Options, config: Config) -> list[Diagnostic]:
    from wmaplint.definition.cel_proposal import recognise as cel_format
    from wmaplint.definition.misspelled_kind import kind_case
    from wmaplint.definition.model import build
    from wmaplint.packs.in_use import run_packs
    from wmaplint.rules import diagnostics_of, run_definition_checks, run_document_checks
    from wmaplint.rules.context import DefinitionContext, DocumentContext
    from wmaplint.schema.store import shared_store
    from wmaplint.suppression import apply_suppressions

    found: list[Diagnostic] = list(diagnostics_of(source.problems))
    for document in objects_of(source):
        definition = build(document.root)
        proposal = cel_format(document.root, source.path) if definition is not None else None
        if proposal is not None:  # one finding says it all: every field check would repeat it
            found.extend(diagnostics_of([proposal]))
            continue
        if definition is not None:
            ctx = DefinitionContext(path=source.path, source=source, document=document, definition=definition,
                                    config=config, strict=options.strict,
                                    store=shared_store(config.crds))
            found.extend(run_definition_checks(ctx))
            found.extend(run_packs(definition.document_node, source.path, config))
            continue
        kind = _checked_kind(document.root)
        if kind is not None:
            found.extend(run_document_checks(DocumentContext(path=source.path, source=source,
                                                             document=document, kind=kind, config=config)))
            continue
        misspelled = kind_case(document.root, source.path)
        if misspelled is not None:
            found.extend(diagnostics_of([misspelled]))
    found = apply_suppressions(found, source.text, source.path)
    _name_templates(found, source.text)
    result = []
    for d in found:
        if not config.enabled(d.rule):
            continue
        d.severity = config.severity_of(d.rule, d.severity)
        if options.strict and d.severity == Severity.WARNING and _strict_error(d.rule):
            d.severity = Severity.ERROR
        result.append(d)
    result.sort(key=Diagnostic.sort_key)
    return capped(result)


# Findings of one rule listed in one file; the rest are said in one finding, as linters cap a flood (a file
# of a hundred thousand repeated keys, a definition generated wrong in every entry).
MAX_FINDINGS_PER_RULE = 1000


def objects_of(source: SourceFile) -> Iterator[Document]:
    """The objects of a file's documents as each is checked: a document, or each object of a List or a watch
    stream of them, as ``kubectl get -o yaml`` (``-w``) prints what a cluster holds."""
    from wmaplint.resolve.kubectl import held_objects

    for document in source.documents:
        if document.root is None:
            yield document
            continue
        for held in held_objects(document.root)[0]:
            same = held.node is document.root
            yield document if same else Document(document.index, held.node, document.source)


def capped(found: list[Diagnostic]) -> list[Diagnostic]:
    """The findings of one file (sorted) with at most MAX_FINDINGS_PER_RULE of each rule, the first ones;
    past that, one more of the rule, where the first one left out stands, says how many were left out."""
    counts: dict[str, int] = {}
    for d in found:
        counts[d.rule] = counts.get(d.rule, 0) + 1
    if all(count <= MAX_FINDINGS_PER_RULE for count in counts.values()):
        return found
    kept: list[Diagnostic] = []
    listed: dict[str, int] = {}
    for d in found:
        seen = listed[d.rule] = listed.get(d.rule, 0) + 1
        if seen <= MAX_FINDINGS_PER_RULE:
            kept.append(d)
        elif seen == MAX_FINDINGS_PER_RULE + 1:
            more = counts[d.rule] - MAX_FINDINGS_PER_RULE
            worst = max(x.severity for x in found if x.rule == d.rule)
            kept.append(Diagnostic(d.rule, worst, f"{more:,} more findings of this rule in this file, not "
                                   "listed one by one", d.path, d.span, data=d.data))
    return kept


def _name_templates(found: list[Diagnostic], text: str) -> None:
    """In a rendered Helm stream (`helm template CHART | wmaplint check -`), each finding names the template
    its document came from (the stream's ``# Source:`` comments); positions stay lines of the stream."""
    from wmaplint.source.templates import rendered_from, rendered_sources

    sources = rendered_sources(text)
    if not sources:
        return
    for d in found:
        template = rendered_from(sources, d.span.start_line)
        if template is not None:
            d.message = f"{d.message} (rendered from {template})"


def _strict_error(rule_id: str) -> bool:
    rule = RULES.get(rule_id)
    return rule is not None and rule.strict_error


def _checked_kind(root: object) -> str | None:
    """The kind of a document that is not a definition when rules check documents of that kind (a CRD, a rule
    pack), else None."""
    from wmaplint.source import MappingNode

    if not isinstance(root, MappingNode):
        return None
    kind = getattr(root.get("kind"), "value", None)
    return kind if isinstance(kind, str) and kind in _document_kinds() else None


@memo.lru_cache(maxsize=1, pure=True)
def _document_kinds() -> frozenset[str]:
    from wmaplint.rules import document_kinds

    return frozenset(document_kinds())


@memo.lru_cache(maxsize=1, pure=True)
def _kind_test() -> re.Pattern[str]:
    from wmaplint.definition.model import DEFINITION_KINDS

    return kind_test([*DEFINITION_KINDS, *sorted(_document_kinds())])


def declares_kind(text: str) -> bool:
    """Whether a text declares, as a mapping's ``kind``, a kind the tool reads (a test before parsing), or a
    definition kind in another case (``kind: karta``, a finding). A line may end in CR alone (YAML's line
    breaks are LF, CR LF and CR), where the pattern's ``^`` sees none."""
    if _LONE_CR.search(text) is not None:
        text = _LONE_CR.sub("\n", text)
    return _kind_test().search(text) is not None or _folded_kind_test().search(text) is not None


@memo.lru_cache(maxsize=1, pure=True)
def _folded_kind_test() -> re.Pattern[str]:
    from wmaplint.definition.model import DEFINITION_KINDS

    return re.compile(kind_test(DEFINITION_KINDS).pattern, re.MULTILINE | re.IGNORECASE)


_LONE_CR = re.compile(r"\r(?!\n)")


def _read_by_us(source: SourceFile) -> bool:
    """Whether a parsed file holds a document the tool reads; a file whose YAML is broken counts (the caller
    has seen it declare such a kind)."""
    from wmaplint.definition.misspelled_kind import kind_case
    from wmaplint.definition.model import recognise

    if source.problems:
        return True
    return any(recognise(d.root) is not None or _checked_kind(d.root) is not None
               or kind_case(d.root, source.path) is not None for d in objects_of(source))


def collect_files(paths: Iterable[str], options: Options) -> tuple[list[str], list[str], list[Skip]]:
    """Files to read (directories walked, see ``wmaplint.selection``), one-line errors for paths that cannot
    be used, and what was left out."""
    files: list[str] = []
    errors: list[str] = []
    skipped: list[Skip] = []

    def excluded(path: str, directory: bool = False) -> bool:
        return options.config_for(path).excluded(Path(path), directory)

    for raw in paths:
        if raw == STDIN:
            files.append(STDIN)
            continue
        try:
            mode = os.stat(raw).st_mode
        except (FileNotFoundError, NotADirectoryError):
            errors.append(f"{raw}: no such file or directory")
            continue
        except OSError as exc:  # a name too long, a loop of links, no permission on a parent
            errors.append(f"{raw}: cannot read ({exc.strerror or exc})")
            continue
        if stat.S_ISDIR(mode):
            found, left_out = walk(raw, excluded, discovery_bound(raw, named=raw)[0])
            if not found:
                left_out.append(Skip(raw, "no YAML or JSON files in this directory"))
            files.extend(found)
            skipped.extend(left_out)
        elif (target := _link_out(raw)) is not None:
            errors.append(f"{raw}: {LINK_OUT} (to {target}); not read")
        elif options.force_exclude and vendored(raw):
            skipped.append(Skip(raw, "in a vendored or installed third-party directory (--force-exclude)"))
        elif options.force_exclude and excluded(raw):
            skipped.append(Skip(raw, "excluded by the configuration (--force-exclude)"))
        else:
            files.append(raw)
    return files, errors, skipped


def _link_out(path: str) -> str | None:
    """Where a named link leads, when that is outside the repository holding it (`config.discovery_bound`)."""
    return link_out_of(path, discovery_bound(os.path.dirname(os.path.abspath(path)))[0])


@dataclass(slots=True)
class FileOutcome:
    """What linting one file gave: its findings, a one-line error, or why it was skipped."""

    path: str
    text: str | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    error: str | None = None
    skipped: str | None = None


def lint_paths(paths: Iterable[str], options: Options | None = None, *, stdin_text: str | None = None,
               stdin_name: str = "<stdin>") -> CheckOutcome:
    """Lint files and directories; unreadable inputs become ``report.errors`` lines, files that are not the
    tool's to read ``report.skipped`` entries."""
    options = options or Options()
    paths = list(paths)
    options.named = tuple(os.path.abspath(p) for p in paths if p != STDIN and os.path.isdir(p))
    report = CheckOutcome()
    files, errors, skipped = collect_files(paths, options)
    report.errors.extend(errors)
    report.skipped.extend((s.path, s.reason) for s in skipped)
    work = [f for f in files if f != STDIN]
    results: list[FileOutcome] = []
    if STDIN in files:
        results.append(_lint_one_text(stdin_text or "", stdin_name, options))
    jobs = options.jobs if options.jobs > 0 else auto_jobs(len(work))
    if jobs > 1 and len(work) >= 8:
        results.extend(_lint_parallel(work, options, jobs))
    else:
        results.extend(_lint_one_file(f, options) for f in work)
    for outcome in results:
        if outcome.error:
            report.errors.append(outcome.error)
        elif outcome.skipped is not None:
            report.skipped.append((outcome.path, outcome.skipped))
        else:
            assert outcome.text is not None
            report.files_checked += 1
            report.sources[outcome.path] = outcome.text
            report.diagnostics.extend(outcome.diagnostics)
    # findings about shared inputs (a rule pack, a schema source) come once per linted file: keep one
    unique = {(d.path, d.span, d.rule, d.message): d for d in report.diagnostics}
    report.diagnostics = sorted(unique.values(), key=Diagnostic.sort_key)
    return report


# A worker pays for itself only with enough files: below this many per worker, one process is faster.
MIN_FILES_PER_WORKER = 24


def auto_jobs(files: int) -> int:
    """Workers for ``--jobs 0``: one per idle CPU (``wmaplint.childproc.idle_cpus``), while each gets
    MIN_FILES_PER_WORKER files."""
    if files < 2 * MIN_FILES_PER_WORKER:
        return 1  # not enough for two: the CPUs need not be looked at (nor their module imported)
    from wmaplint.childproc import idle_cpus

    return max(1, min(idle_cpus(), files // MIN_FILES_PER_WORKER))


def _lint_parallel(work: list[str], options: Options, jobs: int) -> list[FileOutcome]:
    """Lint the first file here, then the rest in ``jobs`` worker processes forked from this warm process.

    Spawned workers each re-imported wmaplint and reloaded schemas and rule packs (~0.3 s of CPU apiece),
    which cost as much as they saved on two cores; forked after the first file, they start with all of it
    (Linux; elsewhere the workers are spawned and start cold)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    results = [_lint_one_file(work[0], options)]
    rest = work[1:]
    method = "fork" if sys.platform == "linux" else None
    context = multiprocessing.get_context(method)
    chunk = max(1, len(rest) // (jobs * 4))
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        results.extend(pool.map(_lint_one_file, rest, [options] * len(rest), chunksize=chunk))
    return results


# With the cyclic collector paused for a command (cli), garbage cycles are collected every this many files.
COLLECT_EVERY = 64
_linted = itertools.count(1)


def _lint_one_file(path: str, options: Options) -> FileOutcome:
    linted = next(_linted)
    if not gc.isenabled():
        if linted == 2:
            # What the first file loaded (modules, rules, schemas, the controller model) lives to the end: out
            # of the collector's sight, so the first collection does not scan it (a third of the collections'
            # time on 400 definitions); forked workers share it untouched
            gc.freeze()
        elif linted % COLLECT_EVERY == 0:
            gc.collect(0)  # the young objects only: garbage of the last files, not the schemas kept for all
    try:
        text = read_path(path)
    except InputError as exc:
        head = head_text(path)
        if head is not None and not declares_kind(head):
            return FileOutcome(path, skipped=str(exc).removeprefix(f"{path}: ") + "; declares no kind "
                               "wmaplint reads")
        return FileOutcome(path, error=str(exc))
    return _lint_one_text(text, path, options)


def _lint_one_text(text: str, path: str, options: Options) -> FileOutcome:
    suite = is_suite(path, text)
    if not suite and not declares_kind(text):
        return FileOutcome(path, skipped=NOT_OURS)
    try:
        config = options.config_for(path)
        source = read_text(text, path)
        if source.refused is not None:  # past the reader's limits, as a file over its size is
            return FileOutcome(path, error=f"{path}: {source.refused}")
        if not suite and not _read_by_us(source):
            return FileOutcome(path, skipped=NOT_OURS)
        return FileOutcome(path, text=text, diagnostics=_lint_source(source, options, config))
    except ConfigError as exc:
        return FileOutcome(path, error=str(exc))


NOT_OURS = "no definition, CRD, rule pack or test suite"


def exit_code(report: CheckOutcome, fail_level: Severity) -> int:
    if report.errors:
        return 2
    return 1 if any(d.severity >= fail_level for d in report.diagnostics) else 0
