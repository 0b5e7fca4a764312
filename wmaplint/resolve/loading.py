"""Read manifests, pods and definitions from files or stdin; index definitions by root GVK.

A file is read as the objects it holds, in every shape kubectl prints (``wmaplint.resolve.kubectl``): YAML or
JSON documents, the items of a ``List``, a stream of JSON values, watch events. Definitions are read with the
positioned loader into the typed model (``wmaplint.definition.model``); the files of the shipped catalog,
which every run reads, are read once per process while they stay unchanged.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wmaplint import memo
from wmaplint.dataclass import dataclass, field, replace
from wmaplint.diagnostics import Diagnostic, Span
from wmaplint.findings import FileFinding, diagnostics_of
from wmaplint.resolve.findings import DocumentTooLarge, TooManyDocuments, TooManyNodes
from wmaplint.resolve.kubectl import (
    JsonStream,
    held_objects,
    is_list,
    json_stream,
    latest_versions,
    placed,
    stream_broken,
    stream_source,
)
from wmaplint.shipped_data import shipped
from wmaplint.source import (
    FILE_LIMITS,
    Document,
    InputError,
    MappingNode,
    Node,
    ReadLimits,
    SequenceNode,
    SourceFile,
    SourceText,
    decode_bytes,
    load_text,
    read_path,
    read_stdin,
    to_python,
)

if TYPE_CHECKING:
    from wmaplint.definition.model import Definition
    from wmaplint.source.plain import Json

DEFINITION_KINDS = {("run.ai/v1alpha1", "Karta"), ("optimization.nvidia.com/v1alpha1", "ResourceInterface")}
GVK = tuple[str, str, str]

# Limits of the inputs `tree` and `test` resolve: beyond them the input is reported, not read.
MAX_DOCUMENT_BYTES = 1 << 20
MAX_DOCUMENT_NODES = 30_000
MAX_DOCUMENTS = 5_000
# A list (what `kubectl get -o yaml|json` prints for several objects) is read whole, then held to the limits
# item by item: 8 MiB of kubectl's JSON read in 1.6 s and 170 MB, 9.6 MiB of YAML in 9.5 s and 330 MB
# (docs/architecture.md); a larger list is one `kubectl get -l SELECTOR` away from this size.
MAX_LIST_BYTES = 4 << 20
# A document start: `---` at column 0 followed by a space or the line's end. YAML forbids such a line inside
# any scalar, so splitting text here never cuts a value.
_DOCUMENT_START = re.compile(r"^---(?=[ \t\r\n]|$)", re.M)
# A list object's kind, as kubectl writes it (keys sorted, so after its items): `kind: List` at the start of a
# line in YAML, `"kind": "List"` in its indented JSON. Cheap enough to look for before parsing.
_LIST_KIND = re.compile(r"""^(?:kind:[ \t]*["']?|[ \t]*"kind":[ \t]*")[A-Za-z0-9]*List\b""", re.M)


def catalog_dir() -> Path:
    return shipped("catalog")


def shown_path(path: str) -> str:
    """A file as the reports name it: relative to the working directory when below it, a file of the shipped
    catalog by its name in the catalog, any other file as given."""
    if not path or path == "<stdin>":
        return path
    return _shown_from(path, os.getcwd())


@memo.lru_cache(maxsize=256)
def _shown_from(path: str, cwd: str) -> str:
    """``shown_path`` in working directory ``cwd``: each workload of a run names its definition's file, most
    of them the same few."""
    absolute = os.path.abspath(path)
    below = os.path.relpath(absolute)
    if not below.startswith(os.pardir + os.sep) and below != os.pardir:
        return below
    if os.path.dirname(absolute) == str(catalog_dir()):
        return f"the shipped catalog's {os.path.basename(absolute)}"
    return path


@dataclass(slots=True)
class LoadedDocument:
    """An object read from a file: a document, an item of a list or the object of a watch event. ``document``
    is where it stands (its root the object's node), ``event`` the watch event that carried it."""

    file: SourceFile
    document: Document
    value: Any
    event: str | None = None

    @property
    def path(self) -> str:
        return self.file.path


@dataclass(slots=True)
class LoadedFile:
    """What reading one file gave: its documents as plain values (with their nodes), the findings of
    reading it (YAML faults, documents over the resolution limits) and its text as read."""

    path: str  # as reported: "<stdin>" for "-"
    text: str
    documents: list[LoadedDocument] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was passed by (a watch's ERROR event), as lines
    watch: bool = False  # the file is a watch: a stream of JSON values or watch events


@dataclass(slots=True)
class DefinitionEntry:
    """A definition document: its root kind, the document, and the definition as the typed model."""

    gvk: GVK
    loaded: LoadedDocument
    definition: Definition

    @property
    def name(self) -> str:
        return self.definition.name or self.loaded.path


def read_source(path: str) -> str:
    """Text of a file, or of stdin for "-"; raises InputError with one line."""
    if path == "-":
        return decode_bytes(read_stdin(), "<stdin>")
    return read_path(path)


@dataclass
class Budget:
    """How many more manifest documents a run resolves (MAX_DOCUMENTS across all its files), and how many
    were refused for the limits."""

    documents: int = field(default_factory=lambda: MAX_DOCUMENTS)
    exhausted: bool = False
    refused: int = 0


def _at_line(line: int) -> Span:
    return Span(line, 1, line, 4)


def _screen(text: str, path: str, budget: Budget) -> tuple[str, list[FileFinding]]:
    """The text with every document over MAX_DOCUMENT_BYTES blanked (its lines kept, so positions stay) and
    cut after the documents the budget allows, before any YAML is parsed; a finding for each."""
    starts = [m.start() for m in _DOCUMENT_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    if len(text) <= MAX_DOCUMENT_BYTES and len(starts) <= budget.documents:
        budget.documents -= len(starts)
        return text, []
    problems: list[FileFinding] = []
    parts: list[str] = []
    line = 1
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        chunk = text[start:end]
        if not _count(budget, path, line, problems):
            break
        size = _over_limit(chunk)
        if size is not None:
            budget.refused += 1
            problems.append(DocumentTooLarge(path, _at_line(line), size, MAX_DOCUMENT_BYTES))
            chunk = ("---" if chunk.startswith("---") else "") + "\n" * chunk.count("\n")
        parts.append(chunk)
        line += chunk.count("\n")
    return "".join(parts), problems


# A manifest file is read as any file is, and each of its documents is passed over unbuilt past
# MAX_DOCUMENT_NODES (aliases expanded), while the reader counts them.
MANIFEST_LIMITS = ReadLimits(document_nodes=MAX_DOCUMENT_NODES)


def _too_many_nodes(root: object) -> bool:
    """Whether an item of a list holds more than MAX_DOCUMENT_NODES nodes (stops counting there); a document
    that is not a list was held to it by the reader as it was built."""
    count = 0
    stack = [root]
    while stack:
        node = stack.pop()
        count += 1
        if count > MAX_DOCUMENT_NODES:
            return True
        if isinstance(node, MappingNode):
            for key, value in node.pairs:
                stack.append(key)
                stack.append(value)
        elif isinstance(node, SequenceNode):
            stack.extend(node.items)
    return False


def _over_limit(chunk: str) -> int | None:
    """The size in bytes of a document over the limit of its kind (a list may be larger), else None."""
    if len(chunk) * 4 <= MAX_DOCUMENT_BYTES:  # a character is at most 4 bytes
        return None
    size = len(chunk.encode("utf-8", "surrogatepass"))
    if size <= MAX_DOCUMENT_BYTES or (size <= MAX_LIST_BYTES and _LIST_KIND.search(chunk)):
        return None
    return size


def _count(budget: Budget, path: str, line: int, found: list[FileFinding]) -> bool:
    """Take one document from the budget; False (said once) when it is spent."""
    if budget.documents <= 0:
        if not budget.exhausted:
            budget.exhausted = True
            budget.refused += 1
            found.append(TooManyDocuments(path, _at_line(line), MAX_DOCUMENTS))
        return False
    budget.documents -= 1
    return True


def _stream_source(text: str, path: str, stream: JsonStream, budget: Budget | None, found: list[FileFinding]
                   ) -> SourceFile:
    """A stream of JSON values read as documents, each where it stands in the text, held to the resolution
    limits value by value (a value past them is passed over where it stands)."""
    if budget is None:
        source = stream_source(text, path, stream)
        found.extend(source.problems)
        source.problems = []
        return source
    whole = SourceText(path, text)
    source = SourceFile(path=path, source=whole)
    for index, (start, end) in enumerate(stream.values):
        line = whole.position(start)[0]
        if not _count(budget, path, line, found):
            break
        size = _over_limit(text[start:end])
        if size is not None:
            budget.refused += 1
            found.append(DocumentTooLarge(path, _at_line(line), size, MAX_DOCUMENT_BYTES))
            continue
        for document in placed(_load_limited(text[start:end], path, budget), start, whole, index, found):
            if document.over_limit is not None:
                _passed_over(document, path, budget, found)
            else:
                source.documents.append(document)
    broken = stream_broken(stream, whole)
    if broken is not None:
        found.append(broken)
    return source


def _within_limits(node: Node, text: str, path: str, budget: Budget, found: list[FileFinding], counted: bool,
                   nodes_held: bool = False) -> bool:
    """Whether an object is resolved: each object is held to a document's size and nodes (a document's size
    was held before it was parsed, a list's is not); with ``counted`` it takes a document of the budget.
    ``nodes_held``: the reader held the object to MAX_DOCUMENT_NODES as it built it, aliases expanded (the
    nodes it built are at least those of the tree), so they are not counted again."""
    line = node.span.start_line
    if counted and not _count(budget, path, line, found):
        return False
    size = _over_limit(text[node.start:node.end])
    if size is not None:
        budget.refused += 1
        found.append(DocumentTooLarge(path, _at_line(line), size, MAX_DOCUMENT_BYTES))
        return False
    if not nodes_held and _too_many_nodes(node):
        budget.refused += 1
        found.append(TooManyNodes(path, _at_line(line), MAX_DOCUMENT_NODES))
        return False
    return True


def load_file(path: str, text: str | None = None, budget: Budget | None = None, *, versions: bool = False
              ) -> LoadedFile:
    """The objects of a YAML/JSON file as plain values, in every shape kubectl prints; YAML faults come back
    as diagnostics. With a budget, the file holds manifests: objects past the resolution limits are reported
    and left out. A watch gives the last version of each of its objects (the state it ends in), or with
    ``versions`` every version."""
    if text is None:
        text = read_source(path)
    shown = "<stdin>" if path == "-" else path
    found: list[FileFinding] = []
    stream = json_stream(text)
    read_held = False  # whether each document was held to MAX_DOCUMENT_NODES as it was read
    if stream is not None:
        source = _stream_source(text, shown, stream, budget, found)
        parsed = text
    else:
        parsed, screened = _screen(text, shown, budget) if budget is not None else (text, [])
        found.extend(screened)
        limits = _limits(parsed, budget)
        source = _load_limited(parsed, shown, budget, limits)
        read_held = limits.document_nodes is not None and limits.document_nodes <= MAX_DOCUMENT_NODES
    result = LoadedFile(shown, text, watch=stream is not None)
    for document in source.documents:
        if document.over_limit is not None:
            _passed_over(document, shown, budget, found)
            continue
        if document.root is None:
            continue
        held, passed = held_objects(document.root)
        result.notes.extend(f"{shown}: {line}" for line in passed)
        items = is_list(document.root)
        for index, one in enumerate(held):
            result.watch = result.watch or one.event is not None
            # the document was counted as one: each further item of a list counts as another
            counted = items and index > 0
            nodes_held = read_held and one.node is document.root
            if budget is not None and not _within_limits(one.node, parsed, shown, budget, found, counted,
                                                         nodes_held):
                continue
            try:
                value = to_python(one.node)
            except RecursionError:
                raise InputError(path, "nesting too deep to read") from None
            at = document if one.node is document.root else replace(document, root=one.node)
            result.documents.append(LoadedDocument(source, at, value, one.event))
    if result.watch and not versions:
        result.documents = latest_versions(result.documents)
    result.problems = list(diagnostics_of([*source.problems, *found]))
    return result


def _limits(text: str, budget: Budget | None) -> ReadLimits:
    """The reader's limits of a text: manifests (read with a budget) also pass over a document of more than
    MAX_DOCUMENT_NODES unbuilt, unless the text holds a list, whose items are held to that limit one by one
    once it is built."""
    return FILE_LIMITS if budget is None or _LIST_KIND.search(text) else MANIFEST_LIMITS


def _load_limited(text: str, path: str, budget: Budget | None, limits: ReadLimits | None = None
                  ) -> SourceFile:
    """The text read under the reader's limits of a file (``source.ReadLimits``; past them, an InputError),
    ``limits`` (``_limits``) when given."""
    source = load_text(text, path, limits or _limits(text, budget))
    if source.refused is not None:
        raise InputError(path, source.refused)
    return source


def _passed_over(document: Document, path: str, budget: Budget | None, found: list[FileFinding]) -> None:
    """A manifest document the reader passed over unbuilt for its nodes, reported."""
    assert budget is not None and document.over_limit is not None
    budget.refused += 1
    found.append(TooManyNodes(path, _at_line(document.over_limit.start_line), MAX_DOCUMENT_NODES))


def _text(value: Json) -> str | None:
    """The value if it is a string; YAML lets apiVersion, kind or group be a list or mapping."""
    return value if isinstance(value, str) else None


def is_definition(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    api_version, kind = _text(value.get("apiVersion")), _text(value.get("kind"))
    return api_version is not None and kind is not None and (api_version, kind) in DEFINITION_KINDS


def definition_gvk(definition: Definition) -> GVK | None:
    """The root kind a definition describes, None when it names none a manifest could have."""
    kind = definition.root.kind if definition.root is not None else None
    if kind is None or not kind.kind:
        return None
    return (kind.group, kind.version, kind.kind)


def definitions_of(documents: Iterable[LoadedDocument]) -> list[DefinitionEntry]:
    """The definition documents with a root kind, as the typed model."""
    from wmaplint.definition.model import build

    entries: list[DefinitionEntry] = []
    for loaded in documents:
        if not is_definition(loaded.value):
            continue
        definition = build(loaded.document.root)
        gvk = definition_gvk(definition) if definition is not None else None
        if definition is not None and gvk is not None:
            entries.append(DefinitionEntry(gvk, loaded, definition))
    return entries


# path -> (modification time, size, the file, its definitions): the catalog's files, read once per process
_CATALOG: dict[str, tuple[int, int, LoadedFile, list[DefinitionEntry]]] = memo.kept(__name__, "_CATALOG", {})


def catalog_file(path: Path) -> tuple[LoadedFile, list[DefinitionEntry]]:
    """A definition file of the catalog with its definitions, read again only when it changed."""
    key = str(path)
    stat = os.stat(key)
    cached = _CATALOG.get(key)
    if cached is not None and cached[:2] == (stat.st_mtime_ns, stat.st_size):
        return cached[2], cached[3]
    loaded = load_file(key)
    entries = definitions_of(loaded.documents)
    _CATALOG[key] = (stat.st_mtime_ns, stat.st_size, loaded, entries)
    return loaded, entries


def manifest_gvk(value: object) -> GVK | None:
    if (
        not isinstance(value, dict)
        or not isinstance(value.get("apiVersion"), str)
        or not isinstance(value.get("kind"), str)
    ):
        return None
    group, _, version = value["apiVersion"].rpartition("/")
    return (group, version, value["kind"])


def show_gvk(gvk: GVK) -> str:
    group, version, kind = gvk
    return f"{group + '/' if group else ''}{version} {kind}"


@dataclass
class DefinitionIndex:
    """Definitions by root GVK: explicit ones first, the catalog only for GVKs they do not cover."""

    explicit: dict[GVK, list[DefinitionEntry]] = field(default_factory=dict)
    catalog: dict[GVK, list[DefinitionEntry]] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)

    def add(self, documents: Iterable[LoadedDocument]) -> int:
        """Index the definitions among ``documents`` (given explicitly); how many there were."""
        return self._index(definitions_of(documents), self.explicit)

    def add_entries(self, entries: list[DefinitionEntry]) -> int:
        """Index definitions given explicitly, already read; how many there were."""
        return self._index(entries, self.explicit)

    def _index(self, entries: list[DefinitionEntry], target: dict[GVK, list[DefinitionEntry]]) -> int:
        for entry in entries:
            target.setdefault(entry.gvk, []).append(entry)
        return len(entries)

    def add_catalog(self, directory: Path | None = None) -> None:
        directory = directory or catalog_dir()
        if not directory.is_dir():
            return
        for path in sorted(directory.glob("*.yaml")):
            try:
                loaded, entries = catalog_file(path)
            except (InputError, OSError):
                continue
            self.problems.extend(loaded.problems)
            self._index(entries, self.catalog)

    def lookup(self, gvk: GVK) -> list[DefinitionEntry]:
        """The definitions for a manifest of ``gvk``, as the runtime finds them: group and kind decide, the
        explicit definitions before the catalog's. Within each, the exact version wins; else the definitions
        of the other version first in Kubernetes' version priority (``version_priority``)."""
        for tier in (self.explicit, self.catalog):
            exact = tier.get(gvk)
            if exact:
                return exact
            group, version, kind = gvk
            others = sorted((v for g, v, k in tier if (g, k) == (group, kind) and v != version),
                            key=version_priority)
            if others:
                return tier[(group, others[0], kind)]
        return []


_KUBE_VERSION = re.compile(r"^v([1-9][0-9]*)(?:(alpha|beta)([1-9][0-9]*))?$")


def version_priority(version: str) -> tuple[int, int, int, str]:
    """A sort key in the API server's order of versions (apimachinery's CompareKubeAwareVersionStrings,
    k8s.io/apimachinery/pkg/version/helpers.go): GA before beta before alpha, higher numbers first, then
    versions not of that form in lexical order."""
    match = _KUBE_VERSION.match(version)
    if match is None:
        return (3, 0, 0, version)
    major, level, minor = match.groups()
    rank = {None: 0, "beta": 1, "alpha": 2}[level]
    return (rank, -int(major), -int(minor or 0), "")
