"""SARIF 2.1.0 for GitHub code scanning: one run, every rule described, full regions, stable fingerprints.

Choices worth knowing:
- columns are UTF-16 code units (``run.columnKind``), the unit GitHub's own example uses; diagnostics count
  code points, so columns after an astral character are shifted by one per such character;
- URIs of files inside ``root`` (the repository) are relative with ``uriBaseId`` ``%SRCROOT%`` (defined in
  ``originalUriBaseIds``); schemas and shipped rule packs are relative to a ``uriBaseId`` of their own,
  described but never given a machine path; a finding in a file outside the repository (a checkout named
  on the command line) is kept, relative to a ``uriBaseId`` of its own (``OUTSIDE1``, ...) for that file's
  git work tree (its directory outside one), which ``originalUriBaseIds`` locates with a ``file:`` URI
  (SARIF 2.1.0 §3.14.14): every result reaches the log, and code scanning, which places only what lies
  under ``%SRCROOT%``, still counts it; result URIs themselves are always relative; a related file outside
  the repository is named in the message;
- ``partialFingerprints.primaryLocationLineHash`` is computed like the upload action does (see
  ``fingerprint.py``) from the report's source text, so REST API uploads deduplicate too;
- message text keeps square brackets (jq paths are full of them) but breaks any accidental ``](``
  link syntax; related locations are linked from the message as ``[message](id)``;
- GitHub's hard limits are respected: at most 25,000 results (errors first), 100 related locations per
  result, a gzip-compressed size under 10 MB; what is left out is reported as a tool notification.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

from wmaplint.diagnostics import RULES, CheckOutcome, Diagnostic, Fix, RelatedLocation, Severity, Span
from wmaplint.plural import plural
from wmaplint.report.common import (
    BASE_LABELS,
    STDIN_PATH,
    SourceLines,
    dump_json,
    output_span,
    repository_root,
    repository_uri,
    sorted_diagnostics,
)
from wmaplint.report.fingerprint import line_hashes
from wmaplint.report.sarif_rules import (
    LEVEL,
    docs_uri,
    repository_url,
    rule_descriptor,
    rule_help_uri,
    unregistered_descriptor,
)

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SRCROOT = "%SRCROOT%"
MAX_RESULTS = 25_000
MAX_RELATED = 100
MAX_GZIP_BYTES = 10 * 1024 * 1024
# Reading a file only to fingerprint it: larger files go without a line hash (the upload action adds one).
MAX_FINGERPRINT_FILE_BYTES = 32 * 1024 * 1024
IDENTITY_KEY = "wmaplintIdentity/v1"

_SEMVER = re.compile(r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$")


class _Locator:
    """Turns paths and spans into SARIF locations, converting columns with the files' own lines.

    A user's file inside the repository is a URI under ``%SRCROOT%``; a file under one of the tool's roots
    (bundled or cached schemas, shipped rule packs) is a URI relative to that root's own ``uriBaseId``, whose
    machine path is never written. A finding's file outside the repository is relative to the base of its own
    work tree (``outside_artifact``).
    """

    def __init__(self, report: CheckOutcome, root: Path, cwd: Path) -> None:
        self.root = root
        self.cwd = cwd
        self.lines = SourceLines(report.sources)
        self._uris: dict[str, str | None] = {}
        self.bases_used: set[str] = set()
        self.outside_roots: dict[Path, str] = {}  # the work tree of files outside the repository -> base id

    def artifact(self, path: str, base: str | None = None) -> dict[str, str] | None:
        if base is not None:
            if base not in BASE_LABELS or Path(path).is_absolute() or ".." in Path(path).parts:
                return None
            self.bases_used.add(base)
            return {"uri": quote(Path(path).as_posix(), safe="/", errors="surrogateescape"),
                    "uriBaseId": base}
        if path not in self._uris:
            self._uris[path] = repository_uri(path, self.root, self.cwd)
        uri = self._uris[path]
        return {"uri": uri, "uriBaseId": SRCROOT} if uri is not None else None

    def outside_artifact(self, path: str) -> dict[str, str] | None:
        """A file outside the repository, relative to its own work tree under a base id of its own."""
        if path == STDIN_PATH:
            return None
        absolute = Path(os.path.normpath(self.cwd / path))
        top = _work_tree(absolute.parent)
        base = self.outside_roots.setdefault(top, f"OUTSIDE{len(self.outside_roots) + 1}")
        uri = repository_uri(str(absolute), top, self.cwd)
        return {"uri": uri, "uriBaseId": base} if uri is not None else None

    def region(self, path: str, span: Span) -> dict[str, int]:
        start_line = max(span.start_line, 1)
        end_line = max(span.end_line, start_line)
        converted = output_span(self.lines, path, Span(start_line, span.start_col, end_line, span.end_col))
        start_col = max(converted.start_col, 1)
        end_col = max(converted.end_col, 1)
        if end_line == start_line:
            end_col = max(end_col, start_col)
        return {"startLine": start_line, "startColumn": start_col, "endLine": end_line, "endColumn": end_col}

    def physical(self, path: str, span: Span | None, base: str | None = None,
                 outside: bool = False) -> dict[str, Any] | None:
        artifact = self.artifact(path, base)
        if artifact is None and outside:
            artifact = self.outside_artifact(path)
        if artifact is None:
            return None
        physical: dict[str, Any] = {"artifactLocation": artifact}
        if span is not None:
            physical["region"] = self.region(path, span)
        return physical

    def base_ids(self) -> dict[str, Any]:
        """``originalUriBaseIds``: the repository root, and the tool's roots by description only."""
        ids: dict[str, Any] = {SRCROOT: {"uri": _directory_uri(self.root)}}
        for base in sorted(self.bases_used):
            described = f"wmaplint's {BASE_LABELS[base]} (not part of the repository)"
            ids[base] = {"description": {"text": described}}
        for top, base in self.outside_roots.items():
            described = f"{top.name or top}: a directory outside the repository that was checked too"
            ids[base] = {"uri": _directory_uri(top), "description": {"text": described}}
        return ids


