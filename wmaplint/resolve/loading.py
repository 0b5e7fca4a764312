"""Read manifests, pods and definitions from files or stdin; index definitions by root GVK."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from wmaplint.diagnostics import Diagnostic, Severity, Span
from wmaplint.resources import shipped
from wmaplint.source import (
    Document,
    InputError,
    MappingNode,
    SequenceNode,
    SourceFile,
    decode_bytes,
    load_text,
    read_path,
    read_stdin,
    to_python,
)
from wmaplint.structs import dataclass, field

DEFINITION_KINDS = {("run.ai/v1alpha1", "Karta"), ("optimization.nvidia.com/v1alpha1", "ResourceInterface")}
GVK = tuple[str, str, str]

# Limits of the inputs `tree` and `test` resolve (rule WM718): beyond them the input is reported, not read.
MAX_DOCUMENT_BYTES = 1 << 20
MAX_DOCUMENT_NODES = 30_000
MAX_DOCUMENTS = 5_000
# A document start: `---` at column 0 followed by a space or the line's end. YAML forbids such a line inside
# any scalar, so splitting text here never cuts a value.
_DOCUMENT_START = re.compile(r"^---(?=[ \t\r\n]|$)", re.M)


def catalog_dir() -> Path:
    return shipped("catalog")


@dataclass(slots=True)
class LoadedDocument:
    file: SourceFile
    document: Document
    value: Any

    @property
    def path(self) -> str:
        return self.file.path


@dataclass(slots=True)
class DefinitionEntry:
    gvk: GVK
    loaded: LoadedDocument

    @property
    def name(self) -> str:
        metadata = self.loaded.value.get("metadata") if isinstance(self.loaded.value, dict) else None
        return (
            str(metadata.get("name"))
            if isinstance(metadata, dict) and metadata.get("name")
            else self.loaded.path
        )


def read_source(path: str) -> str:
    """Text of a file, or of stdin for "-"; raises InputError with one line."""
    if path == "-":
        return decode_bytes(read_stdin(), "<stdin>")
    return read_path(path)


@dataclass
class Budget:
    """How many more manifest documents a run resolves (MAX_DOCUMENTS across all its files)."""

    documents: int = field(default_factory=lambda: MAX_DOCUMENTS)
    exhausted: bool = False


def _limit_diagnostic(path: str, line: int, message: str) -> Diagnostic:
    from wmaplint.resolve.rules import INPUT_LIMIT

    return Diagnostic(INPUT_LIMIT, Severity.ERROR, message, path, Span(line, 1, line, 4))


def _screen(text: str, path: str, budget: Budget) -> tuple[str, list[Diagnostic]]:
    """The text with every document over MAX_DOCUMENT_BYTES blanked (its lines kept, so positions stay) and
    cut after the documents the budget allows, before any YAML is parsed; a WM718 finding for each."""
    starts = [m.start() for m in _DOCUMENT_START.finditer(text)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    if len(text) <= MAX_DOCUMENT_BYTES and len(starts) <= budget.documents:
        budget.documents -= len(starts)
        return text, []
    problems: list[Diagnostic] = []
    parts: list[str] = []
    line = 1
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        chunk = text[start:end]
        if budget.documents <= 0:
            if not budget.exhausted:
                budget.exhausted = True
                problems.append(_limit_diagnostic(
                    path, line, f"more than {MAX_DOCUMENTS} manifest documents; this one and the rest are "
                    "not resolved"))
            break
        budget.documents -= 1
        if len(chunk.encode("utf-8", "surrogatepass")) > MAX_DOCUMENT_BYTES:
            size = len(chunk.encode("utf-8", "surrogatepass")) / (1 << 20)
            problems.append(_limit_diagnostic(
                path, line, f"manifest document of {size:.1f} MiB is larger than the "
                f"{MAX_DOCUMENT_BYTES >> 20} MiB wmaplint resolves; not resolved"))
            chunk = ("---" if chunk.startswith("---") else "") + "\n" * chunk.count("\n")
        parts.append(chunk)
        line += chunk.count("\n")
    return "".join(parts), problems


def _too_many_nodes(root: object) -> bool:
    """Whether a document holds more than MAX_DOCUMENT_NODES nodes (stops counting there)."""
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


def load_file(
    path: str, text: str | None = None, budget: Budget | None = None
) -> tuple[list[LoadedDocument], list[Diagnostic]]:
    """Documents of a YAML/JSON file as plain values; YAML faults come back as diagnostics. With a budget,
    the file holds manifests: documents past the resolution limits are reported (WM718) and left out."""
    if text is None:
        text = read_source(path)
    shown = "<stdin>" if path == "-" else path
    limited: list[Diagnostic] = []
    if budget is not None:
        text, limited = _screen(text, shown, budget)
    source = load_text(text, shown)
    from wmaplint.rules import diagnostics_of

    problems = [*diagnostics_of(source.problems), *limited]
    loaded: list[LoadedDocument] = []
    for document in source.documents:
        if document.root is None:
            continue
        if budget is not None and _too_many_nodes(document.root):
            line = document.root.span.start_line
            message = f"manifest document has more than {MAX_DOCUMENT_NODES} YAML nodes; not resolved"
            problems.append(_limit_diagnostic(shown, line, message))
            continue
        try:
            value = to_python(document.root)
        except RecursionError:
            raise InputError(path, "nesting too deep to read") from None
        loaded.append(LoadedDocument(source, document, value))
    return loaded, problems


def _text(value: Any) -> str | None:
    """The value if it is a string; YAML lets apiVersion, kind or group be a list or mapping."""
    return value if isinstance(value, str) else None


def is_definition(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    api_version, kind = _text(value.get("apiVersion")), _text(value.get("kind"))
    return api_version is not None and kind is not None and (api_version, kind) in DEFINITION_KINDS


def definition_gvk(value: Any) -> GVK | None:
    kind = (
        value.get("spec", {}).get("structureDefinition", {}).get("rootComponent", {}).get("kind")
        if isinstance(value, dict)
        and isinstance(value.get("spec"), dict)
        and isinstance(value["spec"].get("structureDefinition"), dict)
        and isinstance(value["spec"]["structureDefinition"].get("rootComponent"), dict)
        else None
    )
    if not isinstance(kind, dict) or not isinstance(kind.get("kind"), str):
        return None
    group, version = kind.get("group") or "", kind.get("version") or ""
    if not isinstance(group, str) or not isinstance(version, str):
        return None  # a list or mapping here names no GVK a manifest could have
    return (group, version, kind["kind"])


def manifest_gvk(value: Any) -> GVK | None:
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

    def add(self, documents: Iterable[LoadedDocument], *, from_catalog: bool = False) -> int:
        added = 0
        target = self.catalog if from_catalog else self.explicit
        for loaded in documents:
            if not is_definition(loaded.value):
                continue
            gvk = definition_gvk(loaded.value)
            if gvk is None:
                continue
            target.setdefault(gvk, []).append(DefinitionEntry(gvk, loaded))
            added += 1
        return added

    def add_catalog(self, directory: Path | None = None) -> None:
        directory = directory or catalog_dir()
        if not directory.is_dir():
            return
        for path in sorted(directory.glob("*.yaml")):
            try:
                documents, problems = load_file(str(path))
            except InputError:
                continue
            self.problems.extend(problems)
            self.add(documents, from_catalog=True)

    def lookup(self, gvk: GVK) -> list[DefinitionEntry]:
        return self.explicit.get(gvk) or self.catalog.get(gvk) or []