def _work_tree(directory: Path) -> Path:
    """The nearest directory at or above ``directory`` holding ``.git`` (a work tree's root), else itself."""
    for candidate in (directory, *directory.parents):
        if (candidate / ".git").exists():
            return candidate
    return directory


class _Fingerprints:
    """Line hashes per file, computed once and only as far as the last line a result needs."""

    def __init__(self, report: CheckOutcome, cwd: Path) -> None:
        self._sources = report.sources
        self._cwd = cwd
        self._wanted: dict[str, int] = {}
        self._hashes: dict[str, dict[int, str]] = {}
        for diagnostic in report.diagnostics:
            line = diagnostic.span.start_line
            self._wanted[diagnostic.path] = max(self._wanted.get(diagnostic.path, 0), line)

    def _text(self, path: str) -> str | None:
        text = self._sources.get(path)
        if text is not None:
            return text
        from wmaplint.source import InputError, read_bytes

        try:
            return read_bytes(self._cwd / path, MAX_FINGERPRINT_FILE_BYTES).decode("utf-8", errors="replace")
        except InputError:
            return None

    def line_hash(self, path: str, line: int) -> str | None:
        hashes = self._hashes.get(path)
        if hashes is None:
            text = self._text(path)
            hashes = {} if text is None else line_hashes(text, last_line=self._wanted.get(path))
            self._hashes[path] = hashes
        return hashes.get(line)


def _neutralise_links(text: str) -> str:
    """Keep brackets readable but stop ``[x](1)`` in a message from being read as a link."""
    return text.replace("](", "\\](")


def _link_text(text: str) -> str:
    return re.sub(r"([\\\[\]])", r"\\\1", " ".join(text.split())) or "related location"


def _plain_place(related: RelatedLocation) -> str:
    """Where a related location is, in words, for one that code scanning cannot open: no machine path."""
    name = Path(related.path).name if related.base is None else Path(related.path).as_posix()
    if related.span is not None:
        name = f"{name}:{related.span.start_line}:{related.span.start_col}"
    if related.base is not None:
        name = f"{name} in the {BASE_LABELS.get(related.base, 'tool files')}"
    return name


class _Related:
    """A finding's related locations: those in the repository are linked from the message, the rest are
    named in plain text; the tool's files keep a location under their own ``uriBaseId``."""

    def __init__(self, diagnostic: Diagnostic, locator: _Locator) -> None:
        self.locations: list[dict[str, Any]] = []
        self.mentions: list[str] = []
        for related in diagnostic.related[:MAX_RELATED]:
            physical = locator.physical(related.path, related.span, related.base)
            words = " ".join(related.message.split())
            if physical is None or related.base is not None:
                place = _plain_place(related)
                self.mentions.append(_neutralise_links(f"{words} ({place})" if words else place))
            if physical is None:
                continue
            index = len(self.locations) + 1
            location: dict[str, Any] = {"id": index, "physicalLocation": physical}
            if words:
                location["message"] = {"text": related.message.strip()}
            self.locations.append(location)
            if related.base is None:
                self.mentions.append(f"[{_link_text(related.message)}]({index})")


def _message(diagnostic: Diagnostic, mentions: list[str]) -> str:
    text = _neutralise_links(diagnostic.message.strip())
    if not text:
        rule = RULES.get(diagnostic.rule)
        text = rule.summary if rule is not None and rule.summary else diagnostic.rule
    if mentions:
        text = f"{text} (see {', '.join(mentions)})"
    return text


def _fix(fix: Fix, path: str, locator: _Locator) -> dict[str, Any] | None:
    change_location = locator.artifact(path) or locator.outside_artifact(path)
    if not fix.edits or change_location is None:
        return None
    replacements = [
        {"deletedRegion": locator.region(path, edit.span), "insertedContent": {"text": edit.new_text}}
        for edit in sorted(fix.edits, key=lambda edit: edit.span)
    ]
    change = {"artifactLocation": change_location, "replacements": replacements}
    result: dict[str, Any] = {"artifactChanges": [change]}
    if fix.description.strip():
        result["description"] = {"text": fix.description.strip()}
    return result


def _identity(diagnostic: Diagnostic, uri: str) -> str:
    """A line-independent identity for consumers other than GitHub (which reads only the line hash)."""
    key = "\0".join((diagnostic.rule, uri, " ".join(diagnostic.message.split())))
    return hashlib.sha256(key.encode("utf-8", errors="surrogatepass")).hexdigest()[:32]


def _result(
    diagnostic: Diagnostic,
    rule_index: int,
    locator: _Locator,
    fingerprints: _Fingerprints,
) -> dict[str, Any] | None:
    """The result of one finding; None for a finding that has no file to place it in."""
    primary = locator.physical(diagnostic.path, diagnostic.span, outside=True)
    if primary is None:
        return None
    related = _Related(diagnostic, locator)
    fingerprint = {IDENTITY_KEY: _identity(diagnostic, primary["artifactLocation"]["uri"])}
    line_hash = fingerprints.line_hash(diagnostic.path, primary["region"]["startLine"])
    if line_hash is not None:
        fingerprint["primaryLocationLineHash"] = line_hash
    result: dict[str, Any] = {
        "ruleId": diagnostic.rule,
        "ruleIndex": rule_index,
        "level": LEVEL[Severity(diagnostic.severity)],
        "message": {"text": _message(diagnostic, related.mentions)},
        "locations": [{"physicalLocation": primary}],
        "partialFingerprints": dict(sorted(fingerprint.items())),
    }
    if related.locations:
        result["relatedLocations"] = related.locations
    fixes = [f for f in (_fix(fix, diagnostic.path, locator) for fix in diagnostic.fixes) if f is not None]
    if fixes:
        result["fixes"] = fixes
    return result


def _select(diagnostics: list[Diagnostic], limit: int) -> list[Diagnostic]:
    """The ``limit`` most severe diagnostics, in report order (GitHub keeps the most severe too)."""
    ordered = sorted_diagnostics(diagnostics)
    if len(ordered) <= limit:
        return ordered
    ranked = sorted(range(len(ordered)), key=lambda i: (-int(ordered[i].severity), i))[:limit]
    return [ordered[i] for i in sorted(ranked)]


def _pack_descriptor(rule_id: str) -> dict[str, Any] | None:
    """Rule pack rules (ids such as ACME001) are documented by their pack, once it is loaded; the help link
    goes to the shipped pack's section of the docs, or to how rule packs work for a pack of the user's."""
    packs = sys.modules.get("wmaplint.packs.in_use")
    rule = packs.pack_rule(rule_id) if packs is not None else None
    if rule is None:
        return None
    shipped = {str(Path(path).resolve()) for path in packs.shipped_pack_paths()}  # type: ignore[union-attr]  # a rule: imported
    is_shipped = str(Path(rule.pack_path).resolve()) in shipped
    return rule_descriptor(rule.as_rule(), docs_uri("rule-packs.md", "shipped-pack" if is_shipped else ""))


def _rules(diagnostics: list[Diagnostic]) -> tuple[list[dict[str, Any]], dict[str, int]]:
    registered = [RULES[rule_id] for rule_id in sorted(RULES)]
    descriptors = [rule_descriptor(rule, rule_help_uri(rule)) for rule in registered]
    index = {descriptor["id"]: i for i, descriptor in enumerate(descriptors)}
    for diagnostic in diagnostics:
        if diagnostic.rule not in index:
            index[diagnostic.rule] = len(descriptors)
            descriptors.append(_pack_descriptor(diagnostic.rule)
                               or unregistered_descriptor(diagnostic.rule, Severity(diagnostic.severity)))
    return descriptors, index


def _driver(tool_version: str, rules: list[dict[str, Any]]) -> dict[str, Any]:
    driver: dict[str, Any] = {"name": "wmaplint", "version": tool_version}
    if _SEMVER.match(tool_version):
        driver["semanticVersion"] = tool_version
    home = repository_url()  # where a reader of the log learns of the tool (toolComponent.informationUri)
    if home is not None:
        driver["informationUri"] = home
    driver["rules"] = rules
    return driver


def _directory_uri(path: Path) -> str:
    uri = path.as_uri()
    return uri if uri.endswith("/") else uri + "/"


def _invocation(
    report: CheckOutcome, kept: list[Diagnostic], outside: list[str], cwd: Path, max_results: int
) -> dict[str, Any]:
    """How the run went: unreadable inputs make it unsuccessful; truncation is reported, not hidden."""
    notes = [("error", line) for line in report.errors]
    if len(kept) < len(report.diagnostics):
        left_out = len(report.diagnostics) - len(kept)
        notes.append(("warning", f"{plural(left_out, 'finding')} left out (GitHub accepts {max_results})"))
    if outside:
        unplaced = plural(len(outside), "finding")
        notes.append(("warning", f"{unplaced} without a file to place them in left out"))
    crowded = sum(1 for d in kept if len(d.related) > MAX_RELATED)
    if crowded:
        notes.append(
            (
                "warning",
                f"{crowded} findings had more than {MAX_RELATED} related locations; the rest are left out",
            )
        )
    invocation: dict[str, Any] = {
        "executionSuccessful": not report.errors,
        "workingDirectory": {"uri": _directory_uri(cwd)},
    }
    if notes:
        invocation["toolExecutionNotifications"] = [
            {"level": level, "message": {"text": text.strip() or "error"}} for level, text in notes
        ]
    return invocation


def sarif_log(
    report: CheckOutcome,
    *,
    tool_version: str,
    root: Path | None = None,
    category: str | None = None,
    cwd: Path | None = None,
    max_results: int = MAX_RESULTS,
) -> dict[str, Any]:
    """The SARIF log as plain data. ``category`` becomes ``automationDetails.id`` (``category/run-id``).

    ``root`` is the repository root every URI is relative to (default: the git work tree holding ``cwd``).
    """
    cwd = Path(os.path.normpath((cwd or Path.cwd()).absolute()))
    root = Path(os.path.normpath(cwd / (root or repository_root(cwd))))
    locator = _Locator(report, root, cwd)
    fingerprints = _Fingerprints(report, cwd)
    kept = _select(report.diagnostics, max_results)
    rules, rule_index = _rules(kept)
    results = []
    outside = []
    for diagnostic in kept:
        result = _result(diagnostic, rule_index[diagnostic.rule], locator, fingerprints)
        if result is None:
            outside.append(diagnostic.path)
        else:
            results.append(result)
    run: dict[str, Any] = {
        "tool": {"driver": _driver(tool_version, rules)},
        "invocations": [_invocation(report, kept, outside, cwd, max_results)],
        "originalUriBaseIds": locator.base_ids(),
        "columnKind": "utf16CodeUnits",
        "results": results,
    }
    if category:
        run["automationDetails"] = {"id": category}
    return {"$schema": SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def _dump(log: dict[str, Any]) -> str:
    # log > runs > run > results > result > locations: each rule and each result property on its own line
    return dump_json(log, expand_depth=6)


def render_sarif(
    report: CheckOutcome,
    *,
    tool_version: str,
    root: Path | None = None,
    category: str | None = None,
    cwd: Path | None = None,
) -> str:
    """SARIF text; when the compressed log would exceed GitHub's 10 MB, fewer results are kept."""
    limit = MAX_RESULTS
    while True:
        log = sarif_log(
            report, tool_version=tool_version, root=root, category=category, cwd=cwd, max_results=limit
        )
        text = _dump(log)
        data = text.encode("utf-8")
        # JSON compresses well, so only a log over the limit uncompressed can be over it compressed.
        if limit == 0 or len(data) <= MAX_GZIP_BYTES:
            return text
        if len(gzip.compress(data, compresslevel=6)) <= MAX_GZIP_BYTES:
            return text
        limit = min(limit, len(report.diagnostics)) // 2
